import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// GitHub on the shared `ActivityPoller`: issues and pull requests assigned to me or opened by me, pull requests whose
/// review is requested from me, and for those that changed, their timelines.
///
/// A steady poll is two conditional requests (`/issues` assigned and created, newest update first, `If-None-Match`:
/// a 304 costs no quota) and one search for review requests (its own per-minute quota). A list that moved is read
/// until its updates are older than the last poll (with `[poll] overlap`); stored items that should have been in
/// what was read and are not are asked for one by one (unassigned, closed, transferred, deleted).
final class GitHubTracker: ActivityTracker {
    static let assignedETagKey = "github_etag_assigned", createdETagKey = "github_etag_created"

    let github: GitHubSettings
    let api: GitHubAPI
    let reader: GitHubReader
    let logger: Logger

    init(settings: GitHubSettings, api: GitHubAPI, logger: Logger) {
        github = settings
        self.api = api
        reader = GitHubReader(api: api)
        self.logger = logger
    }

    var trackerName: String { "GitHub" }
    func closeIdleConnections() { api.transport.closeIdleConnections() }

    func takeServerInterval() -> Double? {
        defer { api.pollInterval = nil }
        return api.pollInterval
    }

    func identify(_ memory: inout TrackerMemory) throws -> ActivityIdentity {
        let found = try api.decode(GitHubUser.self, try api.get(.user), .user)
        guard let id = found.id else { throw GitHubError.invalidResponse(endpoint: "user", detail: "no id") }
        return ActivityIdentity(id: String(id), login: found.login ?? "", name: found.name ?? "", email: found.email ?? "")
    }

    func rules(me: ActivityIdentity) -> ActivityRules {
        ActivityRules(
            me: me.id, ignoreApps: github.ignoreBots, comparedFields: GitHubFields.compared,
            assignmentFields: GitHubFields.assignment)
    }

    func baselineNote(assigned: Int) -> String {
        "Baseline: watching \(assigned) GitHub issues and pull requests assigned to you or awaiting your review, and "
            + "those you opened; changes by others are reported from the next check on."
    }

    func unavailable(_ parts: [String]) -> any SourceFailure {
        GitHubError.refused(.repositoriesUnavailable(names: parts))
    }

    static func user(_ me: ActivityIdentity) -> GitHubUser {
        GitHubUser(
            id: Int64(me.id), login: me.login, type: "User", name: me.name.isEmpty ? nil : me.name,
            email: me.email.isEmpty ? nil : me.email)
    }

    func readLists(_ poll: ActivityPoll, memory: inout TrackerMemory) throws -> ActivityLists<GitHubIssue> {
        let full = poll.window.full
        let state = full ? "open" : "all"
        let assigned = try reader.list(
            filter: "assigned", state: state, since: full ? nil : poll.window.since,
            etag: full ? nil : try memory.value(Self.assignedETagKey))
        let created = try reader.list(
            filter: "created", state: state, since: full ? nil : poll.window.since,
            etag: full ? nil : try memory.value(Self.createdETagKey))
        if !full {
            memory.set(Self.assignedETagKey, assigned.etag)
            memory.set(Self.createdETagKey, created.etag)
        }
        var lists = ActivityLists<GitHubIssue>()
        let search = try reader.reviewRequests(repos: github.repos.map { $0.filter { !poll.unreadable.contains($0) } })
        lists.unreadable.formUnion(search.refused)
        lists.reviewRequests = Set(search.items.filter(watched).map { String($0.id) })
        lists.reviewRequestsComplete = search.complete
        for issue in assigned.issues + created.issues + search.items where watched(issue) { lists.mine[String(issue.id)] = issue }
        // Stored items that should have been in what was read and are not: assigned to me, in the part of the
        // assigned list read; review requests a complete search no longer finds.
        let covered = assigned.notModified ? nil : assigned.coveredSince
        // Items of a repository named unreadable are kept as they are until it can be read: not asked every poll.
        let refused = Set(poll.unreadable.union(lists.unreadable).map { $0.lowercased() })
        for (id, record) in poll.stored.byID where lists.mine[id] == nil {
            if let repo = GitHubReference(record.id.rawValue)?.repo, refused.contains(repo.lowercased()) { continue }
            if search.complete, record[ActivityFields.reviewRequested] == "yes", !lists.reviewRequests.contains(id) {
                lists.missing.insert(id)
            } else if record[ActivityDiff.assignedField] == "yes", !assigned.notModified,
                ActivityFields.shouldHaveShown(record, since: covered)
            {
                lists.missing.insert(id)
            }
        }
        return lists
    }

    func watched(_ issue: GitHubIssue) -> Bool {
        guard let repos = github.repos else { return true }
        return issue.repo.map { repos.contains($0.lowercased()) } ?? false
    }

    func lookUp(
        _ ids: [String], _ poll: ActivityPoll, lists: inout ActivityLists<GitHubIssue>
    ) throws -> [String: ItemLookup<GitHubIssue>] {
        var answers: [String: ItemLookup<GitHubIssue>] = [:]
        let me = Int64(poll.me.id)
        for id in ids {
            guard let key = poll.stored[id]?.id, let reference = GitHubReference(key.rawValue) else { continue }
            switch try reader.issue(reference) {
            case .found(let issue), .moved(let issue):
                let reviewRequested = lists.reviewRequests.contains(id)
                    || (!lists.reviewRequestsComplete && poll.stored[id]?[ActivityFields.reviewRequested] == "yes")
                let mine = (issue.assignees ?? []).contains { $0.id == me } || issue.user?.id == me || reviewRequested
                answers[id] = .found(issue, isMine: mine && (!poll.window.full || issue.state == "open"))
            case .gone(let status): answers[id] = .gone(status: status)
            case .unreadable: answers[id] = .unreadable(part: reference.repo)
            case .unusable: continue  // not answered: kept as stored, asked again
            }
        }
        return answers
    }

    func item(_ issue: GitHubIssue, id: String, isMine: Bool, reviewRequested: Bool, _ poll: ActivityPoll) -> ActivityItem? {
        GitHubMapping(me: Self.user(poll.me), web: github.webBase)
            .item(issue, reviewRequested: reviewRequested, isMine: isMine, id: id)
    }

    /// The timelines of the items that moved; a pull request's commits after the last one seen (the first time,
    /// those dated after what was stored: REST does not say when a commit was pushed), and its new last commit.
    func logs(of changed: [(item: ActivityItem, source: GitHubIssue)], _ poll: ActivityPoll) throws -> [String: ItemLog] {
        let mapping = GitHubMapping(me: Self.user(poll.me), web: github.webBase)
        var logs: [String: ItemLog] = [:]
        for (item, issue) in changed {
            guard let reference = GitHubReference(item.record.id.rawValue) else { continue }
            // Commits after the last one seen count from when the item moved (GitHub's `updated_at`): later than
            // what was stored, and the same in every poll that reads them.
            let now = item.record[GitHubFields.updated].map(Timestamp.init)
                ?? Timestamp(secondsSinceEpoch: Int(poll.window.started))
            let timeline = try reader.timeline(reference)
            var log = ItemLog(events: timeline.items.compactMap { mapping.event($0, issue: item.id) }, complete: timeline.complete)
            let commits = timeline.items.filter { $0.event == "committed" }
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
}
