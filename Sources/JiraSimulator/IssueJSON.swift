import SimulatorKit

/// Which fields an answer carries, from `fields` (comma-separated and/or repeated): names, `*all`, `*navigable`,
/// `-name` to leave one out; unknown names are ignored, as Jira does. `id` asks for no field.
struct FieldSelection: Equatable {
    static let all = [
        "summary", "status", "priority", "assignee", "reporter", "creator", "labels", "fixVersions", "description",
        "created", "updated", "project", "issuetype", "resolution", "comment", "customfield_10020", "watches",
    ]
    /// Navigable fields: all but `comment`, which a search carries only when asked for.
    static let navigable = all.filter { $0 != "comment" }

    private(set) var names: Set<String>

    init(_ values: [String], default fallback: [String]) {
        let words = values.flatMap { $0.split(separator: ",") }.map(\.withoutSpaces)
        var names = Set<String>()
        for word in words.isEmpty ? fallback : words {
            switch word {
            case "*all": names.formUnion(Self.all)
            case "*navigable": names.formUnion(Self.navigable)
            default: if Self.all.contains(word) { names.insert(word) }
            }
        }
        for word in words where word.hasPrefix("-") { names.remove(String(word.dropFirst())) }
        self.names = names
    }

    /// Display names of the fields, for `GET /field`.
    static let displayNames = [
        "summary": "Summary", "status": "Status", "priority": "Priority", "assignee": "Assignee",
        "reporter": "Reporter", "creator": "Creator", "labels": "Labels", "fixVersions": "Fix versions",
        "description": "Description", "created": "Created", "updated": "Updated", "project": "Project",
        "issuetype": "Issue Type", "resolution": "Resolution", "comment": "Comment", "customfield_10020": "Sprint",
        "watches": "Watchers",
    ]

    /// `GET /field`: every field with the JQL names that reach it.
    static var list: JSONValue {
        .array(all.map { id in
            let custom = id.hasPrefix("customfield_")
            let clause = custom ? "cf[10020]" : ["fixVersions": "fixVersion", "watches": "watcher"][id] ?? id
            return [
                "id": .string(id), "key": .string(id), "name": .string(displayNames[id] ?? id), "custom": .bool(custom),
                "orderable": true, "navigable": .bool(id != "comment"), "searchable": true,
                "clauseNames": .array([.string(clause)] + (custom ? ["Sprint"] : [])),
            ]
        })
    }

    /// Only ids: what lets `search/jql` serve 5000 a page.
    var idOnly: Bool { names.isEmpty }
}

extension Substring {
    /// Without leading and trailing spaces (`fields=summary, status`).
    fileprivate var withoutSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension JiraState {
    /// An issue as Jira answers it: `{expand, id, self, key, fields, changelog?}` with the fields asked for.
    func issueJSON(_ issue: Issue, fields: FieldSelection, changelog: Bool, view: View) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("expand", "renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations"),
            ("id", .string(String(issue.id))), ("self", .string("\(view.api)/issue/\(issue.id)")),
            ("key", .string(key(of: issue))),
        ]
        let values = Self.all.filter { fields.names.contains($0) }.map { ($0, fieldValue($0, of: issue, view)) }
        members.append(("fields", .object(values.map { (key: $0.0, value: $0.1) })))
        if changelog {
            members.append(("changelog", view.embedded("histories", issue.histories.map { view.history($0) })))
        }
        return .object(members)
    }

    private static let all = FieldSelection.all

    /// A status with its category, as `fields.status` and a transition's `to` carry it.
    func statusJSON(_ index: Int, _ view: View) -> JSONValue {
        let status = Workflow.statuses[index]
        return [
            "self": .string("\(view.api)/status/\(status.id)"), "name": .string(status.name), "id": .string(status.id),
            "statusCategory": [
                "id": .int(status.categoryID), "key": .string(status.categoryKey),
                "colorName": .string(status.colorName), "name": .string(status.categoryName),
            ],
        ]
    }

    func fieldValue(_ name: String, of issue: Issue, _ view: View) -> JSONValue {
        switch name {
        case "summary": return .string(issue.summary)
        case "status": return statusJSON(issue.status, view)
        case "priority":
            let priority = Workflow.priority(named: issue.priority)
            return ["name": .string(issue.priority), "id": .text(priority?.id)]
        case "assignee": return view.user(issue.assignee)
        case "reporter": return view.user(issue.reporter)
        case "creator": return view.user(issue.creator)
        case "labels": return .array(issue.labels.map { .string($0) })
        case "fixVersions":
            return .array(issue.fixVersions.map { ["id": .text(Workflow.version(named: $0)?.id), "name": .string($0)] })
        case "description": return view.text(issue.description)
        case "created": return view.time(issue.created)
        case "updated": return view.time(issue.updated)
        case "project":
            let project = projects[issue.projectIndex]
            return ["id": .string(String(project.id)), "key": .string(project.key), "name": .string(project.name)]
        case "issuetype":
            return ["id": .text(Workflow.issueTypes.first { $0.1 == issue.issueType }?.0), "name": .string(issue.issueType)]
        case "resolution": return issue.status == Workflow.done ? ["id": "10000", "name": "Done"] : .null
        case "comment":
            return view.embedded("comments", issue.comments.map { view.comment($0, issueID: issue.id) })
        case "customfield_10020":
            guard let sprint = issue.sprint else { return .null }
            return [["id": .int(sprint), "name": .string("\(projects[issue.projectIndex].key) Sprint \(sprint)"),
                "state": "active", "boardId": 1]]
        case "watches":
            return [
                "self": .string("\(view.api)/issue/\(key(of: issue))/watchers"),
                "watchCount": .int(issue.watchers.count), "isWatching": .bool(issue.watchers.contains(view.caller)),
            ]
        default: return .null
        }
    }
}
