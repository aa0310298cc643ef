/// Anything wrong with a query: Jira answers 400 with the message in `errorMessages`.
struct JQLError: Error, Equatable {
    let message: String

    static func syntax(_ detail: String) -> JQLError { JQLError(message: "Error in the JQL Query: \(detail)") }
}

/// The words of a query: bare words (keywords, names, `-15m`, `WEB-3`), quoted strings and operators.
enum JQLToken: Equatable {
    case word(String)
    case quoted(String)
    case symbol(String)
}

/// A value on the right of an operator.
enum JQLValue: Equatable {
    case text(String)
    /// `currentUser()`, `now()`, `startOfDay()`, with their arguments.
    case function(String, [String])
    case empty
}

/// One clause: `assignee = currentUser()`, `key in (WEB-1, WEB-2)`, `assignee CHANGED FROM x AFTER -15m`.
struct JQLClause: Equatable {
    enum Operator: String {
        case equal = "=", notEqual = "!=", greater = ">", greaterOrEqual = ">=", less = "<", lessOrEqual = "<="
        case contains = "~", notContains = "!~", isIn = "in", notIn = "not in", isValue = "is", isNot = "is not"
        case changed
    }

    /// The field as written (lower-cased); `JQLCompiler` resolves aliases.
    var field: String
    var op: Operator
    var values: [JQLValue] = []
    /// For `CHANGED`: `from`, `to`, `by`, `after`, `before` → value.
    var predicates: [String: JQLValue] = [:]
}

indirect enum JQLExpression: Equatable {
    case clause(JQLClause)
    case and(JQLExpression, JQLExpression)
    case or(JQLExpression, JQLExpression)
    case not(JQLExpression)
}

struct JQLQuery: Equatable {
    /// nil: no restriction at all (empty, or `ORDER BY` alone), which `search/jql` refuses.
    var condition: JQLExpression?
    var order: [(field: String, descending: Bool)] = []

    static func == (lhs: JQLQuery, rhs: JQLQuery) -> Bool {
        lhs.condition == rhs.condition && lhs.order.map(\.field) == rhs.order.map(\.field)
            && lhs.order.map(\.descending) == rhs.order.map(\.descending)
    }
}

/// Recursive descent over `OR` (loosest), `AND`, `NOT` and parentheses, then `ORDER BY`.
struct JQLParser {
    private let tokens: [JQLToken]
    private var index = 0

    static func parse(_ text: String) throws -> JQLQuery {
        var parser = JQLParser(tokens: try JQLLexer.tokens(text))
        return try parser.query()
    }

    private init(tokens: [JQLToken]) { self.tokens = tokens }

    private mutating func query() throws -> JQLQuery {
        var query = JQLQuery()
        if index < tokens.count, !isKeyword("order") { query.condition = try orExpression() }
        if keyword("order") {
            guard keyword("by") else { throw JQLError.syntax("Expecting 'by' after 'order'.") }
            repeat {
                guard case .word(let field)? = next() else { throw JQLError.syntax("Expecting a field to order by.") }
                let descending = keyword("desc")
                if !descending { _ = keyword("asc") }
                query.order.append((field.lowercased(), descending))
            } while symbol(",")
        }
        guard index == tokens.count else { throw JQLError.syntax("Unexpected \(describe(tokens[index])).") }
        return query
    }

    private mutating func orExpression() throws -> JQLExpression {
        var left = try andExpression()
        while keyword("or") || symbol("||") { left = .or(left, try andExpression()) }
        return left
    }

    private mutating func andExpression() throws -> JQLExpression {
        var left = try notExpression()
        while keyword("and") || symbol("&&") { left = .and(left, try notExpression()) }
        return left
    }

    private mutating func notExpression() throws -> JQLExpression {
        if keyword("not") || symbol("!") { return .not(try notExpression()) }
        if symbol("(") {
            let inner = try orExpression()
            guard symbol(")") else { throw JQLError.syntax("Expecting ')'.") }
            return inner
        }
        return .clause(try clause())
    }

    private mutating func clause() throws -> JQLClause {
        guard let token = next() else { throw JQLError.syntax("Expecting a field name at the end of the query.") }
        let field: String
        switch token {
        case .word(let word), .quoted(let word): field = word.lowercased()
        case .symbol(let symbol): throw JQLError.syntax("Expecting a field name but got '\(symbol)'.")
        }
        if keyword("changed") { return try changed(field) }
        let op = try operatorWord(field)
        if op == .isIn || op == .notIn { return JQLClause(field: field, op: op, values: try list()) }
        return JQLClause(field: field, op: op, values: [try value()])
    }

