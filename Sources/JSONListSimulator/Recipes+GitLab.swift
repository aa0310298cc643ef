import SimulatorKit

/// `GET /gitlab/api/v4/issues` as GitLab's `GET /api/v4/issues` documents it: `scope=created_by_me` by default
/// (`assigned_to_me`, `all`), `state` all by default (`opened`, `closed`), `order_by=created_at|updated_at`,
/// `sort=desc|asc`, `per_page` (default 20, at most 100), `page`; the headers `X-Page`, `X-Per-Page`,
/// `X-Next-Page` (empty on the last page), `X-Prev-Page`, `X-Total`, `X-Total-Pages` and `Link` (prev, next, first,
/// last). The token in `PRIVATE-TOKEN`, `Authorization: Bearer`, or `?private_token=`/`?access_token=`.
extension ServerState {
    mutating func gitlab(_ call: Call) -> Routed {
        guard call.segments == ["gitlab", "api", "v4", "issues"] else {
            return Routed(name: "unknown", response: Reply.notFound(call))
        }
        let name = "\(call.method) /gitlab/api/v4/issues"
        guard call.method == "GET" else { return Routed(name: name, response: Reply.methodNotAllowed("GET")) }
        return Routed(name: name, response: gitlabIssues(call))
    }

    private func gitlabIssues(_ call: Call) -> SimResponse {
        let token = call.request.headers["private-token"] ?? call.query("private_token") ?? call.query("access_token")
        let bearer: String? = if case .bearer(let value) = call.credentials { value } else { nil }
        guard (token ?? bearer) == TrackerCredentials.gitlabToken else {
            return Reply.json(401, ["message": "401 Unauthorized"])
        }
        let scope = (call.query("scope") ?? "created_by_me").replacing("-", with: "_")
        let state = call.query("state") ?? "all"
        guard ["created_by_me", "assigned_to_me", "all"].contains(scope) else {
            return Reply.json(400, ["error": "scope does not have a valid value"])
        }
        guard ["opened", "closed", "all"].contains(state) else {
            return Reply.json(400, ["error": "state does not have a valid value"])
        }
        var list = (issues[.gitlab] ?? []).filter { issue in
            switch scope {
            case "created_by_me": issue.author == Tracker.me
            case "assigned_to_me": issue.assignee == Tracker.me
            default: true
            }
        }.filter { state == "all" || $0.open == (state == "opened") }
        list.sort(by: Self.order(call.query("order_by") ?? "created_at", ascending: call.query("sort") == "asc"))
        let perPage = min(100, max(1, call.int("per_page", 20)))
        let page = max(1, call.int("page", 1))
        let shown = list.dropFirst((page - 1) * perPage).prefix(perPage).map(Self.gitlabIssue)
        var response = Reply.json(200, .array(Array(shown)))
        response.headers += Self.gitlabPaging(call, page: page, perPage: perPage, total: list.count)
        return response
    }

    private static func gitlabPaging(_ call: Call, page: Int, perPage: Int, total: Int) -> [(String, String)] {
        let pages = max(1, (total + perPage - 1) / perPage)
        let next = page < pages ? String(page + 1) : ""
        let previous = page > 1 ? String(page - 1) : ""
        var links: [(String, Int)] = []
        if page > 1 { links.append(("prev", page - 1)) }
        if page < pages { links.append(("next", page + 1)) }
        links += [("first", 1), ("last", pages)]
        let link = links.map { rel, number in
            "<\(call.origin)\(call.link("/gitlab/api/v4/issues", replacing: ["page": String(number)]))>; rel=\"\(rel)\""
        }.joined(separator: ", ")
        return [
            ("Link", link), ("X-Next-Page", next), ("X-Page", String(page)), ("X-Per-Page", String(perPage)),
            ("X-Prev-Page", previous), ("X-Total", String(total)), ("X-Total-Pages", String(pages)),
        ]
    }

    static func gitlabUser(_ username: String) -> JSONValue {
        let person = Tracker.people[username] ?? (name: username, id: 0)
        return [
            "id": .int(person.id), "username": .string(username), "name": .string(person.name), "state": "active",
            "avatar_url": .null, "web_url": .string("https://gitlab.example.com/\(username)"),
        ]
    }

    /// GitLab's times carry milliseconds: `2024-05-01T10:00:00.000Z`.
    private static func gitlabTime(_ seconds: Int) -> JSONValue {
        .string(String(HTTPDate.iso8601(seconds).dropLast()) + ".000Z")
    }

    static func gitlabIssue(_ issue: TrackerIssue) -> JSONValue {
        [
            "id": .int(5_000 + issue.number), "iid": .int(issue.number), "project_id": 42,
            "title": .string(issue.title), "description": .string("Details of “\(issue.title)”."),
            "state": issue.open ? "opened" : "closed", "created_at": gitlabTime(issue.created),
            "updated_at": gitlabTime(issue.updated), "closed_at": issue.open ? .null : gitlabTime(issue.updated),
            "closed_by": issue.open ? .null : gitlabUser(issue.author),
            "labels": .array(issue.labels.map { .string($0) }), "milestone": .null,
            "assignees": .array(issue.assignee.map { [gitlabUser($0)] } ?? []), "author": gitlabUser(issue.author),
            "type": "ISSUE", "assignee": issue.assignee.map(gitlabUser) ?? .null,
            "user_notes_count": .int(issue.comments), "upvotes": 0, "downvotes": 0, "due_date": .null,
            "confidential": false, "issue_type": "issue",
            "web_url": .string("https://gitlab.example.com/acme/widgets/-/issues/\(issue.number)"),
            "references": [
                "short": .string("#\(issue.number)"), "relative": .string("#\(issue.number)"),
                "full": .string("acme/widgets#\(issue.number)"),
            ],
        ]
    }
}
