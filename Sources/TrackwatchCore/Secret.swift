/// A password or token. Never printed: its description and debug description are redacted, so a secret
/// that slips into a log message or an error shows as `<redacted>`.
public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let value: String

    public init(_ value: String) { self.value = value }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}

extension Secret {
    /// What the first line of a password file, a token file or a password program's output holds.
    public enum FirstLine: Equatable, Sendable {
        case secret(Secret)
        case empty
        /// A control character (C0, DEL, C1) is left inside: sent as it is, it broke a header and showed the
        /// secret in the error; no password or token holds one on purpose.
        case controlCharacter
    }

    /// The first line of `bytes`, without the spaces, tabs and line endings around it (a stray `\r` of a file
    /// written on Windows, or converted twice, is no part of a secret).
    public static func firstLine(of bytes: [UInt8]) -> FirstLine {
        // By index, not through `drop`/`reversed`: their nested generic types were built and checked at run time on
        // every start, a third of a millisecond of each `check` (perf, issue 33).
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        var start = bytes.startIndex, end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        if text.isEmpty { return .empty }
        let control = text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        return control ? .controlCharacter : .secret(Secret(text))
    }
}
