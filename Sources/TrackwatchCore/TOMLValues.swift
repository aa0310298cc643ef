// Values and the table tree of the TOML reader (see TOML.swift).
extension Parser {
    mutating func value(depth: Int) throws -> TOMLValue {
        guard depth < TOML.maximumDepth else { throw fail("values nested too deeply") }
        let valueLine = line
        switch peek {
        case UInt8(ascii: "\""):
            if peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") {
                return TOMLValue(kind: .string(try multilineString(literal: false)), line: valueLine)
            }
            return TOMLValue(kind: .string(try basicString()), line: valueLine)
        case UInt8(ascii: "'"):
            if peek(1) == UInt8(ascii: "'"), peek(2) == UInt8(ascii: "'") {
                return TOMLValue(kind: .string(try multilineString(literal: true)), line: valueLine)
            }
            return TOMLValue(kind: .string(try literalString()), line: valueLine)
        case UInt8(ascii: "["):
            return TOMLValue(kind: .array(try array(depth: depth)), line: valueLine)
        case UInt8(ascii: "{"):
            return TOMLValue(kind: .table(try inlineTable(depth: depth)), line: valueLine)
        case nil, UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#"):
            throw fail("a value is missing after =")
        default:
            return TOMLValue(kind: try scalar(), line: valueLine)
        }
    }

    /// `true`, `false`, integers and floats; anything else (dates, bare words) is refused.
    mutating func scalar() throws -> TOMLValue.Kind {
        let start = index
        while let byte = peek, !Self.endsScalar(byte) { index += 1 }
        let word = String(decoding: bytes[start..<index], as: UTF8.self)
        if word == "true" { return .boolean(true) }
        if word == "false" { return .boolean(false) }
        if let integer = Self.integer(word) { return .integer(integer) }
        if let float = Self.float(word) { return .float(float) }
        if Self.looksLikeDateOrTime(word) {
            throw fail("dates and times are not supported by trackwatch's config reader; write them as strings")
        }
        // A bare word: almost always a string without its quotes (url = https://…, username = engineer).
        var rest = index
        while rest < bytes.count, bytes[rest] != UInt8(ascii: "\n"), bytes[rest] != UInt8(ascii: "#") { rest += 1 }
        var text = String(decoding: bytes[start..<rest], as: UTF8.self)
        while text.last == " " || text.last == "\t" || text.last == "\r" { text.removeLast() }
        let quoted = text.count > 60 ? "\"\(text.prefix(57))…\"" : "\"\(text)\""
        throw fail("\(quoted.dropFirst().dropLast()) is not a value TOML knows: quote the value, as in \(quoted)")
    }

    /// `2026-11-22`, `2026-11-22T10:00:00Z`, `10:00` or `10:00:00`: TOML dates and times, not bare words.
    static func looksLikeDateOrTime(_ word: String) -> Bool {
        let shape = String(word.prefix(10).map { $0.isASCII && $0.isNumber ? "9" : $0 })
        return shape == "9999-99-99" || shape.hasPrefix("99:99")
    }

    static func endsScalar(_ byte: UInt8) -> Bool {
        [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#"),
         UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(byte)
    }

    static func integer(_ word: String) -> Int? {
        var text = Substring(word)
        guard !text.hasPrefix("_"), !text.hasSuffix("_"), !text.contains("__") else { return nil }
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where text.hasPrefix(prefix) {
            return Int(text.dropFirst(2).filter { $0 != "_" }, radix: radix)
        }
        let negative = text.hasPrefix("-")
        if text.hasPrefix("+") || negative { text = text.dropFirst() }
        guard let first = text.first, first.isNumber, text == "0" || first != "0" else { return nil }
        guard let magnitude = Int(text.filter { $0 != "_" }) else { return nil }
        return negative ? -magnitude : magnitude
    }

    static func float(_ word: String) -> Double? {
        if ["inf", "+inf", "-inf", "nan", "+nan", "-nan"].contains(word) { return nil }
        guard word.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), !word.hasPrefix("."), !word.hasSuffix(".")
        else { return nil }
        return Double(word.filter { $0 != "_" })
    }

    mutating func array(depth: Int) throws -> [TOMLValue] {
        index += 1
        var items: [TOMLValue] = []
        while true {
            try skipWhitespaceAndComments()
            if peek == UInt8(ascii: "]") {
                index += 1
                return items
            }
            items.append(try value(depth: depth + 1))
            try skipWhitespaceAndComments()
            if peek == UInt8(ascii: ",") {
                index += 1
            } else if peek != UInt8(ascii: "]") {
                throw fail("expected , or ] in the array")
            }
        }
    }

    mutating func inlineTable(depth: Int) throws -> TOMLTable {
        var table = TOMLTable(line: line)
        index += 1
        skipBlank()
        if peek == UInt8(ascii: "}") {
            index += 1
            return table
        }
        while true {
            skipBlank()
            let (path, value, keyLine) = try keyValue(depth: depth + 1)
            try Self.insert(value, into: &table, keyPath: path[...], line: keyLine)
            skipBlank()
            if peek == UInt8(ascii: "}") {
                index += 1
                return table
            }
            guard peek == UInt8(ascii: ",") else { throw fail("expected , or } in the inline table") }
            index += 1
        }
    }

    // MARK: Strings

    mutating func basicString() throws -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        while true {
            guard let byte = peek, byte != UInt8(ascii: "\n") else { throw fail("the string is not closed on this line") }
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(scalars)
            }
            if byte == UInt8(ascii: "\\") {
                scalars.append(try escape())
            } else {
                scalars.append(contentsOf: try character().unicodeScalars)
            }
        }
    }

    mutating func literalString() throws -> String {
        index += 1
        let start = index
        while let byte = peek, byte != UInt8(ascii: "'") {
            guard byte != UInt8(ascii: "\n") else { throw fail("the string is not closed on this line") }
            index += 1
        }
        guard peek != nil else { throw fail("the string is not closed on this line") }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        index += 1
        return text
    }

    mutating func multilineString(literal: Bool) throws -> String {
        let quote = literal ? UInt8(ascii: "'") : UInt8(ascii: "\"")
        index += 3
        if peek == UInt8(ascii: "\n") { try newline() } else if peek == UInt8(ascii: "\r") { try newline() }
        var scalars = String.UnicodeScalarView()
        while true {
            guard let byte = peek else { throw fail("the multi-line string is never closed") }
            if byte == quote, peek(1) == quote, peek(2) == quote {
                index += 3
                while peek == quote, scalars.count < Int.max { scalars.append(Unicode.Scalar(quote)); index += 1 }
                return String(scalars)
            }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                try newline()
                scalars.append("\n")
            } else if !literal && byte == UInt8(ascii: "\\") {
                if let next = peek(1), next == UInt8(ascii: "\n") || next == UInt8(ascii: " ") || next == UInt8(ascii: "\r") {
                    index += 1  // line-ending backslash: drop it and the whitespace that follows
                    try skipWhitespaceAndComments()
                } else {
                    scalars.append(try escape())
                }
            } else {
                scalars.append(contentsOf: try character().unicodeScalars)
            }
        }
    }

    mutating func escape() throws -> Unicode.Scalar {
        index += 1
        guard let byte = peek else { throw fail("the string ends inside an escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let count = byte == UInt8(ascii: "u") ? 4 : 8
            guard index + count <= bytes.count,
                let code = UInt32(String(decoding: bytes[index..<index + count], as: UTF8.self), radix: 16),
                let scalar = Unicode.Scalar(code)
            else { throw fail("invalid unicode escape") }
            index += count
            return scalar
        default:
            throw fail("invalid escape \\\(Character(Unicode.Scalar(byte)))")
        }
    }

    /// One UTF-8 character; control characters other than tab are refused.
    mutating func character() throws -> String {
        guard let byte = peek else { throw fail("unexpected end of file") }
        if byte < 0x20 && byte != UInt8(ascii: "\t") || byte == 0x7F { throw fail("control characters must be escaped") }
        let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        guard index + length <= bytes.count,
            let text = String(validating: bytes[index..<index + length], as: UTF8.self)
        else { throw fail("the file is not valid UTF-8") }
        index += length
        return text
    }
}
