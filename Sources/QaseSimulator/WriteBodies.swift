/// Request bodies of the write routes (TestCaseUpdate, DefectUpdate, PlanUpdate, ReviewUpdate), snake_case on
/// the wire; values out of range are refused with `errorFields`, as Qase does.

struct CaseBody: Decodable {
    var title: String?
    var description: String?
    var severity: Int?
    var priority: Int?
    var type: Int?
    var behavior: Int?
    var status: Int?
    var suiteId: Int?
    var milestoneId: Int?
    var tags: [String]?

    func apply(to item: inout TestCase) throws {
        if let title {
            guard !title.isEmpty, title.count <= 255 else {
                throw APIError.invalid("title", "The title must be 1 to 255 characters.")
            }
            item.title = title
        }
        if let description { item.description = description }
        try set(severity, CaseEnums.severity, "severity", &item.severity)
        try set(priority, CaseEnums.priority, "priority", &item.priority)
        try set(type, CaseEnums.type, "type", &item.type)
        try set(behavior, CaseEnums.behavior, "behavior", &item.behavior)
        try set(status, CaseEnums.status, "status", &item.status)
        if let suiteId { item.suiteID = suiteId }
        if let milestoneId { item.milestoneID = milestoneId }
        if let tags { item.tags = tags }
    }

    private func set(_ value: Int?, _ slugs: [String], _ name: String, _ field: inout Int) throws {
        guard let value else { return }
        guard slugs.indices.contains(value) else { throw APIError.invalid(name, "The selected \(name) is invalid.") }
        field = value
    }
}

struct DefectBody: Decodable {
    var title: String?
    var actualResult: String?
    var severity: Int?
    var milestoneId: Int?
    var tags: [String]?

    func apply(to item: inout Defect) throws {
        if let title {
            guard !title.isEmpty else { throw APIError.invalid("title", "The title may not be empty.") }
            item.title = title
        }
        if let actualResult { item.actualResult = actualResult }
        if let severity {
            guard CaseEnums.severity.indices.contains(severity) else {
                throw APIError.invalid("severity", "The selected severity is invalid.")
            }
            item.severity = severity
        }
        if let milestoneId { item.milestoneID = milestoneId }
        if let tags { item.tags = tags }
    }
}

struct PlanBody: Decodable {
    var title: String?
    var description: String?
    var cases: [Int]?
}

struct ReviewBody: Decodable {
    var reviewers: [String]?
    /// The simulator keeps no proposal, only that one was sent.
    var proposedCase: AnyJSON?
}

/// Any JSON value, read and dropped.
struct AnyJSON: Decodable {
    init(from decoder: any Decoder) throws {}
}
