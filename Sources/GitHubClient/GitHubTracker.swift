import SourceKit
import TrackwatchCore

/// GitHub as the application wires it: `[[github]]` tables become `GitHubTracker`s on the shared poller; `doctor`
/// and `probe` survey them.
public typealias GitHubFactory = ActivityTrackerFactory<GitHubSourceKind>

extension GitHubSourceKind: ActivityTrackerKind {
    public static var route: @Sendable (String) -> String { { ForgeRepo.route($0, number: "{number}") } }

    public static func secretFix(_ settings: GitHubSettings) -> String {
        secretFix("a personal access token", madeIn: "GitHub, Settings, Developer settings, Personal access tokens")
    }

    public static func session(_ settings: GitHubSettings, _ access: APIAccess) -> TrackerSession {
        TrackerSession(GitHubTracker(settings: settings, api: GitHubAPI(access)))
    }
}

/// GitHub on the shared `ActivityPoller`: issues and pull requests assigned to me or opened by me, pull requests whose
/// review is requested from me, and for those that changed, their timelines.
///
/// A steady poll is two conditional requests (`/issues` assigned and created, newest update first, `If-None-Match`:
/// a 304 costs no quota) and one search for review requests (its own per-minute quota). A list that moved is read
/// until its updates are older than the last poll (with `[poll] overlap`); stored items that should have been in
/// what was read and are not are asked for one by one (unassigned, closed, transferred, deleted).
final class GitHubTracker: SurveyedTracker {
    let github: GitHubSettings
    let api: GitHubAPI
    var reader: GitHubReader { GitHubReader(api: api) }

    init(settings: GitHubSettings, api: GitHubAPI) {
        github = settings
        self.api = api
    }

    func takeServerInterval() -> Double? { api.pollInterval.take() }

    func identify(_ memory: inout TrackerMemory) async throws -> ActivityIdentity {
        let found = try await api.decode(GitHubUser.self, try api.get(.user), .user)
        guard let id = found.id else { throw GitHubError.invalidResponse(endpoint: "user", detail: "no id") }
        return ActivityIdentity(id: String(id), login: found.login ?? "", name: found.name ?? "", email: found.email ?? "")
    }

    func rules(me: ActivityIdentity) -> ActivityRules { .forge(me: me, ignoreBots: github.ignoreBots) }

    let watching = "GitHub issues and pull requests assigned to you or awaiting your review, and those you opened"

    func unavailable(_ parts: [String]) -> (any SourceFailure)? {
        GitHubError.refused(.repositoriesUnavailable(names: parts))
    }

    func mapping(_ poll: ActivityPoll) -> GitHubMapping { GitHubMapping(me: poll.me, web: github.webBase) }

    func readLists(_ poll: ActivityPoll, memory: inout TrackerMemory) async throws -> ActivityLists<GitHubIssue> {
        let full = poll.window.full
        func list(_ filter: String) async throws -> GitHubReader.ListRead {
            try await reader.list(
                filter: filter, state: full ? "open" : "all", since: full ? nil : poll.window.since,
                etag: full ? nil : try memory.value("github_etag_\(filter)"))
        }
        let assigned = try await list("assigned"), created = try await list("created")
        if !full {
            memory.set("github_etag_assigned", assigned.etag)
            memory.set("github_etag_created", created.etag)
        }
        var lists = ActivityLists<GitHubIssue>()
        let search = try await reader.reviewRequests(repos: github.repos.map { $0.filter { !poll.unreadable.contains($0) } })
        lists.unreadable.formUnion(search.refused)
        lists.reviewRequests = Set(search.items.filter(watched).map { String($0.id) })
        lists.reviewRequestsComplete = search.complete
        for issue in assigned.issues + created.issues + search.items where watched(issue) { lists.mine[String(issue.id)] = issue }
        // Stored items that should have been in what was read and are not: assigned to me, in the part of the
        // assigned list read; review requests a complete search no longer finds. Items of a repository named
        // unreadable are kept as they are until it can be read: not asked every poll.
        let refused = Set(poll.unreadable.union(lists.unreadable).map { $0.lowercased() })
        for (id, record) in poll.stored.byID where lists.mine[id] == nil {
            if let repo = GitHubReference(record.id.rawValue)?.repo, refused.contains(repo.lowercased()) { continue }
            let reviewGone = search.complete && record[ActivityFields.reviewRequested] == "yes"
                && !lists.reviewRequests.contains(id)
            let unassigned = record[ActivityDiff.assignedField] == "yes" && !assigned.notModified
                && ActivityFields.shouldHaveShown(record, since: assigned.coveredSince)
            if reviewGone || unassigned { lists.missing.insert(id) }
        }
        return lists
    }

    func watched(_ issue: GitHubIssue) -> Bool { WatchedPaths.include(github.repos, issue.repo) }

