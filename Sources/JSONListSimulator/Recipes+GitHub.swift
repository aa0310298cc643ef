import SimulatorKit

/// `GET /github/issues` as `GET https://api.github.com/issues` documents it: the authenticated user's issues
/// (`filter=assigned` by default; `created`, `mentioned`, `subscribed`, `all`), `state=open` by default (`closed`,
/// `all`), `sort=created|updated|comments`, `direction=desc|asc`, `per_page` (default 30, at most 100), `page`;
/// `Link` paging with absolute URLs, a weak `ETag` (an `If-None-Match` hit is a 304 that costs no rate limit),
/// `X-RateLimit-*`. `Authorization: Bearer TOKEN` or `token TOKEN`; no `User-Agent` is refused with 403.
extension ServerState {
    mutating func github(_ call: Call) -> Routed {
        guard call.segments == ["github", "issues"] else {
            return Routed(name: "unknown", response: Reply.notFound(call))
        }
        let name = "\(call.method) /github/issues"
        guard call.method == "GET" else { return Routed(name: name, response: Reply.methodNotAllowed("GET")) }
        return Routed(name: name, response: githubIssues(call))
    }

    private mutating func githubIssues(_ call: Call) -> SimResponse {
        if let refusal = Self.githubRefusal(call) { return refusal }
        let filter = call.query("filter") ?? "assigned"
        let state = call.query("state") ?? "open"
        guard ["assigned", "created", "mentioned", "subscribed", "all", "repos"].contains(filter),
            ["open", "closed", "all"].contains(state)
        else {
            return Reply.json(422, ["message": "Validation Failed", "documentation_url": .string(Self.githubDocs)])
        }
        let me = Tracker.me
        var list = (issues[.github] ?? []).filter { issue in
            switch filter {
            case "assigned": issue.assignee == me
            case "created": issue.author == me
            case "mentioned": false
            case "subscribed": issue.assignee == me || issue.author == me
            default: true
            }
        }.filter { state == "all" || $0.open == (state == "open") }
        list.sort(by: Self.order(call.query("sort") ?? "created", ascending: call.query("direction") == "asc"))
        let perPage = min(100, max(1, call.int("per_page", 30)))
        let page = max(1, call.int("page", 1))
        let shown = list.dropFirst((page - 1) * perPage).prefix(perPage).map { Self.githubIssue($0, call.origin) }
        let body = Reply.json(200, .array(Array(shown)))
        let etag = "W/\"\(ConditionalRoutes.tag(of: body.body))\""
        if let ifNoneMatch = call.request.headers["if-none-match"], ConditionalRoutes.matches(ifNoneMatch, etag) {
            var notModified = SimResponse(status: 304, body: [])
            notModified.headers = [("ETag", etag)] + githubRateHeaders(call)
            return notModified
        }
        githubRateUsed += 1
        var response = body
        response.headers +=
            [("ETag", etag), ("X-GitHub-Media-Type", "github.v3; format=json")] + githubRateHeaders(call)
        let lastPage = max(1, (list.count + perPage - 1) / perPage)
        if let link = PagingRoutes.linkHeader(
            call, path: "/github/issues", page: page, lastPage: lastPage,
            hasNext: page * perPage < list.count)
        {
            response.headers.append(("Link", link))
        }
        return response
    }

    static let githubDocs = "https://docs.github.com/rest/issues/issues#list-issues-assigned-to-the-authenticated-user"

    private static func githubRefusal(_ call: Call) -> SimResponse? {
        guard call.request.headers["user-agent"] != nil else {
            return Reply.json(
                403,
                [
                    "message": """
                    Request forbidden by administrative rules. Please make sure your request has a User-Agent header \
                    (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required).
                    """
                ])
        }
        switch call.credentials {
        case .bearer(TrackerCredentials.githubToken), .token(TrackerCredentials.githubToken): return nil
        case .none:
            return Reply.json(
                401,
                [
                    "message": "Requires authentication", "documentation_url": .string(githubDocs),
                    "status": "401",
                ])
        default:
            return Reply.json(
                401,
                [
                    "message": "Bad credentials", "documentation_url": "https://docs.github.com/rest",
                    "status": "401",
                ])
        }
    }

    private func githubRateHeaders(_ call: Call) -> [(String, String)] {
        [
            ("X-RateLimit-Limit", "5000"), ("X-RateLimit-Remaining", String(max(0, 5000 - githubRateUsed))),
            ("X-RateLimit-Reset", String(call.now + 3600)), ("X-RateLimit-Used", String(githubRateUsed)),
            ("X-RateLimit-Resource", "core"),
        ]
    }

    /// Newest first unless `ascending`; ties by number.
    static func order(_ key: String, ascending: Bool) -> (TrackerIssue, TrackerIssue) -> Bool {
        { first, second in
            let pair: (Int, Int) =
                switch key {
                case "updated", "updated_at": (first.updated, second.updated)
                case "comments": (first.comments, second.comments)
                default: (first.created, second.created)
                }
            if pair.0 == pair.1 { return ascending ? first.number < second.number : first.number > second.number }
            return ascending ? pair.0 < pair.1 : pair.0 > pair.1
        }
    }

    static func githubUser(_ login: String, _ origin: String) -> JSONValue {
        let id = Tracker.people[login]?.id ?? 0
        return [
            "login": .string(login), "id": .int(583_231 + id), "node_id": .string("MDQ6VXNlcj\(id)"),
            "avatar_url": .string("https://avatars.githubusercontent.com/u/\(583_231 + id)?v=4"),
            "url": .string("\(origin)/github/users/\(login)"), "html_url": .string("https://github.com/\(login)"),
            "type": "User", "site_admin": false,
        ]
    }

    static func githubIssue(_ issue: TrackerIssue, _ origin: String) -> JSONValue {
        let api = "\(origin)/github/repos/acme/widgets/issues/\(issue.number)"
        let web = "https://github.com/acme/widgets/\(issue.pullRequest ? "pull" : "issues")/\(issue.number)"
        var json: JSONValue = [
            "url": .string(api), "repository_url": .string("\(origin)/github/repos/acme/widgets"),
            "comments_url": .string(api + "/comments"), "html_url": .string(web),
            "id": .int(2_000_000_000 + issue.number), "node_id": .string("I_kwDOJsonSim\(issue.number)"),
            "number": .int(issue.number), "title": .string(issue.title), "user": githubUser(issue.author, origin),
            "labels": .array(
                issue.labels.enumerated().map { index, label in
                    ["id": .int(4_000_000 + index), "name": .string(label), "color": "d73a4a", "default": false]
                }),
            "state": issue.open ? "open" : "closed", "locked": false,
            "assignee": issue.assignee.map { githubUser($0, origin) } ?? .null,
            "assignees": .array(issue.assignee.map { [githubUser($0, origin)] } ?? []),
            "milestone": .null, "comments": .int(issue.comments),
            "created_at": .string(HTTPDate.iso8601(issue.created)),
            "updated_at": .string(HTTPDate.iso8601(issue.updated)),
            "closed_at": issue.open ? .null : .string(HTTPDate.iso8601(issue.updated)),
            "author_association": "MEMBER", "body": .string("Details of “\(issue.title)”."),
            "state_reason": issue.open ? .null : "completed",
            "repository": [
                "id": 812_345, "name": "widgets", "full_name": "acme/widgets", "private": true,
                "html_url": "https://github.com/acme/widgets",
            ],
        ]
        if issue.pullRequest {
            json["pull_request"] = [
                "url": .string("\(origin)/github/repos/acme/widgets/pulls/\(issue.number)"), "html_url": .string(web),
            ]
        }
        return json
    }
}
