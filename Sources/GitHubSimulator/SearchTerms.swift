#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A search query split into terms: `key:value` qualifiers (`-` negates) and free words (key "").
enum SearchTerms {
    struct Term {
        var key: String
        var value: String
        var negated: Bool
        /// What the value names once resolved: an account index, or for `repo:` a repository index.
        var account: Int?
    }

    static let qualifiers: Set = [
        "is", "type", "state", "repo", "org", "user", "owner", "author", "assignee", "mentions", "commenter",
        "involves", "review-requested", "user-review-requested", "reviewed-by", "label", "no", "updated",
        "created", "closed", "in", "archived", "sort",
    ]

    /// Words split at spaces outside double quotes; quotes dropped.
    static func parse(_ query: String) -> [Term] {
        var words: [String] = [], current = "", quoted = false
        for character in query {
            if character == "\"" {
                quoted.toggle()
            } else if character == " " && !quoted {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.map { word in
            let negated = word.hasPrefix("-") && word.count > 1
            let body = negated ? String(word.dropFirst()) : word
            let parts = body.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, qualifiers.contains(parts[0].lowercased()) else {
                return Term(key: "", value: body, negated: negated)
            }
            return Term(key: parts[0].lowercased(), value: parts[1], negated: negated)
        }
    }

    /// Whether `time` satisfies a date qualifier: `>=2026-01-01`, `>…`, `<…`, `<=…`, a bare date (that day) or
    /// `FROM..TO`.
    static func compare(_ time: Int, _ condition: String) -> Bool {
        for op in [">=", "<=", ">", "<"] where condition.hasPrefix(op) {
            guard let bound = ISOTime.parse(String(condition.dropFirst(op.count))) else { return false }
            switch op {
            case ">=": return time >= bound
            case "<=": return time <= bound
            case ">": return time > bound
            default: return time < bound
            }
        }
        let range = condition.components(separatedBy: "..")
        if range.count == 2, let from = ISOTime.parse(range[0]), let to = ISOTime.parse(range[1]) {
            return time >= from && time <= to + (range[1].count == 10 ? 86_399 : 0)
        }
        guard let day = ISOTime.parse(condition) else { return false }
        return time >= day && time < day + (condition.count == 10 ? 86_400 : 1)
    }
}
