import TrackwatchCore

/// Qase's items as records: each item's key and the fields compared between polls, in one common form whatever
/// the answer's shape (REST or QQL, ids and enums as numbers or strings), so that a server switching forms
/// between polls changes nothing.
enum QaseRecords {
    /// The most custom fields kept per item.
    static let customFieldLimit = 50

    static func defect(_ wire: WireDefect, project: String) -> Record {
        var fields = common(title: wire.title, milestone: wire.milestoneID, tags: wire.tags, custom: wire.customFields)
        fields[QaseFields.status] = QaseEnums.label(wire.status, in: QaseEnums.defectStatuses)
        fields[QaseFields.severity] = QaseEnums.severity(wire.severity)
        return Record(id: QaseKey.defect(project, wire.id.value), fields: fields)
    }

    static func testCase(_ wire: WireCase, project: String) -> Record {
        var fields = common(title: wire.title, milestone: wire.milestoneID, tags: wire.tags, custom: wire.customFields)
        fields[QaseFields.status] = QaseEnums.label(wire.status, in: QaseEnums.caseStatuses)
        fields[QaseFields.severity] = QaseEnums.severity(wire.severity)
        fields[QaseFields.priority] = QaseEnums.priority(wire.priority)
        fields[QaseFields.type] = QaseEnums.label(wire.type, in: QaseEnums.types)
        fields[QaseFields.behavior] = QaseEnums.label(wire.behavior, in: QaseEnums.behaviors)
        fields[QaseFields.suite] = wire.suiteID.map { String($0.value) }
        return Record(id: QaseKey.testCase(project, wire.id.value), fields: fields)
    }

    /// A plan with the cases in it assigned to `user` (a user id: plan assignees are users, not authors).
    static func plan(_ plan: WirePlan, cases: [WirePlanDetail.Entry], user: Int, project: String) -> Record {
        let mine = Set(cases.filter { $0.assigneeID?.value == user }.map(\.caseID.value)).sorted()
        return self.plan(plan, yourCases: mine.map { "\(project)-\($0)" }.joined(separator: ", "), project: project)
    }

    /// A plan whose cases assigned to me are known already (`DEMO-1, DEMO-4`, or empty).
    static func plan(_ plan: WirePlan, yourCases: String, project: String) -> Record {
        var fields: [String: String] = [:]
        fields[QaseFields.title] = plan.title?.text
        fields[QaseFields.yourCases] = yourCases
        fields[QaseFields.planUpdated] = plan.updatedAt?.text
        fields[QaseFields.planCaseCount] = plan.casesCount.map { String($0.value) }
        return Record(id: QaseKey.plan(project, plan.id.value), fields: fields)
    }

    /// A review; with `verdicts`, each reviewer's verdict by author UUID (compared for reviews I wrote).
    static func review(_ wire: WireReview, project: String, verdicts: Bool) -> Record {
        var fields: [String: String] = [:]
        fields[QaseFields.title] = wire.title?.text
        fields[QaseFields.status] = QaseEnums.label(wire.status, in: [])
        if verdicts {
            for reviewer in wire.reviewers ?? [] {
                fields[QaseFields.verdictPrefix + reviewer.authorUUID.text.lowercased()] =
                    QaseEnums.label(reviewer.status, in: []) ?? "Unapproved"
            }
        }
        return Record(id: QaseKey.review(project, wire.id.value), fields: fields)
    }

    /// The marker a watched project leaves in a snapshot: its title, and the codes it had before (`was`), by which
    /// a renamed project is recognised.
    static func projectMarker(_ code: String, title: String, was: [String]) -> Record {
        var fields = [QaseFields.title: title]
        if !was.isEmpty { fields["was"] = was.joined(separator: ",") }
        return Record(id: QaseKey.project(code), fields: fields)
    }

    private static func common(
        title: LenientText?, milestone: LenientInt?, tags: [WireTag]?, custom: [WireCustomField]?
    ) -> [String: String] {
        var fields: [String: String] = [:]
        fields[QaseFields.title] = title?.text
        fields[QaseFields.milestone] = milestone.map { String($0.value) }
        let tagTitles = (tags ?? []).compactMap { $0.title?.text }.filter { !$0.isEmpty }.sorted()
        if !tagTitles.isEmpty { fields[QaseFields.tags] = tagTitles.prefix(100).joined(separator: ", ") }
        for field in (custom ?? []).prefix(customFieldLimit) {
            if let value = field.value?.text, !value.isEmpty { fields[QaseFields.customField(field.id.value)] = value }
        }
        return fields
    }

    /// What a change says about a record besides its fields.
    static func facts(_ record: Record) -> ItemFacts {
        ItemFacts(
            headline: record[QaseFields.title] ?? "", priority: record[QaseFields.priority],
            severity: record[QaseFields.severity], state: record[QaseFields.status], stateField: QaseFields.status)
    }

    /// Whether a record counts among the items assigned to me: a plan only while it has cases of mine.
    static func isAssigned(_ record: Record) -> Bool {
        guard let (segment, _) = QaseKey.parse(record.id) else { return false }
        switch segment.item {
        case .project: return false
        case .plan: return !(record[QaseFields.yourCases] ?? "").isEmpty
        case .defect, .review, .testCase: return true
        }
    }

    /// Items still open among those assigned to me: what `7 assigned` counts.
    static func isOpen(_ record: Record) -> Bool {
        isAssigned(record) && !["Resolved", "Invalid", "Merged", "Declined"].contains(record[QaseFields.status] ?? "")
    }
}
