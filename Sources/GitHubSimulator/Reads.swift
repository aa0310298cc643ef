import SimulatorKit

/// Dispatch, and the read routes.
extension GitHubState {
    mutating func answer(_ name: String, _ parameters: [String], _ call: Call, _ view: View) throws -> Answer {
        switch name {
        case "GET /user": return Answer(view.authenticatedUser())
        case "GET /issues": return try listIssues(call, view)
        case "GET /search/issues": return try searchIssues(call, view)
        case "GET /rate_limit": return rateLimit(view)
        case "GET /repos/{owner}/{repo}":
            return Answer(view.repository(try repoIndex(parameters[0], parameters[1], call, view)))
        case "GET /repos/{owner}/{repo}/issues": return try listRepoIssues(parameters, call, view)
        case "GET /repos/{owner}/{repo}/issues/{issue_number}":
            return Answer(view.issue(issues[try slot(parameters, call, view)]))
        case "GET /repos/{owner}/{repo}/issues/{issue_number}/timeline":
            let issue = issues[try slot(parameters, call, view, followMoves: false)]
            return paged(issue.timeline, call, view) { view.timelineItem($0, of: issue) }
        case "GET /repos/{owner}/{repo}/issues/{issue_number}/comments":
            let issue = issues[try slot(parameters, call, view, followMoves: false)]
            let comments = issue.timeline.compactMap { event -> JSONValue? in
                guard case .commented(let body) = event.kind else { return nil }
                return view.comment(event, body: body, of: issue)
            }
            return paged(comments, call, view) { $0 }
        case "GET /repos/{owner}/{repo}/pulls/{pull_number}":
            return Answer(view.pull(issues[try pullSlot(parameters, call, view)]))
        case "GET /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers":
            let pull = view.pull(issues[try pullSlot(parameters, call, view)])
            return Answer(["users": pull["requested_reviewers"] ?? [], "teams": pull["requested_teams"] ?? []])
        case "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews":
            let issue = issues[try pullSlot(parameters, call, view)]
            let reviews = issue.timeline.compactMap { event -> JSONValue? in
                guard case .reviewed(let state, let body, let commit) = event.kind else { return nil }
                return view.review(event, state: state, body: body, commit: commit, of: issue, upper: true)
            }
            return paged(reviews, call, view) { $0 }
        default: return try write(name, parameters, call, view)
        }
    }

    /// A page of `items` rendered by `render`, with `Link`.
    func paged<T>(_ items: [T], _ call: Call, _ view: View, render: (T) -> JSONValue) -> Answer {
        let window = Paging.window(count: items.count, call, view)
        var answer = Answer(.array(items[window.range].map(render)))
        if let link = window.link { answer.headers.append(link) }
        return answer
    }

    /// `GET /issues`: issues and pull requests across the repositories the token reads, by `filter`.
    private func listIssues(_ call: Call, _ view: View) throws -> Answer {
        let filter = try choice(call, "filter", ["assigned", "created", "mentioned", "subscribed", "repos", "all"])
        let me = view.me
        let slots = try selected(call, resource: "Issue") { issue in
            switch filter {
            case "assigned": issue.assignees.contains(me)
            case "created": issue.author == me
            case "mentioned": issue.mentions.contains(me)
            case "subscribed": issue.author == me || issue.assignees.contains(me) || issue.mentions.contains(me)
                || issue.commenters.contains(me) || issue.requested.contains(.user(me))
            default: true
            }
        }
        let visible = slots.filter { canRead(view.token, repo: issues[$0].repo) }
        return paged(visible, call, view) { view.issue(issues[$0], withRepository: true) }
    }

    /// `GET /repos/{owner}/{repo}/issues`: `state`, `assignee` (a login, `none` or `*`), `creator`, `sort`.
    private func listRepoIssues(_ parameters: [String], _ call: Call, _ view: View) throws -> Answer {
        let repo = try repoIndex(parameters[0], parameters[1], call, view)
        let assignee = call.query("assignee"), creator = call.query("creator")
        let slots = try selected(call, resource: "Issue") { issue in
            guard issue.repo == repo else { return false }
            if let creator, Directory.accounts[issue.author].login.lowercased() != creator.lowercased() { return false }
            switch assignee {
            case nil: return true
            case "none": return issue.assignees.isEmpty
            case "*": return !issue.assignees.isEmpty
            case let login?: return issue.assignees.contains { Directory.accounts[$0].login == login }
            }
        }
        return paged(slots, call, view) { view.issue(issues[$0]) }
    }

    /// Live issues passing `state`, `labels`, `since` and `keep`, in `sort`/`direction` order.
    private func selected(_ call: Call, resource: String, _ keep: (Issue) -> Bool) throws -> [Int] {
        let state = try choice(call, "state", ["open", "closed", "all"])
        let sort = try choice(call, "sort", ["created", "updated", "comments"])
        let ascending = try choice(call, "direction", ["desc", "asc"]) == "asc"
        let labels = call.query("labels").map { $0.split(separator: ",").map(String.init) } ?? []
        var since: Int?
        if let text = call.query("since") {
            guard let time = ISOTime.parse(text) else { throw GitHubError.invalid(resource, "since") }
            since = time
        }
        var slots = issues.indices.filter { slot in
            let issue = issues[slot]
            return isLive(slot) && (state == "all" || issue.isOpen == (state == "open"))
                && labels.allSatisfy(issue.labels.contains) && issue.updated >= (since ?? .min) && keep(issue)
        }
        slots.sort { a, b in
            let (x, y) = (issues[a], issues[b])
            let (p, q) = sort == "created" ? (x.created, y.created) : sort == "updated" ? (x.updated, y.updated)
                : (x.comments, y.comments)
            if p != q { return ascending ? p < q : p > q }
            return ascending ? x.id < y.id : x.id > y.id
        }
        return slots
    }

    /// The query parameter `name`, one of `allowed` (the first when absent), else 422.
    func choice(_ call: Call, _ name: String, _ allowed: [String]) throws -> String {
        guard let value = call.query(name) else { return allowed[0] }
        guard allowed.contains(value) else { throw GitHubError.invalid("Issue", name) }
        return value
    }

    /// `GET /rate_limit`: the token's windows; free, as on GitHub.
    private func rateLimit(_ view: View) -> Answer {
        func resource(_ name: String) -> JSONValue {
            let bucket = bucket(view.token, name), limit = limit(name)
            return ["limit": .int(limit), "used": .int(bucket.used), "remaining": .int(max(0, limit - bucket.used)),
                "reset": .int(bucket.reset)]
        }
        var body: JSONValue = ["resources": ["core": resource("core"), "search": resource("search")]]
        if view.version == APIVersion.old { body["rate"] = resource("core") }
        return Answer(body)
    }
}
