import TrackwatchCore

/// The fields of Qase records as people read them in bubbles, the journal and the page, and which of them are
/// compared between polls. Fields not compared (a plan's `updated_at`) are kept only to save requests.
public enum QaseFields {
    public static let title = "Title", status = "Status", severity = "Severity", priority = "Priority"
    public static let type = "Type", behavior = "Behavior", milestone = "Milestone", suite = "Suite", tags = "Tags"
    /// A plan's cases assigned to me (`DEMO-1, DEMO-4`): the plan is mine while it has any.
    public static let yourCases = "Your cases"
    /// Not compared: when a plan was last changed and how many cases it has, to read it again only then.
    static let planUpdated = "updated_at", planCaseCount = "cases_count"
    /// Not compared: a reviewer's verdict, by the reviewer's author UUID (`verdict <uuid>`).
    static let verdictPrefix = "verdict "
    /// A custom field by its id (Qase names them in a separate call trackwatch does not make).
    static func customField(_ id: Int) -> String { "Custom field \(id)" }

    /// The fields whose change is reported, per kind of item; reviewers' verdicts are compared apart.
    static func compared(_ item: QaseItem, in record: Record) -> [String] {
        let custom = record.fields.keys.filter { $0.hasPrefix("Custom field ") }.sorted()
        switch item {
        case .defect: return [title, status, severity, milestone, tags] + custom
        case .testCase: return [title, status, severity, priority, type, behavior, milestone, suite, tags] + custom
        case .plan: return [title, yourCases]
        case .review: return [title, status]
        case .project: return []
        }
    }
}

/// Qase's enums as people read them. Integer codes index the lists below (qase-api.md §5; the real order comes
/// from `GET /system_field` [INF], which would cost a request per poll for labels that do not change).
///
/// Severities and priorities carry a leading number, so that `min_severity` / `min_priority` and the critical
/// bubble work as for every tracker: blocker and critical are 1 (a critical bubble when such a defect becomes
/// yours), major 2, normal 3, minor 4, trivial 5. Priorities start at 2 (high): no Qase priority means "drop
/// everything", and a test case is not an emergency.
public enum QaseEnums {
    static let severities = ["undefined", "blocker", "critical", "major", "normal", "minor", "trivial"]
    static let severityLabels = [
        "blocker": "1-Blocker", "critical": "1-Critical", "major": "2-Major",
        "normal": "3-Normal", "minor": "4-Minor", "trivial": "5-Trivial",
    ]
    static let priorities = ["undefined", "high", "medium", "low"]
    static let priorityLabels = ["high": "2-High", "medium": "3-Medium", "low": "4-Low"]
    static let defectStatuses = ["open", "in_progress", "resolved", "invalid"]
    static let caseStatuses = ["actual", "draft", "deprecated"]
    static let types = [
        "other", "functional", "smoke", "regression", "security", "usability", "performance",
        "acceptance",
    ]
    static let behaviors = ["undefined", "positive", "negative", "destructive"]

    /// The slug of a value sent as a slug, a label or an integer code into `slugs`.
    static func slug(_ value: LenientEnum?, in slugs: [String]) -> String? {
        guard let raw = value?.raw, !raw.isEmpty else { return nil }
        if let index = Int(raw) { return slugs.indices.contains(index) ? slugs[index] : raw }
        return swapping(raw, [UInt8(ascii: " ")], for: UInt8(ascii: "_"))
    }

    /// `text` with each of `bytes` made `replacement`: byte by byte when the text is ASCII (each character one
    /// byte), else by characters as before. (`replacing` took 4 % of a steady poll, run for every item's enums.)
    private static func swapping(_ text: String, _ bytes: [UInt8], for replacement: UInt8) -> String {
        guard text.utf8.contains(where: bytes.contains) else { return text }
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            let to = String(UnicodeScalar(replacement))
            return bytes.reduce(text) { $0.replacing(String(UnicodeScalar($1)), with: to) }
        }
        return String(decoding: text.utf8.map { bytes.contains($0) ? replacement : $0 }, as: UTF8.self)
    }

    static func severity(_ value: LenientEnum?) -> String? {
        slug(value, in: severities).flatMap { severityLabels[$0] ?? ($0 == "undefined" ? nil : $0) }
    }

    static func priority(_ value: LenientEnum?) -> String? {
        slug(value, in: priorities).flatMap { priorityLabels[$0] ?? ($0 == "undefined" ? nil : $0) }
    }

    /// `in_progress` → `In progress`; `undefined` (Qase's "not set") → `nil`.
    static func label(_ value: LenientEnum?, in slugs: [String]) -> String? {
        guard let slug = slug(value, in: slugs), slug != "undefined" else { return nil }
        let words = swapping(slug, [UInt8(ascii: "_"), UInt8(ascii: "-")], for: UInt8(ascii: " "))
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}
