import TrackwatchCore

/// Reads JSON (RFC 8259) from a server that is not trusted: nesting is limited before the stack is, strings
/// that are not UTF-8 are repaired (U+FFFD) rather than refused, and every error says where it was found.
/// The body's size was bounded by the transport before it got here.
public struct JSONParser {
    /// Deeper answers are refused: recursion is bounded far below any thread's stack, and no list API nests
    /// anywhere near this deep.
    public static let maximumDepth = 100

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let message: String
        /// The byte offset in the answer where it went wrong.
        public let offset: Int
        /// The answer nests deeper than `maximumDepth`.
        public let tooDeep: Bool

        public var description: String { "\(message) at byte \(offset)" }
    }

    /// The one JSON document in `bytes` (whitespace around it allowed).
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> JSONValue in
            var parser = Cursor(buffer)
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.atEnd else { throw parser.failure("more text after the JSON value") }
            return value
        }
    }

    /// One JSON document, or newline-delimited JSON (one value per line, read as an array): a first value
    /// followed by more on a later line is NDJSON. `lines` says which it was.
    public static func parseDocumentOrLines(_ bytes: [UInt8]) throws(Failure) -> (value: JSONValue, lines: Bool) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> (value: JSONValue, lines: Bool) in
            var parser = Cursor(buffer)
            let first = try parser.value(depth: 0)
            parser.skipSpacesAndTabs()
            if parser.atEnd { return (first, false) }
            guard parser.consume(UInt8(ascii: "\n")) || parser.consume(UInt8(ascii: "\r")) else {
                throw parser.failure("more text after the JSON value")
            }
            parser.skipWhitespace()
            if parser.atEnd { return (first, false) }
            var items = [first]
            while !parser.atEnd {
                items.append(try parser.value(depth: 1))
                parser.skipSpacesAndTabs()
                guard parser.atEnd || parser.consume(UInt8(ascii: "\n")) || parser.consume(UInt8(ascii: "\r")) else {
                    throw parser.failure("expected one JSON value per line")
                }
                parser.skipWhitespace()
            }
            return (.array(items), true)
        }
    }
}

