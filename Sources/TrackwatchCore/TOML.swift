/// A TOML value with the line it was written on, so that configuration errors can point at it.
public struct TOMLValue: Sendable {
    public indirect enum Kind: Sendable {
        case string(String), integer(Int), float(Double), boolean(Bool), array([TOMLValue]), table(TOMLTable)
    }

    public let kind: Kind
    public let line: Int

    public var typeName: String {
        switch kind {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a number"
        case .boolean: return "a boolean"
        case .array: return "an array"
        case .table: return "a table"
        }
    }
}

/// A TOML table: keys in the order written, each with its value and line.
public struct TOMLTable: Sendable {
    public internal(set) var keys: [String] = []
    public internal(set) var values: [String: TOMLValue] = [:]
    /// The line of the header (`[server]`) or of the first key that created it; 0 for the root.
    public let line: Int
    /// Defined by a `[header]` (not merely implied by `[a.b]` or a dotted key).
    var explicit = false

    init(line: Int) { self.line = line }

    public subscript(key: String) -> TOMLValue? { values[key] }
}

/// A syntax error with its 1-based line.
public struct TOMLError: Error, Equatable, Sendable {
    public let line: Int
    public let message: String
}

/// A reader for the TOML a configuration file needs: tables, arrays of tables, dotted and quoted keys, the
/// four string forms, integers, floats, booleans, arrays and inline tables. Dates and times are refused
/// with a clear message. Written here (not a library) to know the line of every key, and bounded: nesting
/// deeper than `maximumDepth` is refused, so no input can exhaust the stack.
public enum TOML {
    public static let maximumDepth = 32

    /// - Throws: `TOMLError`.
    public static func parse(_ text: String) throws -> TOMLTable {
        var parser = Parser(bytes: Array(text.utf8))
        return try parser.document()
    }
}

struct Parser {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var root = TOMLTable(line: 0)
    /// Path of the table that key/value lines go into, and whether it is an array-of-tables element.
    var current: [String] = []
    /// Paths created by `[[header]]`, the only arrays a header may append to.
    var tableArrays = Set<[String]>()

    init(bytes: [UInt8]) { self.bytes = bytes }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
    func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    func fail(_ message: String) -> TOMLError { TOMLError(line: line, message: message) }

    mutating func document() throws -> TOMLTable {
        while true {
            skipBlank()
            guard let byte = peek else { return root }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                try newline()
            } else if byte == UInt8(ascii: "#") {
                skipComment()
            } else if byte == UInt8(ascii: "[") {
                try header()
                try endOfLine()
            } else {
                let (path, value, keyLine) = try keyValue(depth: 0)
                try insert(value, at: current, keyPath: path, line: keyLine)
                try endOfLine()
            }
        }
    }

    /// `key.path = value`, with the line the key is on.
    mutating func keyValue(depth: Int) throws -> ([String], TOMLValue, Int) {
        let keyLine = line
        let path = try keyPath()
        skipBlank()
        guard peek == UInt8(ascii: "=") else { throw fail("expected = after the key") }
        index += 1
        skipBlank()
        return (path, try value(depth: depth), keyLine)
    }

    // MARK: Lines and blanks

    mutating func skipBlank() {
        while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
    }

    mutating func skipComment() {
        while let byte = peek, byte != UInt8(ascii: "\n") { index += 1 }
    }

    mutating func newline() throws {
        if peek == UInt8(ascii: "\r") {
            guard peek(1) == UInt8(ascii: "\n") else { throw fail("a carriage return must be followed by a newline") }
            index += 1
        }
        index += 1
        line += 1
    }

    mutating func endOfLine() throws {
        skipBlank()
        if peek == UInt8(ascii: "#") { skipComment() }
        guard let byte = peek else { return }
        guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
            throw fail("unexpected text after the value; put one key = value per line")
        }
        try newline()
    }

    /// Skips blanks, newlines and comments inside arrays.
    mutating func skipWhitespaceAndComments() throws {
        while let byte = peek {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
            else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { try newline() }
            else if byte == UInt8(ascii: "#") { skipComment() }
            else { return }
        }
    }

    // MARK: Headers and keys

    mutating func header() throws {
        let headerLine = line
        index += 1
        let isArray = peek == UInt8(ascii: "[")
        if isArray { index += 1 }
        skipBlank()
        let path = try keyPath()
        skipBlank()
        guard peek == UInt8(ascii: "]") else { throw fail("expected ] to close the table header") }
        index += 1
        if isArray {
            guard peek == UInt8(ascii: "]") else { throw fail("expected ]] to close the array-of-tables header") }
            index += 1
        }
        current = path
        if isArray {
            try appendTableArrayElement(at: path, line: headerLine)
        } else {
            try defineTable(at: path, line: headerLine)
        }
    }

    mutating func keyPath() throws -> [String] {
        var path = [try simpleKey()]
        while true {
            skipBlank()
            guard peek == UInt8(ascii: ".") else { return path }
            index += 1
            skipBlank()
            path.append(try simpleKey())
            if path.count > TOML.maximumDepth { throw fail("keys nested too deeply") }
        }
    }

    mutating func simpleKey() throws -> String {
        switch peek {
        case UInt8(ascii: "\""): return try basicString()
        case UInt8(ascii: "'"): return try literalString()
        default:
            let start = index
            while let byte = peek, Self.isBareKey(byte) { index += 1 }
            guard index > start else { throw fail("expected a key (letters, digits, _ or -)") }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }

    static func isBareKey(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