    func lookUp(
        _ ids: [String], _ poll: ActivityPoll, lists: inout ActivityLists<GitHubIssue>
    ) async throws -> [String: ItemLookup<GitHubIssue>] {
        var answers: [String: ItemLookup<GitHubIssue>] = [:]
        let me = Int64(poll.me.id)
        for id in ids {
            guard let key = poll.stored[id]?.id, let reference = GitHubReference(key.rawValue) else { continue }
            do {
                // An answer that is the item but cannot be read (an unusable number) leaves it unanswered: kept.
                guard let issue = try await reader.issue(reference) else { continue }
                let reviewRequested = lists.reviewRequests.contains(id)
                    || (!lists.reviewRequestsComplete && poll.stored[id]?[ActivityFields.reviewRequested] == "yes")
                let mine = (issue.assignees ?? []).contains { $0.id == me } || issue.user?.id == me || reviewRequested
                answers[id] = .found(issue, isMine: mine && (!poll.window.full || issue.state == "open"))
            } catch GitHubError.server(let status, _, _) where status == 404 || status == 410 {
                answers[id] = .gone(status: status)  // deleted, or no longer readable with this token
            } catch GitHubError.refused(.missingScope) {
                // SSO enforced, or a fine-grained token narrowed: the repository is unreadable, the item not gone.
                answers[id] = .unreadable(part: reference.repo)
            }
        }
        return answers
    }

    func item(_ issue: GitHubIssue, id: String, isMine: Bool, reviewRequested: Bool, _ poll: ActivityPoll) -> ActivityItem? {
        mapping(poll).item(issue, reviewRequested: reviewRequested, isMine: isMine, id: id)
    }

    /// The timelines of the items that moved; a pull request's commits after the last one seen (the first time,
    /// those dated after what was stored: REST does not say when a commit was pushed), and its new last commit.
    func logs(of changed: [(item: ActivityItem, source: GitHubIssue)], _ poll: ActivityPoll) async throws -> [String: ItemLog] {
        let mapping = self.mapping(poll)
        var logs: [String: ItemLog] = [:]
        for (item, issue) in changed {
            guard let reference = GitHubReference(item.record.id.rawValue) else { continue }
            // Commits after the last one seen count from when the item moved (GitHub's `updated_at`): later than
            // what was stored, and the same in every poll that reads them.
            let now = item.record[ActivityFields.updated].map(Timestamp.init)
                ?? Timestamp(secondsSinceEpoch: Int(poll.window.started))
            let timeline = try await reader.timeline(reference), entries = timeline.entries.elements
            var log = ItemLog(
                events: entries.compactMap { mapping.event($0, issue: item.id) }, complete: timeline.complete,
                skipped: timeline.entries.skipped)
            let commits = entries.filter { $0.event == "committed" }
            if let last = commits.last?.sha {
                log.marks[GitHubFields.head] = last
                if let oldHead = poll.stored[item.id]?[GitHubFields.head], let seen = commits.firstIndex(where: { $0.sha == oldHead }) {
                    log.events += commits[(seen + 1)...].compactMap { mapping.commit($0, issue: item.id, at: now) }
                } else if issue.isPullRequest {
                    log.events += commits.compactMap { commit in
                        ServerTime.parse(commit.committer?.date ?? commit.author?.date).flatMap {
                            mapping.commit(commit, issue: item.id, at: $0)
                        }
                    }
                }
            }
            logs[item.id] = log
        }
        return logs
    }

    /// What `doctor` and `probe` ask GitHub, read-only: who the token is, what it may read, what a poll will read.
    func survey(_ findings: inout ProbeReport) async throws {
        let answer = try await api.get(.user)
        let me = try api.decode(GitHubUser.self, answer, .user)
        findings.add(.pass, "signed in as \(me.actor?.name ?? "?") (id \(me.id.map(String.init) ?? "?"))")
        let scopes = GitHubAPI.scopes(answer)
        if let scopes, !GitHubAPI.hasRepoScope(scopes) {
            findings.add(
                .warn, "a classic token without the repo scope (it has: \(scopes.isEmpty ? "none" : scopes))",
                then: "private repositories' issues stay unseen; add the repo scope to see them")
        } else {
            findings.add(.pass, scopes == nil
                ? "a fine-grained token (or a GitHub App's): trackwatch does not need notifications"
                : "a classic token with the repo scope")
        }
        let assigned = try await reader.list(filter: "assigned", state: "open", since: nil, etag: nil)
        findings.add(.pass, "\(assigned.issues.count) open issues and pull requests assigned to you")
        // GitHub refuses the whole search when one `repo:` cannot be read: named, as the poll does.
        let reviews = try await reader.reviewRequests(repos: github.repos)
        if !reviews.refused.isEmpty { throw GitHubError.refused(.repositoriesUnavailable(names: reviews.refused)) }
        findings.add(
            reviews.complete ? .pass : .warn, "\(reviews.items.count) pull requests await your review",
            then: reviews.complete ? nil : "GitHub said the search is incomplete: no review request is taken as removed")
        findings.add(.pass, "a steady poll with nothing changed costs 3 requests: two answered 304 (free of the "
            + "hourly quota), one search (its own per-minute quota)")
    }

    func fix(for error: any Error) -> String {
        switch error as? GitHubError {
        case .tokenRejected: "make a new personal access token and put it in the \(github.credential.summary) of \(github.tableName)"
        case .refused(.missingScope): "give the token the repo scope (classic) or read access to Issues and Pull requests (fine-grained)"
        case .rateLimited: "wait: GitHub limits this token for a while; trackwatch backs off by itself"
        case .server(422, _, _): "check repos in \(github.tableName): GitHub's message says what it refused"
        case .refused(.repositoriesUnavailable): "correct repos in \(github.tableName) (owner/name, as in the repository's URL), or give the token access to them"
        default: "check url in \(github.tableName): https://api.github.com, or your server's /api/v3"
        }
    }
}
