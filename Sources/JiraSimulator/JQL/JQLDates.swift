#if canImport(Glibc)
    import Glibc
#endif

/// Dates, text search, `CHANGED` and `ORDER BY`.
extension JQLCompiler {
    func dates(_ clause: JQLClause, _ field: String, _ value: @escaping (Issue) -> Int) throws -> Predicate {
        guard clause.values.count == 1, let bound = try date(clause.values[0], field) else {
            throw unsupported(clause, field)
        }
        switch clause.op {
        case .equal: return { value($0) == bound }
        case .notEqual: return { value($0) != bound }
        case .greater: return { value($0) > bound }
        case .greaterOrEqual: return { value($0) >= bound }
        case .less: return { value($0) < bound }
        case .lessOrEqual: return { value($0) <= bound }
        default: throw unsupported(clause, field)
        }
    }

    /// Seconds since 1970 of a relative date (`-15m`, `-2h`, `-1d`, `-1w`, `-1d 2h`), an absolute one
    /// (`"2026-01-17 12:34"`, `2026/01/17`, in the user's zone, Europe/Berlin), epoch milliseconds, `now()` or
    /// `startOfDay()`; nil for EMPTY.
    func date(_ value: JQLValue, _ field: String) throws -> Int? {
        let invalid = JQLError(
            message: "Date value '\(value)' for field '\(field)' is invalid. Valid formats include: 'yyyy/MM/dd "
                + "HH:mm', 'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format e.g. '-5d', '4w 2d'.")
        switch value {
        case .empty: return nil
        case .function("now", _): return state.now
        case .function("startofday", _): return Berlin.startOfDay(state.now)
        case .function: throw invalid
        case .text(let text):
            if let seconds = Self.relative(text) { return state.now + seconds }
            if let seconds = Berlin.parse(text) { return seconds }
            if text.count >= 10, let millis = Int(text) { return millis / 1000 }
            throw invalid
        }
    }

    /// `-15m`, `4w 2d`, `+1h`: seconds, or nil.
    static func relative(_ text: String) -> Int? {
        var total = 0, number = "", sign = 1, sawUnit = false
        for char in text {
            switch char {
            case "-" where number.isEmpty && !sawUnit: sign = -1
            case "+" where number.isEmpty && !sawUnit: sign = 1
            case "0"..."9": number.append(char)
            case "w", "d", "h", "m":
                guard let value = Int(number) else { return nil }
                total += value * ["w": 604_800, "d": 86_400, "h": 3600, "m": 60][String(char)]!
                number = ""
                sawUnit = true
            case " ": continue
            default: return nil
            }
        }
        return sawUnit && number.isEmpty ? sign * total : nil
    }

    /// `summary ~ "text"`, `text ~ "text"`: a case-insensitive substring (of summary, or summary and description).
    func contains(_ clause: JQLClause, _ field: String) throws -> Predicate {
        guard clause.op == .contains || clause.op == .notContains, case .text(let text)? = clause.values.first
        else { throw unsupported(clause, field) }
        let needle = text.lowercased().filter { $0 != "*" }
        let matches: Predicate = { issue in
            issue.summary.lowercased().contains(needle)
                || (field == "text" && (issue.description ?? "").lowercased().contains(needle))
        }
        return clause.op == .contains ? matches : { !matches($0) }
    }

    /// `FIELD CHANGED [FROM v] [TO v] [BY user] [AFTER date] [BEFORE date]`: a history with an item of that field
    /// meets every predicate.
    func changed(_ field: String, _ clause: JQLClause) throws -> Predicate {
        let itemField = ["fixversion": "Fix Version"][field] ?? field
        guard ["assignee", "reporter", "status", "priority", "resolution", "Fix Version"].contains(itemField) else {
            throw JQLError(message: "History searches do not support the '\(field)' field.")
        }
        let from = try clause.predicates["from"].map { try itemMatcher($0, field) }
        let to = try clause.predicates["to"].map { try itemMatcher($0, field) }
        let by = try clause.predicates["by"].map { value -> Int in
            if case .function("currentuser", _) = value { return caller }
            guard case .text(let text) = value else { throw unsupported(clause, field) }
            return try person(text, field)
        }
        let after = try clause.predicates["after"].flatMap { try date($0, field) }
        let before = try clause.predicates["before"].flatMap { try date($0, field) }
        return { issue in
            issue.histories.contains { history in
                if let by, history.author != by { return false }
                if let after, history.created < after { return false }
                if let before, history.created > before { return false }
                return history.items.contains { item in
                    item.field == itemField && from.map { $0(item.from) } != false && to.map { $0(item.to) } != false
                }
            }
        }
    }

