/// The part of JQL the Jira recipe server understands: clauses joined by AND over `assignee`, `reporter`,
/// `status`, `statusCategory`, `resolution`, `project` and `labels` with `=`, `!=`, `in (…)`, `not in (…)`,
/// `is [not] EMPTY`; values may be `currentUser()`, `Unresolved`, words or quoted text; and `ORDER BY` over
/// `updated`, `created`, `key`. Anything else is refused as Jira refuses a query it cannot run (400).
struct JQL {
    struct Failure: Error {
        let message: String
    }

    struct Clause {
        let field: String
        /// `=`, `!=`, `in`, `not in`, `is`, `is not`.
        let op: String
        let values: [String]
    }

    var clauses: [Clause] = []
    var order: [(field: String, ascending: Bool)] = []

    static let fields = ["assignee", "reporter", "status", "statuscategory", "resolution", "project", "labels"]

    static func parse(_ text: String) throws -> JQL {
        var parser = Parser(tokens: try tokens(text))
        return try parser.query()
    }

    /// Words, quoted text (quotes removed, marked by a leading "\u{1}"), and the operators `= != ( ) ,`.
    private static func tokens(_ text: String) throws -> [String] {
        var tokens: [String] = []
        var characters = Array(text)[...]
        while let first = characters.first {
            if first == " " || first == "\t" || first == "\n" {
                characters.removeFirst()
            } else if first == "\"" || first == "'" {
                characters.removeFirst()
                guard let end = characters.firstIndex(of: first) else { throw Failure(message: "unclosed quote") }
                tokens.append("\u{1}" + String(characters[..<end]))
                characters = characters[(end + 1)...]
            } else if first == "!" {
                guard characters.dropFirst().first == "=" else { throw Failure(message: "expected != ") }
                tokens.append("!=")
                characters.removeFirst(2)
            } else if "=(),".contains(first) {
                tokens.append(String(characters.removeFirst()))
            } else {
                let word = characters.prefix { !" \t\n=!(),\"'".contains($0) }
                characters.removeFirst(word.count)
                if characters.starts(with: ["(", ")"]) {  // a function call: currentUser()
                    characters.removeFirst(2)
                    tokens.append(String(word) + "()")
                } else {
                    tokens.append(String(word))
                }
            }
        }
        return tokens
    }

    private struct Parser {
        var tokens: [String]

        mutating func next() -> String? { tokens.isEmpty ? nil : tokens.removeFirst() }
        func peek(_ word: String) -> Bool { tokens.first?.lowercased() == word }

        mutating func expect(_ word: String) throws {
            guard next()?.lowercased() == word else { throw Failure(message: "expected '\(word)'") }
        }

        mutating func query() throws -> JQL {
            var jql = JQL()
            while !tokens.isEmpty && !peek("order") {
                if !jql.clauses.isEmpty {
                    if peek("or") { throw Failure(message: "json-sim's JQL joins clauses with AND only") }
                    try expect("and")
                }
                jql.clauses.append(try clause())
            }
            if peek("order") {
                _ = next()
                try expect("by")
                repeat {
                    guard let field = next()?.lowercased(), ["updated", "created", "key"].contains(field) else {
                        throw Failure(message: "Not able to sort using that field")
                    }
                    let ascending = !peek("desc")  // ascending unless told, whatever the field
                    if peek("asc") || peek("desc") { _ = next() }
                    jql.order.append((field, ascending))
                } while tokens.first == "," && next() != nil
            }
            guard tokens.isEmpty else { throw Failure(message: "unexpected '\(tokens[0])'") }
            return jql
        }

        mutating func clause() throws -> Clause {
            guard let field = next()?.lowercased(), JQL.fields.contains(field) else {
                throw Failure(message: "Field does not exist or you do not have permission to view it")
            }
            switch next()?.lowercased() {
            case "=": return Clause(field: field, op: "=", values: [try value()])
            case "!=": return Clause(field: field, op: "!=", values: [try value()])
            case "in": return Clause(field: field, op: "in", values: try list())
            case "not":
                try expect("in")
                return Clause(field: field, op: "not in", values: try list())
            case "is":
                let negated = peek("not")
                if negated { _ = next() }
                guard let word = next()?.lowercased(), word == "empty" || word == "null" else {
                    throw Failure(message: "expected EMPTY or NULL after IS")
                }
                return Clause(field: field, op: negated ? "is not" : "is", values: [])
            default: throw Failure(message: "expected an operator after '\(field)'")
            }
        }

        mutating func value() throws -> String {
            guard let token = next(), !["(", ")", ",", "=", "!="].contains(token) else {
                throw Failure(message: "expected a value")
            }
            return token.hasPrefix("\u{1}") ? String(token.dropFirst()) : token
        }

        mutating func list() throws -> [String] {
            try expect("(")
            var values = [try value()]
            while tokens.first == "," {
                _ = next()
                values.append(try value())
            }
            try expect(")")
            return values
        }
    }
}
