/// The seeded issues and pull requests (docs/github-sim.md, "Seeded issues and pull requests"): number n of the
/// repository with index r has id (r+1)·100000000 + n; everything else follows from n, so tests can compute what to
/// expect.
enum Seed {
    static let assignees: [[Int]] = [
        [Directory.engineer], [Directory.alice], [], [Directory.lead, Directory.engineer],
    ]

    static func populate(_ state: inout GitHubState) {
        let t0 = state.now - 30 * 86_400
        state.issues.reserveCapacity(state.repos.count * state.options.issues)
        for repo in state.repos.indices {
            for n in stride(from: 1, through: state.options.issues, by: 1) {
                state.insert(issue(n, repo: repo, t0: t0, state: &state))
            }
        }
    }

    static func isPull(_ n: Int) -> Bool { n % 3 == 0 }

    static func author(_ n: Int) -> Int {
        if n % 10 == 0 { return Directory.dependabot }
        if isPull(n) { return [Directory.engineer, Directory.alice, Directory.lead][(n / 3) % 3] }
        return n % 3 == 1 ? Directory.alice : Directory.engineer
    }

    /// Pull requests only: engineer directly, the team acme/reviewers, or alice directly.
    static func requested(_ n: Int) -> Reviewer? {
        guard isPull(n) else { return nil }
        return [Reviewer.user(Directory.alice), .user(Directory.engineer), .team(0)][(n / 3) % 3]
    }

    static func title(_ n: Int, repo: String) -> String {
        if n % 10 == 0 { return "Bump lodash from 4.17.\(n) to 4.17.\(n + 1)" }
        return "\(isPull(n) ? "Pull request" : "Issue") \(n) of \(repo)"
    }

    private static func issue(_ n: Int, repo: Int, t0: Int, state: inout GitHubState) -> Issue {
        let author = author(n), created = t0 + n * 60
        let fullName = state.repos[repo].fullName
        var issue = Issue(
            id: (repo + 1) * 100_000_000 + n, repo: repo, number: n, isPull: isPull(n),
            title: title(n, repo: fullName),
            body: "What \(n) of \(fullName) is about." + (n % 8 == 5 ? " cc @engineer" : ""),
            author: author, assignees: assignees[(n - 1) % 4], labels: n % 2 == 0 ? ["bug"] : [],
            milestone: n % 4 == 0 ? 1 : nil, created: created, updated: created,
            headSHA: GitHubState.sha("\(fullName)#\(n)/1"))
        if n % 8 == 5 { issue.mentions.insert(Directory.engineer) }
        func add(_ kind: EventKind, by actor: Int, at offset: Int) {
            let id: Int
            switch kind {
            case .commented: (id, state.nextCommentID) = (state.nextCommentID, state.nextCommentID + 1)
            default: (id, state.nextEventID) = (state.nextEventID, state.nextEventID + 1)
            }
            issue.timeline.append(Event(id: id, kind: kind, actor: actor, created: created + offset))
            issue.updated = created + offset
        }
        if issue.isPull { add(.committed(sha: issue.headSHA, message: "Start \(issue.title)"), by: author, at: 0) }
        for assignee in issue.assignees { add(.assigned(assignee), by: author, at: 60) }
        if let reviewer = requested(n) {
            issue.requested = [reviewer]
            add(.reviewRequested(reviewer), by: author, at: 120)
        }
        for label in issue.labels { add(.labeled(label), by: author, at: 180) }
        if issue.milestone != nil { add(.milestoned("v1.0"), by: Directory.lead, at: 240) }
        if n % 5 == 0 {
            add(.commented(body: "Looks good to me."), by: Directory.alice, at: 900)
            issue.comments = 1
            issue.commenters.insert(Directory.alice)
        }
        guard n % 7 == 0 else { return issue }
        // Closed (completed) by lead half an hour after creation; a pull request merged first.
        if issue.isPull {
            let sha = GitHubState.sha("merge of \(issue.id)")
            add(.merged(commit: sha), by: Directory.lead, at: 1800)
            add(.closed(reason: nil, commit: sha), by: Directory.lead, at: 1800)
            issue.merged = created + 1800
            issue.mergeSHA = sha
        } else {
            add(.closed(reason: "completed", commit: nil), by: Directory.lead, at: 1800)
            issue.stateReason = "completed"
        }
        issue.isOpen = false
        issue.closed = created + 1800
        return issue
    }
}
