import SimulatorKit

/// `/sim/issues/{tracker}`: the recipe servers' issues, to assign, close or add one between two polls.
/// `GET` lists them; `POST {"title", "assignee", "state", "labels"}` adds one; `PATCH …/{number}` with any of
/// `{"assignee": "dana" | null, "state": "open" | "closed", "title", "labels"}` changes one (`updated` moves on).
extension ServerState {
    mutating func issuesAnswer(_ call: Call, _ path: [String]) -> SimResponse {
        guard let tracker = Tracker(rawValue: path[0]) else {
            return Reply.error(404, "No tracker \(path[0]): github, gitlab or jira")
        }
        switch (call.method, path.count) {
        case ("GET", 1): return Reply.json(200, .array((issues[tracker] ?? []).map(Self.summary)))
        case ("POST", 1):
            let number = (issues[tracker]?.map(\.number).max() ?? 0) + 1
            var issue = TrackerIssue(
                number: number, title: "New issue \(number)", open: true, assignee: nil,
                author: Tracker.me, labels: [], created: call.now, updated: call.now, comments: 0)
            if let refusal = Self.apply(call.json, to: &issue) { return refusal }
            issues[tracker, default: []].append(issue)
            return Reply.json(201, Self.summary(issue))
        case ("PATCH", 2):
            let number = Int(path[1].split(separator: "-").last ?? "") ?? -1
            guard let index = issues[tracker]?.firstIndex(where: { $0.number == number }),
                var issue = issues[tracker]?[index]
            else { return Reply.error(404, "No issue \(path[1]) on \(tracker.rawValue)") }
            if let refusal = Self.apply(call.json, to: &issue) { return refusal }
            issue.updated = max(call.now, issue.updated + 1)
            issues[tracker]?[index] = issue
            return Reply.json(200, Self.summary(issue))
        default: return Reply.methodNotAllowed("GET, POST /sim/issues/{tracker}; PATCH /sim/issues/{tracker}/{number}")
        }
    }

    private static func apply(_ body: JSONValue?, to issue: inout TrackerIssue) -> SimResponse? {
        guard let body, body.object != nil else { return Reply.error(400, "Expected a JSON object") }
        if let title = body["title"]?.string { issue.title = title }
        if let labels = body["labels"]?.array { issue.labels = labels.compactMap(\.string) }
        switch body["state"]?.string {
        case "open"?: issue.open = true
        case "closed"?: issue.open = false
        case nil: break
        default: return Reply.error(400, "state is open or closed")
        }
        switch body["assignee"] {
        case .null?: issue.assignee = nil
        case .string(let login)?:
            guard Tracker.people[login] != nil else {
                return Reply.error(400, "assignee is one of \(Tracker.people.keys.sorted().joined(separator: ", "))")
            }
            issue.assignee = login
        default: break
        }
        return nil
    }

    static func summary(_ issue: TrackerIssue) -> JSONValue {
        [
            "number": .int(issue.number), "title": .string(issue.title), "state": issue.open ? "open" : "closed",
            "assignee": .text(issue.assignee), "author": .string(issue.author),
            "labels": .array(issue.labels.map { .string($0) }), "updated": .string(HTTPDate.iso8601(issue.updated)),
        ]
    }
}
