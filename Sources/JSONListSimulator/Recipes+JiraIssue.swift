import SimulatorKit

/// A Jira issue as `/rest/api/2/search` returns it.
extension ServerState {
    /// Jira's times: `2024-05-01T10:00:00.000+0000`.
    private static func jiraTime(_ seconds: Int) -> JSONValue {
        .string(String(HTTPDate.iso8601(seconds).dropLast()) + ".000+0000")
    }

    static func jiraUser(_ login: String, _ origin: String) -> JSONValue {
        let person = Tracker.people[login] ?? (name: login, id: 0)
        return [
            "self": .string("\(origin)/jira/rest/api/2/user?accountId=5b10a2844c20165700ede2\(person.id)"),
            "name": .string(login), "key": .string(login), "accountId": .string("5b10a2844c20165700ede2\(person.id)"),
            "emailAddress": .string("\(login)@example.com"), "displayName": .string(person.name), "active": true,
            "timeZone": "Etc/UTC",
        ]
    }

    static func jiraIssue(_ issue: TrackerIssue, _ origin: String, fields wanted: [String]) -> JSONValue {
        let id = String(10_000 + issue.number)
        let status = jiraStatus(issue)
        var fields: JSONValue = [
            "summary": .string(issue.title),
            "status": [
                "self": .string("\(origin)/jira/rest/api/2/status/\(status.key)"), "name": .string(status.name),
                "statusCategory": ["key": .string(status.key), "name": .string(status.category)],
            ],
            "assignee": issue.assignee.map { jiraUser($0, origin) } ?? .null,
            "reporter": jiraUser(issue.author, origin),
            "priority": ["name": issue.labels.contains("bug") ? "High" : "Medium"],
            "issuetype": ["name": issue.labels.contains("bug") ? "Bug" : "Task", "subtask": false],
            "project": ["id": "10000", "key": "WID", "name": "Widgets"],
            "resolution": issue.open ? .null : ["name": "Done"],
            "labels": .array(issue.labels.map { .string($0) }),
            "created": jiraTime(issue.created), "updated": jiraTime(issue.updated),
        ]
        if !wanted.isEmpty && !wanted.contains("*all") && !wanted.contains("*navigable") {
            fields = .object(JSONObject(fields.object?.members.filter { wanted.contains($0.key) } ?? []))
        }
        return [
            "expand": "operations,versionedRepresentations,editmeta,changelog,renderedFields", "id": .string(id),
            "self": .string("\(origin)/jira/rest/api/2/issue/\(id)"), "key": .string("WID-\(issue.number)"),
            "fields": fields,
        ]
    }
}
