import CSystemd
import TrackwatchCore
#if canImport(Glibc)
import Glibc
#endif

/// Structured entries for the systemd journal through its native protocol (`sd_journal_sendv`).
public enum Journal {
    /// journald's native socket: `send` silently succeeds when it is missing, so callers that must know look.
    public static let socketPath = "/run/systemd/journal/socket"

    /// The longest `MESSAGE`, in characters.
    static let messageLimit = 2_000

    /// Sends one entry. Field names are upper-case `[A-Z0-9_]`; values may contain newlines and are stored as
    /// they are, except `MESSAGE`, the line `journalctl` shows people: it is made one literal line of at most
    /// `messageLimit` characters (`SafeText.oneLine`), so that server text in it can neither fake a log line nor
    /// carry a terminal escape sequence, nor make a line of any length. Returns the negative errno on failure (0
    /// also when no journal runs: libsystemd drops the
    /// entry silently).
    @discardableResult
    public static func send(_ fields: [(name: String, value: String)]) -> Int32 {
        // All "NAME=value" strings in one buffer this function owns, so every iovec stays valid for the call.
        let encoded = fields.map {
            Array("\($0.name)=\($0.name == "MESSAGE" ? SafeText.oneLine($0.value, limit: messageLimit) : $0.value)".utf8)
        }
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, encoded.reduce(0) { $0 + $1.count }), alignment: 1)
        defer { storage.deallocate() }
        var vectors: [iovec] = []
        vectors.reserveCapacity(encoded.count)
        var offset = 0
        for bytes in encoded {
            let start = storage.baseAddress! + offset
            bytes.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            vectors.append(iovec(iov_base: start, iov_len: bytes.count))
            offset += bytes.count
        }
        return sd_journal_sendv(vectors, Int32(vectors.count))
    }

    /// syslog priorities, as the journal's `PRIORITY` field wants them.
    public enum Priority: Int, Sendable {
        case emergency = 0, alert, critical, error, warning, notice, info, debug
    }

    /// `A-Z`, `0-9` and `_`, not starting with `_` (reserved for trusted fields) or a digit.
    public static func fieldName(_ name: String) -> String {
        var result = String(name.uppercased().map { ($0.isASCII && ($0.isLetter || $0.isNumber)) ? $0 : "_" })
        while result.hasPrefix("_") { result.removeFirst() }
        if result.first?.isNumber ?? true { result = "F" + result }
        return String(result.prefix(64))
    }
}
