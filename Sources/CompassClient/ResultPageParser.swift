/// Reads `{"rows": [{"values": [...]}, ...], ...}`, the one large body the client receives, straight into
/// `[[String]]`.
///
/// Why not `JSONDecoder`: on a 100,000-record result the generic Codable path was 59% of a poll's CPU (1.8 s)
/// and built a full JSON map beside the rows. This reads each value once, skips every other key, and keeps
/// nothing but the strings. It is as strict as the documented shape needs: anything malformed is an error
/// (never a partial result), nesting is bounded, `null` becomes "", and a number or boolean (values are
/// documented as strings) is kept as its literal text.
///
/// Hostile input: a value that is not valid UTF-8 is an error, not repaired (a repaired `\u{FFFD}lose` would be
/// a new history key, an old entry reported as new); and the reader stops at the first row beyond the page size
/// and the first value beyond the column count, so that what it builds is bounded by the request, not by what
/// the server sends (millions of empty rows or values in a 63 MB body once peaked at 386 and 621 MB).
struct ResultPageParser {
    struct Failure: Error, CustomStringConvertible {
        let message: String
        let offset: Int
        var description: String { "\(message) at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private let columns: Int
    private let maxRows: Int
    private static let maximumDepth = 64

    /// The rows of a result page; throws `Failure` for anything that is not a JSON object with a `rows` array of
    /// at most `maxRows` rows of at most `columns` values each.
    static func rows(in body: [UInt8], columns: Int, maxRows: Int) throws -> [[String]] {
        var parser = ResultPageParser(bytes: body, columns: columns, maxRows: maxRows)
        return try parser.page()
    }

    private init(bytes: [UInt8], columns: Int, maxRows: Int) {
        self.bytes = bytes
        self.columns = columns
        self.maxRows = maxRows
    }

    private mutating func page() throws -> [[String]] {
        var rows: [[String]]?
        try object(depth: 0) { parser, key in
            if key == "rows" { rows = try parser.rowsArray() } else { try parser.skipValue(depth: 1) }
        }
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected text after the JSON object") }
        guard let rows else { throw failure("no \"rows\" array") }
        return rows
    }

    private mutating func rowsArray() throws -> [[String]] {
        var rows: [[String]] = []
        try array(depth: 1) { parser in
            guard rows.count < parser.maxRows else {
                throw parser.failure("more than the \(parser.maxRows) rows asked for on one page")
            }
            var values: [String]?
            try parser.object(depth: 2) { parser, key in
                if key == "values" { values = try parser.valuesArray() } else { try parser.skipValue(depth: 3) }
            }
            guard let values else { throw parser.failure("a row without \"values\"") }
            rows.append(values)
        }
        return rows
    }

    private mutating func valuesArray() throws -> [String] {
        var values: [String] = []
        values.reserveCapacity(columns)
        try array(depth: 3) { parser in
            guard values.count < parser.columns else {
                throw parser.failure("a row with more than the query's \(parser.columns) columns")
            }
            parser.skipWhitespace()
            switch parser.peek() {
            case UInt8(ascii: "\""): values.append(try parser.string())
            case UInt8(ascii: "n"): try parser.literal("null"); values.append("")
            case UInt8(ascii: "t"): try parser.literal("true"); values.append("true")
            case UInt8(ascii: "f"): try parser.literal("false"); values.append("false")
            default: values.append(try parser.number())
            }
        }
        return values
    }

    // MARK: - JSON structure

    private mutating func object(depth: Int, _ member: (inout ResultPageParser, String) throws -> Void) throws {
        guard depth < Self.maximumDepth else { throw failure("nested too deeply") }
        try expect(UInt8(ascii: "{"))
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return }
        while true {
            skipWhitespace()
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "}"))
            return
        }
    }

    private mutating func array(depth: Int, _ element: (inout ResultPageParser) throws -> Void) throws {
        guard depth < Self.maximumDepth else { throw failure("nested too deeply") }
        skipWhitespace()
        try expect(UInt8(ascii: "["))
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; return }
        while true {
            try element(&self)
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "]"))
            return
        }
    }

    private mutating func skipValue(depth: Int) throws {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "{"): try object(depth: depth) { parser, _ in try parser.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["): try array(depth: depth) { parser in try parser.skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        default: _ = try number()
        }
    }

    // MARK: - Scalars

    private mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        // Fast path: no escapes.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            guard bytes[index] >= 0x20 else { throw failure("a control character in a string") }
            index += 1
        }
        guard index < bytes.count else { throw failure("an unterminated string") }
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return try utf8(bytes[start..<(index - 1)], at: start)
        }
        var text = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return try utf8(text[...], at: start)
            case UInt8(ascii: "\\"): try escape(into: &text)
            case 0..<0x20: throw failure("a control character in a string")
            default: text.append(byte)
            }
        }
        throw failure("an unterminated string")
    }

    /// Text only if it is valid UTF-8. ASCII, most of what a server sends, is valid as it is: the validating
    /// initialiser, not specialised across modules, looks its generic metadata up for every string (an eighth of
    /// a 100,000-record poll's CPU).
    private func utf8(_ text: ArraySlice<UInt8>, at offset: Int) throws -> String {
        if text.allSatisfy({ $0 < 0x80 }) { return String(decoding: text, as: UTF8.self) }
        guard let string = String(validating: text, as: UTF8.self) else {
            throw Failure(message: "a string that is not valid UTF-8", offset: offset)
        }
        return string
    }

    /// Steps over a string the client does not use, without building it.
    private mutating func skipString() throws {
        try expect(UInt8(ascii: "\""))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw failure("an unterminated escape") }
                index += 1
            case 0..<0x20: throw failure("a control character in a string")
            default: continue
            }
        }
        throw failure("an unterminated string")
    }

    private mutating func escape(into text: inout [UInt8]) throws {
        guard index < bytes.count else { throw failure("an unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            // A lone surrogate (a server cutting UTF-16 text in the middle of a pair) becomes U+FFFD, the same
            // way every time: unlike bytes that are not UTF-8, it is the server's text as sent, and failing the
            // page would hold back every change for as long as that record keeps it.
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar), bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            {
                index += 2
                let low = try hex4()
                if (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    text.append(contentsOf: Array("\u{FFFD}".utf8))
                    scalar = low
                }
            }
            text.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8))
        default: throw failure("an invalid escape")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("an invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func number() throws -> String {
        let start = index
        while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
        guard index > start else { throw failure(index < bytes.count ? "an unexpected character" : "an unexpected end") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func literal(_ word: StaticString) throws {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
            throw failure("an unexpected word")
        }
        index += expected.count
    }

    // MARK: - Bytes

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func expect(_ byte: UInt8) throws {
        skipWhitespace()
        guard index < bytes.count else { throw failure("an unexpected end") }
        guard bytes[index] == byte else { throw failure("expected '\(Character(Unicode.Scalar(byte)))'") }
        index += 1
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    private func failure(_ message: String) -> Failure { Failure(message: message, offset: index) }
}