    private mutating func changed(_ field: String) throws -> JQLClause {
        var clause = JQLClause(field: field, op: .changed)
        while let token = peek(), case .word(let word) = token,
            ["from", "to", "by", "after", "before"].contains(word.lowercased())
        {
            index += 1
            clause.predicates[word.lowercased()] = try value()
        }
        return clause
    }

    private mutating func operatorWord(_ field: String) throws -> JQLClause.Operator {
        switch next() {
        case .symbol(let symbol)?:
            if let op = JQLClause.Operator(rawValue: symbol), op != .changed { return op }
        case .word(let word)? where word.lowercased() == "in": return .isIn
        case .word(let word)? where word.lowercased() == "not" && keyword("in"): return .notIn
        case .word(let word)? where word.lowercased() == "is": return keyword("not") ? .isNot : .isValue
        default: break
        }
        throw JQLError.syntax(
            "Expecting operator after '\(field)'. The valid operators are '=', '!=', '<', '>', '<=', '>=', '~', "
                + "'!~', 'IN', 'NOT IN', 'IS', 'IS NOT' and 'CHANGED'.")
    }

    private mutating func list() throws -> [JQLValue] {
        guard symbol("(") else { throw JQLError.syntax("Expecting '(' after 'in'.") }
        var values = [try value()]
        while symbol(",") { values.append(try value()) }
        guard symbol(")") else { throw JQLError.syntax("Expecting ')' to close the list.") }
        return values
    }

    private mutating func value() throws -> JQLValue {
        switch next() {
        case .quoted(let text)?: return .text(text)
        case .word(let word)?:
            if ["empty", "null"].contains(word.lowercased()) { return .empty }
            guard symbol("(") else { return .text(word) }
            var arguments: [String] = []
            while let token = peek(), token != .symbol(")") {
                index += 1
                if case .word(let text) = token { arguments.append(text) }
                if case .quoted(let text) = token { arguments.append(text) }
            }
            guard symbol(")") else { throw JQLError.syntax("Expecting ')' after the arguments of \(word).") }
            return .function(word.lowercased(), arguments)
        case .symbol(let symbol)?: throw JQLError.syntax("Expecting a value but got '\(symbol)'.")
        case nil: throw JQLError.syntax("Expecting a value at the end of the query.")
        }
    }

    private func peek() -> JQLToken? { index < tokens.count ? tokens[index] : nil }

    private mutating func next() -> JQLToken? {
        defer { index += 1 }
        return peek()
    }

    private func isKeyword(_ word: String) -> Bool {
        if case .word(let text)? = peek() { return text.lowercased() == word }
        return false
    }

    private mutating func keyword(_ word: String) -> Bool {
        guard isKeyword(word) else { return false }
        index += 1
        return true
    }

    private mutating func symbol(_ text: String) -> Bool {
        guard peek() == .symbol(text) else { return false }
        index += 1
        return true
    }

    private func describe(_ token: JQLToken) -> String {
        switch token {
        case .word(let text): return "'\(text)'"
        case .quoted(let text): return "\"\(text)\""
        case .symbol(let text): return "'\(text)'"
        }
    }
}

enum JQLLexer {
    private static let symbols = ["!=", ">=", "<=", "!~", "||", "&&", "=", ">", "<", "~", "(", ")", ",", "!"]

    static func tokens(_ text: String) throws -> [JQLToken] {
        var tokens: [JQLToken] = []
        let chars = Array(text.unicodeScalars)
        var index = 0
        while index < chars.count {
            let char = chars[index]
            if char.properties.isWhitespace {
                index += 1
            } else if char == "\"" || char == "'" {
                var value = String.UnicodeScalarView()
                index += 1
                while index < chars.count, chars[index] != char {
                    if chars[index] == "\\", index + 1 < chars.count { index += 1 }
                    value.append(chars[index])
                    index += 1
                }
                guard index < chars.count else { throw JQLError.syntax("The quoted string is not closed.") }
                index += 1
                tokens.append(.quoted(String(value)))
            } else if let symbol = symbols.first(where: { matches($0, chars, at: index) }) {
                tokens.append(.symbol(symbol))
                index += symbol.unicodeScalars.count
            } else {
                var word = String.UnicodeScalarView()
                while index < chars.count, !chars[index].properties.isWhitespace, !"\"'=!<>~(),".unicodeScalars
                    .contains(chars[index])
                {
                    word.append(chars[index])
                    index += 1
                }
                tokens.append(.word(String(word)))
            }
        }
        return tokens
    }

    private static func matches(_ symbol: String, _ chars: [Unicode.Scalar], at index: Int) -> Bool {
        let scalars = Array(symbol.unicodeScalars)
        return index + scalars.count <= chars.count && Array(chars[index..<index + scalars.count]) == scalars
    }
}
