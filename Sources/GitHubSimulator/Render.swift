import SimulatorKit

/// Renders the server's model as GitHub's JSON for one caller, API version and origin.
struct View {
    let repos: [Repository]
    /// The API root: scheme, the request's host and port, and the base path.
    let api: String
    /// The web root (`html_url`s): scheme, host and port.
    let web: String
    let token: Token
    let version: String

    init(state: GitHubState, call: Call, token: Token, version: String) {
        repos = state.repos
        web = (state.options.https ? "https://" : "http://") + (call.request.headers["host"] ?? "127.0.0.1")
        api = web + state.options.basePath
        self.token = token
        self.version = version
    }

    var me: Int { token.user }

    func time(_ seconds: Int?) -> JSONValue { .text(seconds.map(HTTPDate.iso8601)) }

    /// A simple user: `{login, id, node_id, avatar_url, url, html_url, type, site_admin}`.
    func account(_ index: Int) -> JSONValue {
        let account = Directory.accounts[index]
        return [
            "login": .string(account.login), "id": .int(account.id), "node_id": .string(account.nodeID),
            "avatar_url": .string("\(web)/avatars/u/\(account.id)"), "gravatar_id": "",
            "url": .string("\(api)/users/\(account.login)"), "html_url": .string("\(web)/\(account.login)"),
            "type": .string(account.type), "site_admin": false,
        ]
    }

    /// `GET /user`: the simple user plus `name`, `email` and a few profile members.
    func authenticatedUser() -> JSONValue {
        let account = Directory.accounts[me]
        var user = self.account(me)
        user["name"] = .string(account.name)
        user["company"] = "@acme"
        user["email"] = .string(account.email)
        user["created_at"] = "2020-01-01T00:00:00Z"
        return user
    }

    func team(_ index: Int) -> JSONValue {
        let team = Directory.teams[index]
        return [
            "id": .int(team.id), "node_id": .string(NodeID.make("04:Team", team.id)),
            "url": .string("\(api)/organizations/\(Directory.organization.id)/team/\(team.id)"),
            "html_url": .string("\(web)/orgs/acme/teams/\(team.slug)"), "name": .string(team.name),
            "slug": .string(team.slug), "description": "", "privacy": "closed", "permission": "pull",
        ]
    }

    func repository(_ index: Int) -> JSONValue {
        let repo = repos[index]
        let owner: JSONValue = [
            "login": .string(repo.owner), "id": .int(Directory.organization.id),
            "node_id": .string(NodeID.make("012:Organization", Directory.organization.id)),
            "url": .string("\(api)/users/\(repo.owner)"), "html_url": .string("\(web)/\(repo.owner)"),
            "type": "Organization", "site_admin": false,
        ]
        return [
            "id": .int(repo.id), "node_id": .string(repo.nodeID), "name": .string(repo.name),
            "full_name": .string(repo.fullName), "private": .bool(repo.isPrivate), "owner": owner,
            "html_url": .string("\(web)/\(repo.fullName)"), "description": .string("The \(repo.name) of acme"),
            "fork": false, "url": .string("\(api)/repos/\(repo.fullName)"),
            "visibility": .string(repo.isPrivate ? "private" : "public"), "default_branch": "main",
        ]
    }

    func issueURL(_ issue: Issue) -> String { "\(api)/repos/\(repos[issue.repo].fullName)/issues/\(issue.number)" }
    func pullURL(_ issue: Issue) -> String { "\(api)/repos/\(repos[issue.repo].fullName)/pulls/\(issue.number)" }
    func htmlURL(_ issue: Issue) -> String {
        "\(web)/\(repos[issue.repo].fullName)/\(issue.isPull ? "pull" : "issues")/\(issue.number)"
    }

    func label(_ name: String, repo: Int) -> JSONValue {
        let known = ["bug", "enhancement", "documentation"].firstIndex(of: name)
        let other = 10 + (Int(ETag.hash(Array(name.utf8)).prefix(3), radix: 16) ?? 0)
        let id = 4_000_000 + repo * 10_000 + (known.map { $0 + 1 } ?? other)
        return [
            "id": .int(id), "node_id": .string(NodeID.make("05:Label", id)),
            "url": .string("\(api)/repos/\(repos[repo].fullName)/labels/\(name)"), "name": .string(name),
            "color": .string(name == "bug" ? "d73a4a" : "a2eeef"), "default": .bool(name == "bug"),
            "description": .text(name == "bug" ? "Something isn't working" : nil),
        ]
    }

    func milestone(_ number: Int?, repo: Int) -> JSONValue {
        guard let number, let title = Milestones.titles[number] else { return .null }
        let id = Milestones.id(repo: repo, number: number)
        return [
            "url": .string("\(api)/repos/\(repos[repo].fullName)/milestones/\(number)"),
            "html_url": .string("\(web)/\(repos[repo].fullName)/milestone/\(number)"), "id": .int(id),
            "node_id": .string(NodeID.make("09:Milestone", id)), "number": .int(number), "title": .string(title),
            "description": "", "state": "open",
        ]
    }

    /// GitHub's issue object; a pull request's has `pull_request` and `draft`. `withRepository` for `GET /issues`.
    func issue(_ issue: Issue, withRepository: Bool = false) -> JSONValue {
        let url = issueURL(issue), repo = repos[issue.repo]
        var members: [(key: String, value: JSONValue)] = [
            ("url", .string(url)), ("repository_url", .string("\(api)/repos/\(repo.fullName)")),
            ("labels_url", .string(url + "/labels{/name}")), ("comments_url", .string(url + "/comments")),
            ("events_url", .string(url + "/events")), ("html_url", .string(htmlURL(issue))), ("id", .int(issue.id)),
            ("node_id", .string(NodeID.make(issue.isPull ? "011:PullRequest" : "05:Issue", issue.id))),
            ("number", .int(issue.number)), ("title", .string(issue.title)), ("user", account(issue.author)),
            ("labels", .array(issue.labels.map { label($0, repo: issue.repo) })),
            ("state", .string(issue.isOpen ? "open" : "closed")), ("locked", false),
        ]
        if version == APIVersion.old { members.append(("assignee", issue.assignees.first.map(account) ?? .null)) }
        members += [
            ("assignees", .array(issue.assignees.map(account))),
            ("milestone", milestone(issue.milestone, repo: issue.repo)),
            ("comments", .int(issue.comments)), ("created_at", time(issue.created)),
            ("updated_at", time(issue.updated)), ("closed_at", time(issue.closed)),
            ("author_association", .string(issue.author == Directory.dependabot ? "CONTRIBUTOR" : "MEMBER")),
            ("active_lock_reason", .null),
        ]
        if issue.isPull {
            members.append(("draft", .bool(issue.draft)))
            let pull = pullURL(issue), html = htmlURL(issue)
            members.append(("pull_request", [
                "url": .string(pull), "html_url": .string(html), "diff_url": .string(html + ".diff"),
                "patch_url": .string(html + ".patch"), "merged_at": time(issue.merged),
            ]))
        }
        members += [
            ("body", .string(issue.body)), ("closed_by", issue.closed == nil ? .null : closer(issue)),
            ("timeline_url", .string(url + "/timeline")), ("performed_via_github_app", .null),
            ("state_reason", .text(issue.stateReason)),
        ]
        if withRepository { members.append(("repository", repository(issue.repo))) }
        return .object(members)
    }

    private func closer(_ issue: Issue) -> JSONValue {
        let event = issue.timeline.last { if case .closed = $0.kind { return true } else { return false } }
        return event.map { account($0.actor) } ?? .null
    }
}
