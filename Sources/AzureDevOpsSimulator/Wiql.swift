import SimulatorKit

/// The subset of WIQL a notifier writes (docs/azure-devops-sim.md, "WIQL"): `SELECT … FROM WorkItems WHERE …
/// ORDER BY …` with `AND`, `OR`, `NOT`, parentheses, `= <> > < >= <=`, `[NOT] IN (…)`, `EVER`, `[NOT] CONTAINS`,
/// `UNDER`, and the macros `@Me`, `@Today ± n`, `@project`, `@Follows`.
struct WiqlQuery {
    indirect enum Condition {
        case and(Condition, Condition)
        case or(Condition, Condition)
        case not(Condition)
        case compare(field: String, op: String, value: Value)
        case isIn(field: String, values: [Value], negated: Bool)
        case ever(field: String, value: Value)
        case contains(field: String, value: Value, negated: Bool)
        case under(field: String, value: Value)
    }

    enum Value {
        case text(String)
        case number(Double)
        case me
        /// Midnight UTC today plus this many days (fractions kept).
        case today(Double)
        case project
        case follows
    }

    var columns: [String]
    var condition: Condition?
    var order: [(field: String, descending: Bool)]

    /// Where the query is wrong: Azure DevOps' 400 answer text.
    struct Problem: Error {
        let message: String
    }

    /// The fields a query may name, with their kinds and display names.
    enum Kind { case number, text, person, date, path, tags }
    static let fields: [String: (kind: Kind, name: String)] = [
        "System.Id": (.number, "ID"), "System.Title": (.text, "Title"), "System.State": (.text, "State"),
        "System.Reason": (.text, "Reason"), "System.WorkItemType": (.text, "Work Item Type"),
        "System.TeamProject": (.text, "Team Project"), "System.AreaPath": (.path, "Area Path"),
        "System.IterationPath": (.path, "Iteration Path"), "System.AssignedTo": (.person, "Assigned To"),
        "System.CreatedBy": (.person, "Created By"), "System.ChangedBy": (.person, "Changed By"),
        "System.CreatedDate": (.date, "Created Date"), "System.ChangedDate": (.date, "Changed Date"),
        "System.Rev": (.number, "Rev"), "System.CommentCount": (.number, "Comment Count"),
        "System.Tags": (.tags, "Tags"), "Microsoft.VSTS.Common.Priority": (.number, "Priority"),
    ]

    /// The reference name of `name` (a reference or display name, any case), or a `TF51005` problem.
    static func field(_ name: String) throws -> String {
        let lower = name.lowercased()
        guard let key = fields.first(where: { $0.key.lowercased() == lower || $0.value.name.lowercased() == lower })?.key
        else { throw Problem(message: "TF51005: The query references a field that does not exist. The error is caused by «\(name)».") }
        return key
    }

    // MARK: Parsing

    enum Token: Equatable {
        case field(String), string(String), number(String), macro(String), word(String), symbol(String)
    }

