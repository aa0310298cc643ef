import SimulatorKit

/// Timeline items and the pull request, review and comment objects the write routes answer with.
extension View {
    /// One item of `GET …/issues/{n}/timeline`, shaped as GitHub's timeline (docs: "Timeline events").
    func timelineItem(_ event: Event, of issue: Issue) -> JSONValue {
        switch event.kind {
        case .commented(let body): return comment(event, body: body, of: issue).with("event", "commented")
                .with("actor", account(event.actor))
        case .reviewed(let state, let body, let commit):
            return review(event, state: state, body: body, commit: commit, of: issue).with("event", "reviewed")
        case .committed(let sha, let message): return commit(event, sha: sha, message: message, of: issue)
        default: return issueEvent(event, of: issue)
        }
    }

    /// An issue event: the common members, then those of its kind.
    private func issueEvent(_ event: Event, of issue: Issue) -> JSONValue {
        let repo = repos[issue.repo].fullName
        var commit: String?
        var extra: [(key: String, value: JSONValue)] = []
        switch event.kind {
        case .assigned(let user), .unassigned(let user):
            extra = [("assignee", account(user)), ("assigner", account(event.actor))]
        case .reviewRequested(let reviewer), .reviewRequestRemoved(let reviewer):
            extra = [("review_requester", account(event.actor))]
            switch reviewer {
            case .user(let user): extra.append(("requested_reviewer", account(user)))
            case .team(let team): extra.append(("requested_team", self.team(team)))
            }
        case .renamed(let from, let to): extra = [("rename", ["from": .string(from), "to": .string(to)])]
        case .labeled(let name), .unlabeled(let name):
            extra = [("label", ["name": .string(name), "color": .string(name == "bug" ? "d73a4a" : "a2eeef")])]
        case .milestoned(let title), .demilestoned(let title): extra = [("milestone", ["title": .string(title)])]
        case .closed(let reason, let sha):
            commit = sha
            extra = [("state_reason", .text(reason))]
        case .merged(let sha): commit = sha
        case .transferred(let from): extra = [("previous_repository", ["full_name": .string(from)])]
        default: break
        }
        var members: [(key: String, value: JSONValue)] = [
            ("id", .int(event.id)), ("node_id", .string(NodeID.make("026:IssueEvent", event.id))),
            ("url", .string("\(api)/repos/\(repo)/issues/events/\(event.id)")), ("actor", account(event.actor)),
            ("event", .string(event.kind.name)), ("commit_id", .text(commit)),
            ("commit_url", .text(commit.map { "\(api)/repos/\(repo)/commits/\($0)" })),
            ("created_at", time(event.created)),
        ]
        members += extra
        members.append(("performed_via_github_app", .null))
        return .object(members)
    }

    /// An issue comment (`POST …/comments` answers one; the timeline adds `event` and `actor`).
    func comment(_ event: Event, body: String, of issue: Issue) -> JSONValue {
        let repo = repos[issue.repo].fullName
        return [
            "url": .string("\(api)/repos/\(repo)/issues/comments/\(event.id)"),
            "html_url": .string("\(htmlURL(issue))#issuecomment-\(event.id)"), "issue_url": .string(issueURL(issue)),
            "id": .int(event.id), "node_id": .string(NodeID.make("012:IssueComment", event.id)),
            "user": account(event.actor), "created_at": time(event.created), "updated_at": time(event.created),
            "author_association": "MEMBER", "body": .string(body), "performed_via_github_app": .null,
        ]
    }

    /// A review; `state` in the timeline's lower case, upper case as the reviews API answers.
    func review(_ event: Event, state: String, body: String, commit: String, of issue: Issue, upper: Bool = false)
        -> JSONValue
    {
        [
            "id": .int(event.id), "node_id": .string(NodeID.make("017:PullRequestReview", event.id)),
            "user": account(event.actor), "body": .string(body), "commit_id": .string(commit),
            "submitted_at": time(event.created), "state": .string(upper ? state.uppercased() : state),
            "html_url": .string("\(htmlURL(issue))#pullrequestreview-\(event.id)"),
            "pull_request_url": .string(pullURL(issue)), "author_association": "MEMBER",
        ]
    }

    /// A `committed` item: git's author and committer, no actor and no `created_at`.
    private func commit(_ event: Event, sha: String, message: String, of issue: Issue) -> JSONValue {
        let repo = repos[issue.repo].fullName, person = Directory.accounts[event.actor]
        let signature: JSONValue = [
            "name": .string(person.name), "email": .string(person.email), "date": time(event.created),
        ]
        return [
            "sha": .string(sha), "node_id": .string(NodeID.make("06:Commit", event.id)),
            "url": .string("\(api)/repos/\(repo)/git/commits/\(sha)"),
            "html_url": .string("\(web)/\(repo)/commit/\(sha)"), "author": signature, "committer": signature,
            "tree": ["sha": .string(GitHubState.sha("tree \(sha)"))], "message": .string(message), "parents": [],
            "verification": ["verified": false, "reason": "unsigned", "signature": .null, "payload": .null],
            "event": "committed",
        ]
    }

    /// GitHub's pull request object (the subset a client reads).
    func pull(_ issue: Issue) -> JSONValue {
        var value = self.issue(issue)
        let repo = repository(issue.repo)
        let users = issue.requested.compactMap { if case .user(let u) = $0 { account(u) } else { nil } }
        let teams = issue.requested.compactMap { if case .team(let t) = $0 { team(t) } else { nil } }
        value["url"] = .string(pullURL(issue))
        value["issue_url"] = .string(issueURL(issue))
        value["pull_request"] = nil
        value["labels_url"] = nil
        value["events_url"] = nil
        value["repository_url"] = nil
        value["timeline_url"] = nil
        value["merged_at"] = time(issue.merged)
        value["merge_commit_sha"] = version == APIVersion.old ? .text(issue.mergeSHA) : nil
        value["requested_reviewers"] = .array(users)
        value["requested_teams"] = .array(teams)
        value["head"] = ["label": .string("acme:topic-\(issue.number)"), "ref": .string("topic-\(issue.number)"),
            "sha": .string(issue.headSHA), "repo": repo]
        value["base"] = ["label": "acme:main", "ref": "main", "sha": .string(GitHubState.sha("main")), "repo": repo]
        value["merged"] = .bool(issue.merged != nil)
        value["mergeable"] = .bool(issue.isOpen)
        value["commits"] = .int(issue.timeline.count { if case .committed = $0.kind { true } else { false } })
        return value
    }
}