/// Reads JSON from a buffer, one value at a time; `JSONParser+Stream` walks an answer with the same grammar, limits
/// and error offsets.
struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    /// The names of the members of the objects read last at the first few depths, by position: the items of a list
    /// repeat their names, and a name read again is that string again, not one more allocation (and compares equal
    /// by identity). Bounded: `Self.cachedDepths` × `Self.cachedPositions` names of at most `Self.cachedLength` bytes.
    private var names: [[String]] = []
    static let cachedDepths = 8, cachedPositions = 64, cachedLength = 64

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }

    func failure(_ message: String, tooDeep: Bool = false) -> JSONParser.Failure {
        JSONParser.Failure(message: message, offset: index, tooDeep: tooDeep)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func skipSpacesAndTabs() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func value(depth: Int) throws(JSONParser.Failure) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw failure("the JSON ends early") }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < JSONParser.maximumDepth else {
                throw failure("the answer nests deeper than \(JSONParser.maximumDepth) levels", tooDeep: true)
            }
            return bytes[index] == UInt8(ascii: "{") ? try object(depth: depth + 1) : try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character '\(Self.printable(bytes[index]))'")
        }
    }

    static func printable(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }

    mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONParser.Failure) -> JSONValue {
        let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + text.count <= bytes.count, bytes[index..<index + text.count].elementsEqual(text) else {
            throw failure("expected \(word)")
        }
        index += text.count
        return value
    }

    mutating func array(depth: Int) throws(JSONParser.Failure) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(items) }
        while true {
            items.append(try value(depth: depth))
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            guard consume(UInt8(ascii: "]")) else { throw failure(atEnd ? "the JSON ends early" : "expected , or ]") }
            return .array(items)
        }
    }

    mutating func object(depth: Int) throws(JSONParser.Failure) -> JSONValue {
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure(atEnd ? "the JSON ends early" : "expected a member name in quotes")
            }
            let name = try memberName(depth: depth, position: members.count)
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw failure("expected : after a member name") }
            members.append(JSONMember(name: name, value: try value(depth: depth)))
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            guard consume(UInt8(ascii: "}")) else { throw failure(atEnd ? "the JSON ends early" : "expected , or }") }
            return .object(members)
        }
    }

    mutating func number() throws(JSONParser.Failure) -> JSONValue {
        let start = index
        let negative = consume(UInt8(ascii: "-"))
        let whole = digits()
        guard whole > 0 else { throw failure("expected a digit") }
        // Most numbers are ids and counts: an integer without a leading zero is its own canonical spelling.
        if index == bytes.count || (bytes[index] != UInt8(ascii: ".") && bytes[index] | 0x20 != UInt8(ascii: "e")),
            whole <= JSONNumber.longestPlainForm, bytes[index - whole] != UInt8(ascii: "0") || (whole == 1 && !negative)
        {
            return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        }
        if consume(UInt8(ascii: ".")) {
            guard digits() > 0 else { throw failure("expected a digit after the decimal point") }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard digits() > 0 else { throw failure("expected a digit in the exponent") }
        }
        guard let canonical = JSONNumber.canonical(bytes[start..<index]) else {
            throw failure("a number with an exponent beyond ±1000000")
        }
        return .number(canonical)
    }

    mutating func digits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    /// The member name at `index` (its opening quote), as `string()` reads it; the same string as the name at that
    /// depth and position in the object before when their bytes are the same and need no decoding.
    mutating func memberName(depth: Int, position: Int) throws(JSONParser.Failure) -> String {
        let quote = index
        var end = index + 1
        while end < bytes.count, end - quote <= Self.cachedLength, bytes[end] != UInt8(ascii: "\""),
            bytes[end] >= 0x20, bytes[end] != UInt8(ascii: "\\")
        {
            end += 1
        }
        guard depth < Self.cachedDepths, position < Self.cachedPositions, end < bytes.count,
            end - quote <= Self.cachedLength, bytes[end] == UInt8(ascii: "\"")
        else { return try string() }
        let raw = UnsafeBufferPointer(rebasing: bytes[quote + 1..<end])
        index = end + 1
        while names.count <= depth { names.append([]) }
        if position < names[depth].count {
            let same = names[depth][position].utf8.withContiguousStorageIfAvailable { $0.sameBytes(as: raw) } ?? false
            if same { return names[depth][position] }
            names[depth][position] = String(decoding: raw, as: UTF8.self)
            return names[depth][position]
        }
        let name = String(decoding: raw, as: UTF8.self)
        if position == names[depth].count { names[depth].append(name) }
        return name
    }

    /// A string at `index` (its opening quote); escapes decoded, bytes that are not UTF-8 repaired.
    mutating func string() throws(JSONParser.Failure) -> String {
        index += 1
        let start = index
        // Nearly every string has no escape: one copy of its bytes.
        if try plainRun() {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
        }
        var out = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw failure("the JSON ends inside a string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                let scalar = try escape()
                UTF8.encode(scalar) { out.append($0) }
            case 0..<0x20: throw failure("a control character inside a string")
            default: out.append(byte)
            }
        }
    }

    /// Inside a string: moves over the bytes that need no decoding, to its closing quote (passed: `true`) or its
    /// first escape (`false`). `string()` and `skipString()` share it, so that an error is found at the same byte.
    mutating func plainRun() throws(JSONParser.Failure) -> Bool {
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            guard bytes[index] >= 0x20 else { throw failure("a control character inside a string") }
            index += 1
        }
        guard index < bytes.count else { throw failure("the JSON ends inside a string") }
        guard bytes[index] == UInt8(ascii: "\"") else { return false }
        index += 1
        return true
    }

    /// The character an escape after a backslash stands for.
    mutating func escape() throws(JSONParser.Failure) -> Unicode.Scalar {
        guard index < bytes.count else { throw failure("the JSON ends inside a string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            {
                let saved = index
                index += 2
                let low = try hex4()
                if (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    index = saved
                }
            }
            // A lone surrogate is no character: repaired like bytes that are not UTF-8.
            return Unicode.Scalar(scalar) ?? "\u{FFFD}"
        default: throw failure("an unknown escape \\\(Self.printable(byte)) in a string")
        }
    }

    mutating func hex4() throws(JSONParser.Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("the JSON ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("expected four hex digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