    /// Whether an item's side is the value: a person for people fields, a name or id otherwise, EMPTY for none.
    private func itemMatcher(_ value: JQLValue, _ field: String) throws -> (ItemValue) -> Bool {
        let people = ["assignee", "reporter"].contains(field)
        switch value {
        case .empty: return { $0 == .none }
        case .function("currentuser", _): return { $0 == .person(caller) }
        case .function(let name, _): throw JQLError(message: "Unable to find JQL function '\(name)()'.")
        case .text(let text) where people:
            let index = try person(text, field)
            return { $0 == .person(index) }
        case .text(let text):
            return { side in
                guard case .text(let id, let name) = side else { return false }
                return name.lowercased() == text.lowercased() || id == text
            }
        }
    }

    /// The order of `ORDER BY` (issue id descending when none is given, and as the last tie-breaker).
    func order(_ keys: [(field: String, descending: Bool)]) throws -> (Issue, Issue) -> Bool {
        let known = ["updated", "created", "key", "issuekey", "id", "priority", "status", "summary", "rank"]
        for key in keys where !known.contains(key.field) {
            throw JQLError(message: "Not able to sort using field '\(key.field)'.")
        }
        let state = self.state
        return { a, b in
            for key in keys {
                let order = Self.compare(key.field, a, b, state)
                if order != 0 { return key.descending ? order > 0 : order < 0 }
            }
            return a.id > b.id
        }
    }

    private static func compare(_ field: String, _ a: Issue, _ b: Issue, _ state: JiraState) -> Int {
        func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x > y ? 1 : 0) }
        switch field {
        case "updated": return sign(a.updated, b.updated)
        case "created": return sign(a.created, b.created)
        case "priority":
            let rank = { (name: String) in Workflow.priorities.firstIndex { $0.1 == name } ?? 9 }
            return sign(rank(b.priority), rank(a.priority))  // ascending runs from lowest to highest
        case "status": return sign(a.status, b.status)
        case "summary": return sign(a.summary, b.summary)
        case "key", "issuekey":
            let pa = state.projects[a.projectIndex].key, pb = state.projects[b.projectIndex].key
            return pa == pb ? sign(a.number, b.number) : sign(pa, pb)
        default: return sign(a.id, b.id)
        }
    }
}

/// Europe/Berlin, every user's zone: CET, and CEST from the last Sunday of March to that of October (01:00 UTC).
enum Berlin {
    static func offset(_ utc: Int) -> Int {
        let year = brokenDown(utc).tm_year + 1900
        return (lastSunday(year, month: 2)..<lastSunday(year, month: 9)).contains(utc) ? 7200 : 3600
    }

    /// `yyyy-MM-dd HH:mm`, `yyyy/MM/dd HH:mm`, `yyyy-MM-dd`, `yyyy/MM/dd` as Berlin local time; nil otherwise.
    static func parse(_ text: String) -> Int? {
        let numbers = text.split { "-/ :".contains($0) }.map { Int($0) }
        guard [3, 5].contains(numbers.count), numbers.allSatisfy({ $0 != nil }), numbers[0]! > 999 else { return nil }
        var parts = tm()
        parts.tm_year = Int32(numbers[0]! - 1900)
        parts.tm_mon = Int32(numbers[1]! - 1)
        parts.tm_mday = Int32(numbers[2]!)
        parts.tm_hour = Int32(numbers.count == 5 ? numbers[3]! : 0)
        parts.tm_min = Int32(numbers.count == 5 ? numbers[4]! : 0)
        let local = Int(timegm(&parts))
        return local - offset(local - 3600)
    }

    static func startOfDay(_ utc: Int) -> Int {
        let local = utc + offset(utc)
        let midnight = local - local % 86_400
        return midnight - offset(midnight - 3600)
    }

    /// 01:00 UTC on the last Sunday of `month` (0-based).
    private static func lastSunday(_ year: Int32, month: Int32) -> Int {
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month
        parts.tm_mday = 31
        parts.tm_hour = 1
        let last = Int(timegm(&parts))
        return last - Int(brokenDown(last).tm_wday) * 86_400
    }

    private static func brokenDown(_ seconds: Int) -> tm {
        var value = time_t(seconds)
        var parts = tm()
        gmtime_r(&value, &parts)
        return parts
    }
}