    static func tokens(_ text: String) throws -> [Token] {
        var out: [Token] = []
        let chars = Array(text)
        var i = 0
        func syntax(_ at: Int) -> Problem {
            Problem(message: "TF51006: The query statement is not valid. The error is caused by «\(String(chars[at...].prefix(20)))».")
        }
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace {
                i += 1
            } else if c == "[" {
                guard let end = chars[i...].firstIndex(of: "]") else { throw syntax(i) }
                out.append(.field(String(chars[(i + 1)..<end])))
                i = end + 1
            } else if c == "'" || c == "\"" {
                var text = ""
                i += 1
                while true {
                    guard i < chars.count else { throw Problem(message: "TF51006: The query statement has an unterminated string.") }
                    if chars[i] == c {
                        if i + 1 < chars.count, chars[i + 1] == c {
                            text.append(c)
                            i += 2
                            continue
                        }
                        i += 1
                        break
                    }
                    text.append(chars[i])
                    i += 1
                }
                out.append(.string(text))
            } else if c.isNumber {
                var end = i
                while end < chars.count, chars[end].isNumber || chars[end] == "." { end += 1 }
                out.append(.number(String(chars[i..<end])))
                i = end
            } else if c == "@" || c.isLetter || c == "_" {
                var end = i + 1
                while end < chars.count, chars[end].isLetter || chars[end].isNumber || chars[end] == "_" || chars[end] == "." {
                    end += 1
                }
                let word = String(chars[i..<end])
                out.append(c == "@" ? .macro(word.lowercased()) : .word(word))
                i = end
            } else {
                let two = i + 1 < chars.count ? String(chars[i...(i + 1)]) : ""
                if ["<>", ">=", "<=", "!="].contains(two) {
                    out.append(.symbol(two))
                    i += 2
                } else if "=<>(),+-".contains(c) {
                    out.append(.symbol(String(c)))
                    i += 1
                } else {
                    throw syntax(i)
                }
            }
        }
        return out
    }

    init(_ text: String) throws {
        var parser = Parser(tokens: try Self.tokens(text))
        try parser.expectWord("SELECT")
        columns = []
        repeat { columns.append(try Self.field(try parser.fieldName())) } while parser.take(.symbol(","))
        try parser.expectWord("FROM")
        guard case .word(let source)? = parser.next(), ["workitems", "workitem"].contains(source.lowercased()) else {
            throw Problem(message: "TF51006: The query must select FROM WorkItems (links queries are not served).")
        }
        condition = parser.takeWord("WHERE") ? try parser.expression() : nil
        order = []
        if parser.takeWord("ORDER") {
            try parser.expectWord("BY")
            repeat {
                let field = try Self.field(try parser.fieldName())
                let descending = parser.takeWord("DESC")
                if !descending { _ = parser.takeWord("ASC") }
                order.append((field, descending))
            } while parser.take(.symbol(","))
        }
        if parser.takeWord("ASOF") {
            throw Problem(message: "TF51006: ASOF is not served by ado-sim.")
        }
        if let extra = parser.peek {
            throw Problem(message: "TF51006: The query statement is not valid. The error is caused by «\(extra)».")
        }
    }

    struct Parser {
        let tokens: [Token]
        var position = 0

        var peek: Token? { position < tokens.count ? tokens[position] : nil }

        mutating func next() -> Token? {
            defer { position += 1 }
            return peek
        }

        mutating func take(_ token: Token) -> Bool {
            guard peek == token else { return false }
            position += 1
            return true
        }

        mutating func takeWord(_ word: String) -> Bool {
            guard case .word(let text)? = peek, text.uppercased() == word else { return false }
            position += 1
            return true
        }

        mutating func expectWord(_ word: String) throws {
            guard takeWord(word) else { throw Problem(message: "TF51006: Expecting \(word). The error is caused by «\(peek.map { "\($0)" } ?? "the end")».") }
        }

        mutating func fieldName() throws -> String {
            switch next() {
            case .field(let name)?, .word(let name)?: return name
            case let other: throw Problem(message: "TF51006: Expecting a field name. The error is caused by «\(other.map { "\($0)" } ?? "the end")».")
            }
        }

        mutating func expression() throws -> Condition {
            var left = try term()
            while takeWord("OR") { left = .or(left, try term()) }
            return left
        }

        mutating func term() throws -> Condition {
            var left = try factor()
            while takeWord("AND") { left = .and(left, try factor()) }
            return left
        }

        mutating func factor() throws -> Condition {
            if takeWord("NOT") { return .not(try factor()) }
            if take(.symbol("(")) {
                let inner = try expression()
                guard take(.symbol(")")) else { throw Problem(message: "TF51006: Expecting ).") }
                return inner
            }
            let field = try WiqlQuery.field(try fieldName())
            let negated = takeWord("NOT")
            if takeWord("IN") {
                guard take(.symbol("(")) else { throw Problem(message: "TF51006: Expecting ( after IN.") }
                var values: [Value] = []
                repeat { values.append(try value()) } while take(.symbol(","))
                guard take(.symbol(")")) else { throw Problem(message: "TF51006: Expecting ) after the IN list.") }
                return .isIn(field: field, values: values, negated: negated)
            }
            if takeWord("CONTAINS") {
                _ = takeWord("WORDS")
                return .contains(field: field, value: try value(), negated: negated)
            }
            if negated { throw Problem(message: "TF51006: Expecting IN or CONTAINS after NOT.") }
            if takeWord("EVER") { return .ever(field: field, value: try value()) }
            if takeWord("UNDER") { return .under(field: field, value: try value()) }
            guard case .symbol(let op)? = next(), ["=", "<>", "!=", ">", "<", ">=", "<="].contains(op) else {
                throw Problem(message: "TF51006: Expecting an operator after [\(field)].")
            }
            return .compare(field: field, op: op == "!=" ? "<>" : op, value: try value())
        }

        mutating func value() throws -> Value {
            switch next() {
            case .string(let text)?: return .text(text)
            case .number(let text)?:
                guard let number = Double(text) else { throw Problem(message: "TF51006: «\(text)» is not a number.") }
                return .number(number)
            case .symbol("-")?:
                guard case .number(let text)? = next(), let number = Double(text) else {
                    throw Problem(message: "TF51006: Expecting a number after -.")
                }
                return .number(-number)
            case .macro("@me")?: return .me
            case .macro("@project")?: return .project
            case .macro("@follows")?: return .follows
            case .macro("@today")?:
                var days = 0.0
                if case .symbol(let sign)? = peek, sign == "+" || sign == "-" {
                    position += 1
                    guard case .number(let text)? = next(), let number = Double(text) else {
                        throw Problem(message: "TF51006: Expecting a number after @Today \(sign).")
                    }
                    // Bounded so that the offset in milliseconds fits an Int.
                    days = max(-1_000_000, min(1_000_000, sign == "+" ? number : -number))
                }
                return .today(days)
            case .macro(let name)?: throw Problem(message: "TF51006: The macro \(name) is not served by ado-sim.")
            case let other: throw Problem(message: "TF51006: Expecting a value. The error is caused by «\(other.map { "\($0)" } ?? "the end")».")
            }
        }
    }
}

