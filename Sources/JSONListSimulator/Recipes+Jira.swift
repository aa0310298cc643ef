import SimulatorKit

/// `GET /jira/rest/api/2/search` as Jira's `GET /rest/api/2/search` documents it: `jql` (see `JQL`; none: every
/// issue), `startAt` (default 0), `maxResults` (default 50, and 50 at most: a client must page by the
/// `maxResults` the answer states), `fields` (comma-separated; `*all` or none: every field) → `{"expand",
/// "startAt", "maxResults", "total", "issues": [{"id", "self", "key", "fields": {…}}]}`. HTTP Basic with an
/// e-mail address and API token (Jira Cloud) or `Authorization: Bearer` with a personal access token (Data Center).
extension ServerState {
    static let jiraPageCap = 50

    mutating func jira(_ call: Call) -> Routed {
        guard call.segments == ["jira", "rest", "api", "2", "search"] else {
            return Routed(name: "unknown", response: Reply.notFound(call))
        }
        let name = "\(call.method) /jira/rest/api/2/search"
        guard call.method == "GET" else { return Routed(name: name, response: Reply.methodNotAllowed("GET")) }
        return Routed(name: name, response: jiraSearch(call))
    }

    private func jiraSearch(_ call: Call) -> SimResponse {
        switch call.credentials {
        case .basic(TrackerCredentials.jiraUser, TrackerCredentials.jiraAPIToken), .bearer(TrackerCredentials.jiraPAT):
            break
        default:
            return Self.jiraError(401, "You are not authenticated. Authentication required to perform this operation.")
        }
        let query: JQL
        do {
            query = try JQL.parse(call.query("jql") ?? "")
        } catch let failure as JQL.Failure {
            return Self.jiraError(400, "Error in the JQL Query: \(failure.message).")
        } catch {
            return Self.jiraError(400, "Error in the JQL Query.")
        }
        var list = (issues[.jira] ?? []).filter { issue in query.clauses.allSatisfy { Self.holds($0, for: issue) } }
        list.sort(by: Self.jiraOrder(query.order))
        let startAt = call.int("startAt", 0)
        let maxResults = min(Self.jiraPageCap, call.int("maxResults", Self.jiraPageCap))
        let fields = call.query("fields").map { $0.split(separator: ",").map(String.init) } ?? []
        let shown = list.dropFirst(startAt).prefix(maxResults).map { Self.jiraIssue($0, call.origin, fields: fields) }
        return Reply.json(
            200,
            [
                "expand": "schema,names", "startAt": .int(startAt), "maxResults": .int(maxResults),
                "total": .int(list.count), "issues": .array(Array(shown)),
            ])
    }

    static func jiraError(_ status: Int, _ message: String) -> SimResponse {
        Reply.json(status, ["errorMessages": [.string(message)], "errors": [:]])
    }

    static func jiraStatus(_ issue: TrackerIssue) -> (name: String, category: String, key: String) {
        if !issue.open { return ("Done", "Done", "done") }
        return issue.number % 2 == 0 ? ("In Progress", "In Progress", "indeterminate") : ("To Do", "To Do", "new")
    }

    /// Whether an issue satisfies a clause; text compares case-insensitively.
    static func holds(_ clause: JQL.Clause, for issue: TrackerIssue) -> Bool {
        let actual: [String] =
            switch clause.field {
            case "assignee": issue.assignee.map { [$0, "\($0)@example.com", Tracker.people[$0]?.name ?? $0] } ?? []
            case "reporter": [issue.author, "\(issue.author)@example.com", Tracker.people[issue.author]?.name ?? ""]
            case "status": [jiraStatus(issue).name]
            case "statuscategory": [jiraStatus(issue).category]
            case "resolution": issue.open ? [] : ["Done"]
            case "project": ["WID", "Widgets", "10000"]
            default: issue.labels
            }
        let lowered = Set(actual.map { $0.lowercased() })
        let wanted = clause.values.map { value -> String in
            switch value.lowercased() {
            case "currentuser()": Tracker.me
            case "unresolved", "empty", "null": ""
            default: value.lowercased()
            }
        }
        let hit = wanted.contains { $0.isEmpty ? lowered.isEmpty : lowered.contains($0) }
        switch clause.op {
        case "=", "in": return hit
        case "!=", "not in": return !hit && !(lowered.isEmpty && !wanted.contains(""))
        case "is": return lowered.isEmpty
        default: return !lowered.isEmpty
        }
    }

    static func jiraOrder(_ order: [(field: String, ascending: Bool)]) -> (TrackerIssue, TrackerIssue) -> Bool {
        { first, second in
            for (field, ascending) in order {
                let pair: (Int, Int) =
                    switch field {
                    case "updated": (first.updated, second.updated)
                    case "created": (first.created, second.created)
                    default: (first.number, second.number)
                    }
                if pair.0 != pair.1 { return ascending ? pair.0 < pair.1 : pair.0 > pair.1 }
            }
            return first.number > second.number  // Jira's default: newest key first
        }
    }
}
