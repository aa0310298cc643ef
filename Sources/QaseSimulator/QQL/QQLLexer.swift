/// The words of a QQL query: names, quoted strings ("…" or '…'), integers, operators and brackets.
enum QQLToken: Equatable, Sendable {
    case name(String)
    case string(String)
    case number(Int)
    case symbol(String)
}

/// Anything the simulator's QQL does not understand: the server answers 400 "Query is invalid". `reason` is the
/// simulator's own explanation, sent in the `X-Qase-Sim-Reason` header for people debugging a client.
struct QQLError: Error, Equatable {
    let reason: String
}

enum QQLLexer {
    static func tokens(_ text: String) throws -> [QQLToken] {
        var tokens: [QQLToken] = []
        let chars = Array(text.unicodeScalars)
        var index = 0
        while index < chars.count {
            let char = chars[index]
            if char.properties.isWhitespace {
                index += 1
            } else if char == "\"" || char == "'" {
                tokens.append(.string(try quoted(chars, &index)))
            } else if isDigit(char) || (char == "-" && index + 1 < chars.count && isDigit(chars[index + 1])) {
                let start = index
                index += 1
                while index < chars.count, isDigit(chars[index]) { index += 1 }
                guard let value = Int(String(String.UnicodeScalarView(chars[start..<index]))) else {
                    throw QQLError(reason: "number out of range")
                }
                tokens.append(.number(value))
            } else if isNameStart(char) {
                let start = index
                while index < chars.count, isNameStart(chars[index]) || isDigit(chars[index]) { index += 1 }
                tokens.append(.name(String(String.UnicodeScalarView(chars[start..<index]))))
            } else {
                tokens.append(.symbol(try symbol(chars, &index)))
            }
        }
        return tokens
    }

    private static func quoted(_ chars: [Unicode.Scalar], _ index: inout Int) throws -> String {
        let quote = chars[index]
        var value = String.UnicodeScalarView()
        index += 1
        while index < chars.count, chars[index] != quote {
            if chars[index] == "\\", index + 1 < chars.count { index += 1 }
            value.append(chars[index])
            index += 1
        }
        guard index < chars.count else { throw QQLError(reason: "unterminated string") }
        index += 1
        return String(value)
    }

    private static func symbol(_ chars: [Unicode.Scalar], _ index: inout Int) throws -> String {
        let two = index + 1 < chars.count ? String(String.UnicodeScalarView([chars[index], chars[index + 1]])) : ""
        if ["!=", ">=", "<=", "!~"].contains(two) {
            index += 2
            return two
        }
        let one = String(chars[index])
        guard ["=", ">", "<", "~", "(", ")", "[", "]", ","].contains(one) else {
            throw QQLError(reason: "unexpected character \(one)")
        }
        index += 1
        return one
    }

    private static func isDigit(_ char: Unicode.Scalar) -> Bool { ("0"..."9").contains(char) }
    private static func isNameStart(_ char: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(char) || ("A"..."Z").contains(char) || char == "_"
    }
}