/// Evaluates a parsed query against work items for one caller.
struct WiqlContext {
    let me: Int
    let project: Int?
    let timePrecision: Bool
    let now: Int

    /// A date literal as milliseconds, and whether it had a time: `2026-11-29`, `2026-11-29T10:00:00Z`,
    /// `2026-11-29T10:00:00.1234567Z`, `2026-11-29 10:00`, `2026-11-29T10:00:00.123+02:00`.
    static func date(_ text: String) -> (Int, Bool)? {
        let trimmed = text.trimmingCharacters(" ")
        let day = String(trimmed.prefix(10))
        guard let midnight = HTTPDate.parseZoneless(day + " 00:00:00") else { return nil }
        var rest = trimmed.dropFirst(10)
        if rest.isEmpty { return (midnight * 1000, false) }
        guard rest.first == "T" || rest.first == " " else { return nil }
        rest = rest.dropFirst()
        // A zone: Z, or an offset such as +02:00 (subtracted to get UTC).
        var offset = 0
        if rest.hasSuffix("Z") {
            rest = rest.dropLast()
        } else if rest.count >= 6, let sign = rest.dropLast(5).last, sign == "+" || sign == "-" {
            let zone = rest.suffix(5).split(separator: ":").compactMap { Int($0) }
            guard zone.count == 2 else { return nil }
            offset = (sign == "+" ? 1 : -1) * (zone[0] * 3600 + zone[1] * 60) * 1000
            rest = rest.dropLast(6)
        }
        let pieces = rest.split(separator: ".", maxSplits: 1)
        var clock = pieces.first.map(String.init) ?? ""
        if clock.count == 5 { clock += ":00" }
        guard clock.count == 8, let seconds = HTTPDate.parseZoneless(day + " " + clock) else { return nil }
        var milliseconds = 0
        if pieces.count == 2 {
            let digits = String(pieces[1].prefix(3))
            guard pieces[1].allSatisfy(\.isNumber), let value = Int(digits) else { return nil }
            milliseconds = value * [100, 10, 1][digits.count - 1]
        }
        return (seconds * 1000 + milliseconds - offset, true)
    }

    func matches(_ item: WorkItem, _ condition: WiqlQuery.Condition) throws -> Bool {
        switch condition {
        case .and(let a, let b): return try matches(item, a) && matches(item, b)
        case .or(let a, let b): return try matches(item, a) || matches(item, b)
        case .not(let inner): return try !matches(item, inner)
        case .compare(let field, let op, let value): return try compare(item[field], field, op, value)
        case .isIn(let field, let values, let negated):
            var found = false
            for value in values {
                if case .follows = value {
                    guard field == "System.Id" else {
                        throw WiqlQuery.Problem(message: "TF51006: @Follows is used with [System.Id] IN (@Follows).")
                    }
                    if item.followers.contains(me) { found = true }
                } else if try compare(item[field], field, "=", value) {
                    found = true
                }
            }
            return found != negated
        case .ever(let field, let value):
            return try item.everValues(field).contains { try compare($0, field, "=", value) }
        case .contains(let field, let value, let negated):
            guard case .text(let text)? = item[field], case .text(let wanted) = value else { return negated }
            let found = WiqlQuery.fields[field]?.kind == .tags
                ? text.split(separator: ";").contains { $0.trimmingCharacters(" ").lowercased() == wanted.lowercased() }
                : text.lowercased().contains(wanted.lowercased())
            return found != negated
        case .under(let field, let value):
            guard case .text(let path)? = item[field], case .text(let root) = value else { return false }
            return path.lowercased() == root.lowercased() || path.lowercased().hasPrefix(root.lowercased() + "\\")
        }
    }

