import TrackwatchCore

/// The fields a Jira issue is stored and reported with, by the names people see in Jira.
public enum JiraFields {
    public static let summary = "Summary", status = "Status", priority = "Priority", assignee = "Assignee"
    public static let labels = "Labels", fixVersions = "Fix versions", type = "Type", updated = "Updated"
    public static let comment = "Comment", key = "Key"

    /// Compared between snapshots where no changelog was read (reported without a name).
    static let compared = [summary, status, priority, assignee, labels, fixVersions]

    /// What trackwatch asks for in a search.
    static let requested = [
        "summary", "status", "priority", "issuetype", "assignee", "reporter", "creator", "labels", "fixVersions",
        "created", "updated", "project", "watches", "comment",
    ]

    /// Changelog fields whose values are long texts: told as "Description changed", never quoted.
    static let textFields: Set<String> = ["description", "environment", "comment"]

    /// The changelog's field (an id for system fields, the display name for custom ones) as people read it.
    static func displayName(_ field: String) -> String {
        shownNames[field.lowercased()] ?? field.prefix(1).uppercased() + field.dropFirst()
    }

    private static let shownNames = [
        "status": status, "assignee": assignee, "summary": summary, "priority": priority, "labels": labels,
        "fix version": fixVersions, "fixversions": fixVersions, "issuetype": type, "key": key, "project": "Project",
        "resolution": "Resolution", "description": "Description",
    ]
}

/// How Jira's issues, changelog histories and comments become the activity shape (`ActivityDiff`).
struct JiraMapping {
    /// My stable id (`accountId` on Cloud, `key` on Data Center).
    let me: String
    /// The site, for links (`<url>/browse/KEY`).
    let url: String

    /// An issue as one of my items; `nil` when its key is not a Jira key (never shown, never stored).
    func item(_ issue: JiraIssue, isMine: Bool) -> ActivityItem? {
        guard JiraIssueKey.isValid(issue.key) else { return nil }
        let fields = issue.fields
        let summary = SafeText.oneLine(fields?.summary ?? "", limit: 500)
        var values: [String: String] = [
            JiraFields.summary: summary,
            JiraFields.status: SafeText.oneLine(fields?.status?.name ?? "", limit: 100),
            JiraFields.priority: SafeText.oneLine(fields?.priority?.name ?? "", limit: 100),
            JiraFields.assignee: SafeText.oneLine(fields?.assignee?.displayName ?? "", limit: 120),
            JiraFields.labels: Self.listField(fields?.labels?.values ?? [], isCut: fields?.labels?.isCut ?? false, " "),
            JiraFields.fixVersions: Self.listField(
                fields?.fixVersions?.values.compactMap(\.name) ?? [], isCut: fields?.fixVersions?.isCut ?? false, ", "),
            JiraFields.type: SafeText.oneLine(fields?.issuetype?.name ?? "", limit: 100),
        ]
        if let updated = fields?.updated?.timestamp { values[JiraFields.updated] = updated.rawValue }
        let status = values[JiraFields.status].flatMap { $0.isEmpty ? nil : $0 }
        return ActivityItem(
            id: issue.id.value, record: Record(id: RecordID(issue.key), fields: values),
            isAssignedToMe: fields?.assignee?.id == me, isMine: isMine,
            facts: ItemFacts(
                headline: summary, priority: values[JiraFields.priority].flatMap { $0.isEmpty ? nil : $0 },
                state: status, stateField: JiraFields.status, link: "\(url)/browse/\(issue.key)"))
    }

    /// A changelog history as one event: each item a field change, in the names people read.
    func event(_ history: JiraHistory, issue: String) -> ActivityEvent? {
        guard let at = history.created?.timestamp else { return nil }
        let changes = (history.items?.elements ?? []).prefix(50).compactMap { item -> FieldChange? in
            guard let field = item.field, !field.isEmpty else { return nil }
            let name = JiraFields.displayName(SafeText.oneLine(field, limit: 60))
            if JiraFields.textFields.contains(field.lowercased()) { return FieldChange(field: name, old: nil, new: nil) }
            let old = SafeText.oneLine(item.fromString ?? "", limit: 200), new = SafeText.oneLine(item.toString ?? "", limit: 200)
            // A value set where there was none reads as the value alone (`Resolution: Done`).
            return FieldChange(field: name, old: old.isEmpty && !new.isEmpty ? nil : old, new: new)
        }
        return ActivityEvent(item: issue, id: "h\(history.id.value)", at: at, actor: history.author?.actor, changes: changes)
    }

    /// A comment as an event: its author and its first line.
    func event(_ comment: JiraComment, issue: String) -> ActivityEvent? {
        guard let at = comment.created?.timestamp else { return nil }
        return ActivityEvent(
            item: issue, id: "c\(comment.id.value)", at: at, actor: comment.author?.actor,
            changes: [FieldChange(field: JiraFields.comment, old: nil, new: comment.body?.firstLine ?? "")],
            // The comment on the issue's page; a `JiraID` is digits only.
            link: "?focusedCommentId=\(comment.id.value)")
    }

    /// A list as Jira shows it, in its order, one line of at most 500 characters: each value is cut to that before
    /// the values are joined, and only the first `FirstValuesBound.count` of them are read (250 always fill 500).
    static func listField(_ values: [String], isCut: Bool, _ separator: String) -> String {
        let shown = SafeText.list(values, limit: 500, isCut: isCut, sorted: false, separator: separator)
        return SafeText.oneLine(shown, limit: 500)
    }

    /// The issue's creation as an event by its creator: what makes an issue created already assigned to me mine.
    func creation(_ issue: JiraIssue) -> ActivityEvent? {
        guard let fields = issue.fields, let at = fields.created?.timestamp, let creator = fields.creator ?? fields.reporter
        else { return nil }
        return ActivityEvent(item: issue.id.value, id: "created", at: at, actor: creator.actor, changes: [])
    }
}
