import SourceKit
import TrackwatchCore

/// What one poll of GitHub read, ready for `ActivityDiff`.
struct GitHubRead {
    var observation: ActivityObservation
    var seenUpTo: (String) -> Timestamp?
    /// The lists' ETags to keep once the poll is committed.
    var etags: [String: String]
}

extension GitHubSource {
    static let assignedETagKey = "github_etag_assigned", createdETagKey = "github_etag_created"

    /// Reads my lists and review requests, asks for stored items that should have been there and are not, and reads
    /// the timelines of the items that moved.
    func observe(full: Bool, previous: Snapshot?, me: GitHubUser, windowStart: Timestamp) throws -> GitHubRead {
        let mapping = GitHubMapping(me: me, web: github.webBase)
        var stored: [String: Record] = [:]
        for record in previous?.sortedRecords ?? [] { if let id = record[ActivityDiff.idField] { stored[id] = record } }
        let lists = try readLists(full: full, since: windowStart)
        let search = try reader.search(Self.reviewQuery(repos: github.repos))
        let reviews = Set(search.items.filter(watched).map { String($0.id) })
        func reviewRequested(_ id: String) -> Bool {
            reviews.contains(id) || (!search.complete && stored[id]?[GitHubFields.reviewRequested] == "yes")
        }
        var candidates: [String: (issue: GitHubIssue, isMine: Bool)] = [:]
        for issue in lists.assigned.issues + lists.created.issues + search.items where watched(issue) {
            candidates[String(issue.id)] = (issue, true)
        }
        var gone = Set<String>()
        for id in lookups(stored: stored, candidates: candidates, lists: lists, search: search, full: full) {
            guard let key = stored[id]?.id, let reference = GitHubReference(key.rawValue) else { continue }
            switch try reader.issue(reference) {
            case .found(let issue), .moved(let issue):
                let mine = (issue.assignees ?? []).contains { $0.id == me.id } || issue.user?.id == me.id
                    || reviewRequested(id)
                candidates[id] = (issue, mine && (!full || issue.state == "open"))
            case .gone(let status):
                gone.insert(id)
                logger.notice(
                    "a GitHub issue or pull request is no longer visible; no longer watched",
                    metadata: ["item": "\(key)", "status": "\(status)"])
            }
        }
        var items: [ActivityItem] = [], changed: [(ActivityItem, GitHubIssue)] = []
        for (id, candidate) in candidates.sorted(by: { $0.key < $1.key }) {
            guard var item = mapping.item(candidate.issue, reviewRequested: reviewRequested(id), isMine: candidate.isMine, id: id)
            else { continue }
            let before = stored[id]
            if let head = before?[GitHubFields.head] { item.record.fields[GitHubFields.head] = head }
            if previous != nil, before.map({ Self.hasMoved($0, item.record) }) ?? true { changed.append((item, candidate.issue)) }
            items.append(item)
        }
        let (events, heads) = try timelines(of: changed, mapping: mapping, stored: stored)
        for index in items.indices { if let head = heads[items[index].id] { items[index].record.fields[GitHubFields.head] = head } }
        return GitHubRead(
            observation: ActivityObservation(items: items, events: events, gone: gone, logged: Set(changed.map(\.0.id))),
            seenUpTo: { id in stored[id]?[GitHubFields.updated].map(Timestamp.init) ?? windowStart },
            etags: full ? [:] : lists.etags)
    }

    private struct Lists {
        var assigned: GitHubReader.ListRead
        var created: GitHubReader.ListRead
        var etags: [String: String]
    }

    /// `/issues` assigned and created: every open item on a full read; otherwise, conditionally, what moved since.
    private func readLists(full: Bool, since: Timestamp) throws -> Lists {
        let state = full ? "open" : "all"
        let assigned = try reader.list(
            filter: "assigned", state: state, since: full ? nil : since,
            etag: full ? nil : try self.state.value(forKey: Self.assignedETagKey))
        let created = try reader.list(
            filter: "created", state: state, since: full ? nil : since,
            etag: full ? nil : try self.state.value(forKey: Self.createdETagKey))
        var etags: [String: String] = [:]
        etags[Self.assignedETagKey] = assigned.etag
        etags[Self.createdETagKey] = created.etag
        return Lists(assigned: assigned, created: created, etags: etags)
    }