    /// One field's value against one query value.
    func compare(_ current: FieldValue?, _ field: String, _ op: String, _ value: WiqlQuery.Value) throws -> Bool {
        let kind = WiqlQuery.fields[field]?.kind ?? .text
        func order(_ c: Int) -> Bool {
            switch op {
            case "=": c == 0
            case "<>": c != 0
            case ">": c > 0
            case "<": c < 0
            case ">=": c >= 0
            default: c <= 0
            }
        }
        switch kind {
        case .person:
            guard op == "=" || op == "<>" else {
                throw WiqlQuery.Problem(message: "TF51006: The operator \(op) cannot be used with [\(field)].")
            }
            let wanted: Int?
            switch value {
            case .me: wanted = me
            case .text(let text) where text.isEmpty: wanted = nil
            case .text(let text):
                let stripped = text.split(separator: "<").first.map { $0.trimmingCharacters(" ") } ?? text
                wanted = Directory.person(named: stripped) ?? -1
            default: throw WiqlQuery.Problem(message: "TF51006: [\(field)] is compared with a name or @Me.")
            }
            let have: Int? = if case .person(let index)? = current { index } else { nil }
            return (have == wanted) == (op == "=")
        case .date:
            guard case .date(let have)? = current else { return false }
            let wanted: Int, hasTime: Bool
            switch value {
            case .today(let days):
                wanted = now / 86_400_000 * 86_400_000 + Int(days * 86_400_000)
                hasTime = false
            case .text(let text):
                guard let parsed = Self.date(text) else {
                    throw WiqlQuery.Problem(message: "TF51006: «\(text)» is not a valid date.")
                }
                wanted = parsed.0
                hasTime = parsed.1
            default: throw WiqlQuery.Problem(message: "TF51006: [\(field)] is compared with a date or @Today.")
            }
            if !timePrecision {
                if hasTime {
                    throw WiqlQuery.Problem(message: "You cannot supply a time with the date when running a query "
                        + "using date precision. The error is caused by «\(field)».")
                }
                return order(Self.day(have) - Self.day(wanted))
            }
            return order(have < wanted ? -1 : have > wanted ? 1 : 0)
        case .number:
            guard case .number(let have)? = current else { return false }
            let wanted: Double
            switch value {
            case .number(let number): wanted = number
            case .text(let text):
                guard let number = Double(text) else { return false }
                wanted = number
            default: throw WiqlQuery.Problem(message: "TF51006: [\(field)] is compared with a number.")
            }
            return order(Double(have) < wanted ? -1 : Double(have) > wanted ? 1 : 0)
        case .text, .path, .tags:
            let have: String = if case .text(let text)? = current { text } else { "" }
            let wanted: String
            switch value {
            case .text(let text): wanted = text
            case .number(let number):
                wanted = number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
            case .project:
                guard let project else {
                    throw WiqlQuery.Problem(message: "TF51011: The @project macro can only be used in the context of a project.")
                }
                wanted = Directory.projectNames[project]
            default: throw WiqlQuery.Problem(message: "TF51006: [\(field)] is compared with text.")
            }
            let (a, b) = (have.lowercased(), wanted.lowercased())
            return order(a < b ? -1 : a > b ? 1 : 0)
        }
    }

    /// Days since 1970 (UTC), what date precision compares.
    static func day(_ milliseconds: Int) -> Int { Int((Double(milliseconds) / 86_400_000).rounded(.down)) }
}

extension StringProtocol {
    func trimmingCharacters(_ character: Character) -> String {
        var slice = Substring(self)
        while slice.first == character { slice.removeFirst() }
        while slice.last == character { slice.removeLast() }
        return String(slice)
    }
}

