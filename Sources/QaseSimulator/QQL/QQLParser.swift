/// A parsed QQL query of the subset the simulator understands: conditions joined by `and`, then an optional
/// `order by id asc|desc`. Everything else (or, not, parentheses, `~`, `is empty`, functions other than
/// `currentUser()` and `now()`, SELECT) is refused.
struct QQLQuery: Equatable, Sendable {
    var conditions: [QQLCondition]
    var descending = false
}

struct QQLCondition: Equatable, Sendable {
    enum Operator: String, Sendable {
        case equal = "=", notEqual = "!=", greater = ">", greaterOrEqual = ">=", less = "<", lessOrEqual = "<="
        case isIn = "in", notIn = "not in", isValue = "is", isNot = "is not"
    }

    var field: String
    var op: Operator
    var values: [QQLValue]
}

enum QQLValue: Equatable, Sendable {
    case string(String)
    case number(Int)
    case bool(Bool)
    case currentUser
    /// `now("-1d")`: seconds from the server's now (negative: the past).
    case now(offset: Int)
}

struct QQLParser {
    private let tokens: [QQLToken]
    private var index = 0

    static func parse(_ text: String) throws -> QQLQuery {
        var parser = QQLParser(tokens: try QQLLexer.tokens(text))
        return try parser.query()
    }

    private init(tokens: [QQLToken]) { self.tokens = tokens }

    private mutating func query() throws -> QQLQuery {
        var result = QQLQuery(conditions: [try condition()])
        while keyword("and") { result.conditions.append(try condition()) }
        if keyword("order") {
            guard keyword("by"), case .name(let field) = next(), field.lowercased() == "id" else {
                throw QQLError(reason: "only `order by id` is supported")
            }
            if keyword("desc") { result.descending = true } else { _ = keyword("asc") }
        }
        guard index == tokens.count else { throw QQLError(reason: "unexpected \(describe(tokens[index]))") }
        return result
    }

    private mutating func condition() throws -> QQLCondition {
        guard case .name(let field) = next(), !["or", "not", "select"].contains(field.lowercased()) else {
            throw QQLError(reason: "expected a field name at word \(index)")
        }
        let op = try operatorWord()
        if op == .isIn || op == .notIn { return QQLCondition(field: field, op: op, values: try list()) }
        return QQLCondition(field: field, op: op, values: [try value()])
    }

    private mutating func operatorWord() throws -> QQLCondition.Operator {
        switch next() {
        case .symbol(let symbol):
            guard let op = QQLCondition.Operator(rawValue: symbol) else { throw QQLError(reason: "operator \(symbol)") }
            return op
        case .name(let word) where word.lowercased() == "in": return .isIn
        case .name(let word) where word.lowercased() == "not":
            guard keyword("in") else { throw QQLError(reason: "expected `not in`") }
            return .notIn
        case .name(let word) where word.lowercased() == "is":
            return keyword("not") ? .isNot : .isValue
        default: throw QQLError(reason: "expected an operator")
        }
    }

    private mutating func list() throws -> [QQLValue] {
        guard next() == .symbol("[") else { throw QQLError(reason: "expected [ after in") }
        var values = [try value()]
        while peek() == .symbol(",") {
            index += 1
            values.append(try value())
        }
        guard next() == .symbol("]") else { throw QQLError(reason: "expected ]") }
        return values
    }

    private mutating func value() throws -> QQLValue {
        switch next() {
        case .string(let text): return .string(text)
        case .number(let number): return .number(number)
        case .name(let word) where ["true", "false"].contains(word.lowercased()):
            return .bool(word.lowercased() == "true")
        case .name(let word): return try function(word)
        default: throw QQLError(reason: "expected a value")
        }
    }

    /// `currentUser()` or `now("-Nd")` / `now("-Nw")`.
    private mutating func function(_ name: String) throws -> QQLValue {
        guard next() == .symbol("(") else { throw QQLError(reason: "unknown word \(name)") }
        switch name.lowercased() {
        case "currentuser":
            guard next() == .symbol(")") else { throw QQLError(reason: "currentUser() takes no argument") }
            return .currentUser
        case "now":
            guard case .string(let argument) = next(), next() == .symbol(")"), let offset = Self.offset(argument) else {
                throw QQLError(reason: "now() takes \"-Nd\" or \"-Nw\"")
            }
            return .now(offset: offset)
        default: throw QQLError(reason: "unsupported function \(name)()")
        }
    }

    /// "-1d" → −86400; "2w" → 1209600. Days and weeks only, up to 100000 of them.
    static func offset(_ text: String) -> Int? {
        guard let unit = text.last, let count = Int(text.dropLast()), abs(count) <= 100_000 else { return nil }
        switch unit {
        case "d": return count * 86_400
        case "w": return count * 7 * 86_400
        default: return nil
        }
    }

    private mutating func keyword(_ word: String) -> Bool {
        guard case .name(let name) = peek(), name.lowercased() == word else { return false }
        index += 1
        return true
    }

    private func peek() -> QQLToken? { index < tokens.count ? tokens[index] : nil }

    private mutating func next() -> QQLToken? {
        defer { index += 1 }
        return peek()
    }

    private func describe(_ token: QQLToken) -> String {
        switch token {
        case .name(let name): return name
        case .string(let text): return "\"\(text)\""
        case .number(let number): return String(number)
        case .symbol(let symbol): return symbol
        }
    }
}
