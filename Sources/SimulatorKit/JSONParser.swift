/// Reads request bodies (RFC 8259) into `JSONValue`, keeping member order and number spelling. Nesting deeper
/// than `maximumDepth` is refused rather than recursed into.
struct JSONParser {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var index = 0

    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected text after the value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func failure(_ message: String) -> Failure { Failure(description: "\(message) at byte \(index)") }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, [0x20, 0x09, 0x0A, 0x0D].contains(byte) { index += 1 }
    }

    private mutating func expect(_ word: String, _ value: JSONValue) throws -> JSONValue {
        let word = Array(word.utf8)
        guard bytes.count - index >= word.count, Array(bytes[index..<index + word.count]) == word else {
            throw failure("invalid literal")
        }
        index += word.count
        return value
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard depth < Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth)") }
        switch current {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case let byte? where byte == UInt8(ascii: "-") || (48...57).contains(byte): return try number()
        default: throw failure("expected a value")
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        index += 1
        var values: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(values)
        }
        while true {
            skipWhitespace()
            values.append(try value(depth: depth + 1))
            skipWhitespace()
            guard let byte = current else { throw failure("unterminated array") }
            index += 1
            if byte == UInt8(ascii: "]") { return .array(values) }
            guard byte == UInt8(ascii: ",") else { throw failure("expected , or ]") }
        }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected :") }
            index += 1
            skipWhitespace()
            object.members.append(JSONObject.Member(key, try value(depth: depth + 1)))
            skipWhitespace()
            guard let byte = current else { throw failure("unterminated object") }
            index += 1
            if byte == UInt8(ascii: "}") { return .object(object) }
            guard byte == UInt8(ascii: ",") else { throw failure("expected , or }") }
        }
    }

    private mutating func number() throws -> JSONValue {
        let start = index
        let allowed = Array("+-.eE0123456789".utf8)
        while let byte = current, allowed.contains(byte) { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard Double(text) != nil, text.last.map({ $0.isNumber }) == true else { throw failure("invalid number") }
        return .number(text)
    }

    private mutating func string() throws -> String {
        index += 1
        var text = ""
        while index < bytes.count {
            // A run of plain bytes is decoded in one go (a 1.5 MB picture is one run).
            let start = index
            while index < bytes.count, bytes[index] >= 0x20, bytes[index] != UInt8(ascii: "\""),
                bytes[index] != UInt8(ascii: "\\")
            {
                index += 1
            }
            text += String(decoding: bytes[start..<index], as: UTF8.self)
            guard let byte = current else { break }
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return text
            case UInt8(ascii: "\\"): text.unicodeScalars.append(try escaped())
            default: throw failure("control character in a string")
            }
        }
        throw failure("unterminated string")
    }

    private mutating func escaped() throws -> Unicode.Scalar {
        guard let byte = current else { throw failure("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "u"):
            let high = try hexQuad()
            guard (0xD800..<0xDC00).contains(high) else { return Unicode.Scalar(high) ?? "\u{FFFD}" }
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                return "\u{FFFD}"
            }
            index += 2
            let low = try hexQuad()
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low &- 0xDC00)) ?? "\u{FFFD}"
        default:
            throw failure("invalid escape")
        }
    }

    private mutating func hexQuad() throws -> UInt32 {
        guard bytes.count - index >= 4,
            let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw failure("invalid \\u escape") }
        index += 4
        return value
    }
}

extension JSONValue {
    /// Parses JSON text, keeping member order and number spelling.
    public static func parse(_ bytes: [UInt8]) throws -> JSONValue { try JSONParser.parse(bytes) }
}