    /// Stored items to ask about one by one: on a full read, all that it did not return; otherwise those assigned to
    /// me that should have been in what the assigned list showed and are not (unassigned, transferred, deleted), and
    /// review requests a complete search no longer finds. At most `mostLookups` a poll.
    private func lookups(
        stored: [String: Record], candidates: [String: (issue: GitHubIssue, isMine: Bool)], lists: Lists,
        search: (items: [GitHubIssue], complete: Bool), full: Bool
    ) -> [String] {
        let reviews = Set(search.items.map { String($0.id) })
        let covered = lists.assigned.notModified ? nil : lists.assigned.coveredSince
        let ids = stored.keys.sorted().filter { id in
            guard candidates[id] == nil, let record = stored[id] else { return false }
            if full { return true }
            if search.complete, record[GitHubFields.reviewRequested] == "yes", !reviews.contains(id) { return true }
            guard record[ActivityDiff.assignedField] == "yes", !lists.assigned.notModified else { return false }
            guard let covered else { return true }
            return record[GitHubFields.updated].map { Timestamp($0) >= covered } ?? true
        }
        if ids.count > Self.mostLookups {
            logger.notice("more GitHub items to look up than one poll asks for; the rest next poll",
                          metadata: ["items": "\(ids.count)"])
        }
        return Array(ids.prefix(Self.mostLookups))
    }

    /// Events of the items that moved: their timelines; a pull request's commits after the last one seen (the first
    /// time, those dated after what was stored: REST does not say when a commit was pushed). Also the new last commit
    /// of each.
    private func timelines(
        of changed: [(ActivityItem, GitHubIssue)], mapping: GitHubMapping, stored: [String: Record]
    ) throws -> (events: [ActivityEvent], heads: [String: String]) {
        var events: [ActivityEvent] = [], heads: [String: String] = [:]
        for (item, issue) in changed {
            // Commits after the last one seen count from when the item moved (GitHub's `updated_at`): later than
            // what was stored, and the same in every poll that reads them.
            let now = item.record[GitHubFields.updated].map(Timestamp.init) ?? Timestamp(secondsSinceEpoch: Int(wallClock()))
            guard let reference = GitHubReference(item.record.id.rawValue) else { continue }
            let timeline = try reader.timeline(reference)
            events += timeline.compactMap { mapping.event($0, issue: item.id) }
            let commits = timeline.filter { $0.event == "committed" }
            guard let last = commits.last?.sha else { continue }
            heads[item.id] = last
            let oldHead = stored[item.id]?[GitHubFields.head]
            if let oldHead, let seen = commits.firstIndex(where: { $0.sha == oldHead }) {
                events += commits[(seen + 1)...].compactMap { mapping.commit($0, issue: item.id, at: now) }
            } else if issue.isPullRequest {
                events += commits.compactMap { commit in
                    GitHubTime.parse(commit.committer?.date ?? commit.author?.date).flatMap {
                        mapping.commit(commit, issue: item.id, at: $0)
                    }
                }
            }
        }
        return (events, heads)
    }

    /// An item moved when GitHub's `updated_at`, its key (a transfer, a renamed repository) or my review request
    /// changed.
    static func hasMoved(_ before: Record, _ after: Record) -> Bool {
        before[GitHubFields.updated] != after[GitHubFields.updated] || before.id != after.id
            || before[GitHubFields.reviewRequested] != after[GitHubFields.reviewRequested]
    }

    /// Open pull requests whose review is requested from me, directly or through a team; in `repos` if configured.
    static func reviewQuery(repos: [String]?) -> String {
        "is:open is:pr review-requested:@me" + (repos ?? []).map { " repo:\($0)" }.joined()
    }

    func watched(_ issue: GitHubIssue) -> Bool {
        guard let repos = github.repos else { return true }
        return issue.repo.map { repos.contains($0.lowercased()) } ?? false
    }
}
