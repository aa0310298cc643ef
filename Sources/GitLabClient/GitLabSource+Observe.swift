import SourceKit
import TrackwatchCore

/// What one poll of GitLab read, ready for `ActivityDiff`.
struct GitLabRead {
    var observation: ActivityObservation
    var seenUpTo: (String) -> Timestamp?
    /// A configured project GitLab refused (named; the rest was read).
    var unavailable: GitLabError?
}

extension GitLabSource {
    /// One list as read: its items, and how far back a newest-first first page reached (`nil`: the whole list).
    struct ListRead {
        var items: [GitLabItem] = []
        var coveredSince: Timestamp?
    }

    func observe(full: Bool, previous: Snapshot?, me: GitLabUser, windowStart: Timestamp) throws -> GitLabRead {
        let mapping = GitLabMapping(me: me, web: gitlab.url)
        var stored: [String: Record] = [:]
        for record in previous?.sortedRecords ?? [] { if let id = record[ActivityDiff.idField] { stored[id] = record } }
        let since = full ? nil : windowStart
        let assignedIssues = try list(.issues, ["scope": "assigned_to_me"], full: full)
        let assignedMRs = try list(.mergeRequests, ["scope": "assigned_to_me"], full: full)
        // An old GitLab ignores reviewer_id and answers unfiltered: only merge requests that name me as a reviewer
        // are review requests.
        let reviews = try list(.mergeRequests, ["scope": "all", "reviewer_id": String(me.id ?? 0)], full: full)
        let reviewIDs = Set(reviews.items.filter { ($0.reviewers ?? []).contains { $0.id == me.id } }.map { "m\($0.id)" })
        let createdIssues = try recent(.issues, since: since)
        let createdMRs = try recent(.mergeRequests, since: since)
        // A moved issue is a new issue with a new id: it keeps the identity it had before the move.
        var aliases: [String: String] = [:]
        for (id, record) in stored { if let current = record[Self.currentIDField], current != id { aliases[current] = id } }
        var candidates: [String: (item: GitLabItem, mr: Bool, isMine: Bool)] = [:]
        func add(_ item: GitLabItem, mr: Bool) {
            let id = GitLabMapping.id(item, mergeRequest: mr)
            candidates[aliases[id] ?? id] = (item, mr, true)
        }
        for item in assignedIssues.items + createdIssues where watched(item) { add(item, mr: false) }
        for item in assignedMRs.items + createdMRs where watched(item) { add(item, mr: true) }
        for item in reviews.items where watched(item) && reviewIDs.contains("m\(item.id)") { add(item, mr: true) }
        let gone = try lookUp(
            stored: stored, into: &candidates, aliases: aliases, full: full, me: me, reviewIDs: reviewIDs,
            covered: ["i": assignedIssues.coveredSince, "m": assignedMRs.coveredSince], reviewsCovered: reviews.coveredSince)
        var items: [ActivityItem] = [], changed: [(ActivityItem, GitLabItem, Bool)] = []
        for (id, candidate) in candidates.sorted(by: { $0.key < $1.key }) {
            guard var item = mapping.item(
                candidate.item, mergeRequest: candidate.mr, reviewRequested: reviewIDs.contains(id), isMine: candidate.isMine,
                id: id)
            else { continue }
            item.record.fields[Self.projectField] = String(candidate.item.project_id ?? 0)
            item.record.fields[Self.currentIDField] = GitLabMapping.id(candidate.item, mergeRequest: candidate.mr)
            // Read the log also where only what the list shows changed: a quick second change may leave `updated_at`
            // alone (python-gitlab #743), and its events are then named now and seen, not told twice.
            if previous != nil, stored[id].map({ Self.hasMoved($0, item.record) }) ?? true {
                changed.append((item, candidate.item, candidate.mr))
            }
            items.append(item)
        }
        var events: [ActivityEvent] = []
        for (item, source, mr) in changed { events += try log(of: source, id: item.id, mergeRequest: mr, mapping: mapping) }
        return GitLabRead(
            observation: ActivityObservation(items: items, events: events, gone: gone, logged: Set(changed.map(\.0.id))),
            seenUpTo: { id in stored[id]?[GitLabFields.updated].map(Timestamp.init) ?? windowStart },
            unavailable: full ? try unavailableProject() : nil)
    }

    /// A newest-first list: its first page (all of it on a full read), open items only.
    private func list(_ endpoint: GitLabEndpoint, _ filters: [String: String], full: Bool) throws -> ListRead {
        let query = filters.sorted { $0.key < $1.key } + [
            ("state", "opened"), ("order_by", "updated_at"), ("sort", "desc"), ("per_page", "100"),
        ]
        var firstPageOnly = !full
        let items = try api.pages(GitLabItem.self, endpoint, query, id: \.id) { _ in
            defer { firstPageOnly = false }
            return firstPageOnly
        }
        var read = ListRead(items: items)
        if !full, items.count >= 100 { read.coveredSince = GitLabTime.parse(items.last?.updated_at) }
        return read
    }

    /// What I authored, updated since `since` (every open one on a full read).
    private func recent(_ endpoint: GitLabEndpoint, since: Timestamp?) throws -> [GitLabItem] {
        var query = [("scope", "created_by_me"), ("order_by", "updated_at"), ("sort", "desc"), ("per_page", "100")]
        if let since { query += [("state", "all"), ("updated_after", Self.iso(since))] } else { query.append(("state", "opened")) }
        return try api.pages(GitLabItem.self, endpoint, query, id: \.id)
    }

    /// Stored items to ask for one by one: on a full read all it did not return; otherwise those assigned to me or
    /// awaiting my review that the first page should have shown and did not. Those GitLab still shows join the
    /// candidates (no longer mine unless they are); an issue moved elsewhere follows to its new place; those gone
    /// (404) are returned.
    private func lookUp(
        stored: [String: Record], into candidates: inout [String: (item: GitLabItem, mr: Bool, isMine: Bool)],
        aliases: [String: String], full: Bool, me: GitLabUser, reviewIDs: Set<String>, covered: [String: Timestamp?], reviewsCovered: Timestamp?
    ) throws -> Set<String> {
        func shouldHaveShown(_ record: Record, since: Timestamp??) -> Bool {
            guard let since else { return false }
            guard let since else { return true }
            return record[GitLabFields.updated].map { Timestamp($0) >= since } ?? true
        }
        let ids = stored.keys.sorted().filter { id in
            guard candidates[id] == nil, let record = stored[id] else { return false }
            if full { return true }
            if record[GitLabFields.reviewRequested] == "yes", !reviewIDs.contains(id),
                shouldHaveShown(record, since: .some(reviewsCovered)) { return true }
            return record[ActivityDiff.assignedField] == "yes" && shouldHaveShown(record, since: covered[String(id.prefix(1))])
        }.prefix(Self.mostLookups)
        var gone = Set<String>()
        for id in ids {
            guard let record = stored[id], let reference = GitLabReference(record.id.rawValue),
                let project = record[Self.projectField].flatMap({ Int64($0) })
            else { continue }
            do {
                let item = try api.get(
                    GitLabItem.self, .item(project: project, iid: reference.iid, mergeRequest: reference.isMergeRequest))
                if let movedTo = item.moved_to_id, let new = candidates.removeValue(forKey: aliases["i\(movedTo)"] ?? "i\(movedTo)") {
                    candidates[id] = new  // moved: the new issue keeps the old one's identity
                    continue
                }
                let mine = (item.assignees ?? []).contains { $0.id == me.id } || item.author?.id == me.id || reviewIDs.contains(id)
                candidates[id] = (item, reference.isMergeRequest, mine && item.state == "opened" && item.moved_to_id == nil)
            } catch GitLabError.server(let status, _, _) where status == 404 || status == 403 {
                gone.insert(id)
                logger.notice("a GitLab issue or merge request is no longer visible; no longer watched",
                              metadata: ["item": "\(record.id)", "status": "\(status)"])
            }
        }
        return gone
    }

    /// Notes and resource events of one item (resource events where the server has them).
    private func log(of item: GitLabItem, id: String, mergeRequest: Bool, mapping: GitLabMapping) throws -> [ActivityEvent] {
        guard let project = item.project_id else { return [] }
        let notes = try api.pages(
            GitLabNote.self, .notes(project: project, iid: item.iid, mergeRequest: mergeRequest),
            [("sort", "asc"), ("order_by", "created_at"), ("per_page", "100")], id: \.id)
        var events = notes.compactMap { mapping.event($0, item: id, stateInNotes: !hasResourceEvents) }
        guard hasResourceEvents else { return events }
        for kind in ["label", "state", "milestone"] {
            do {
                let found = try api.pages(
                    GitLabResourceEvent.self,
                    .resourceEvents(project: project, iid: item.iid, mergeRequest: mergeRequest, kind: kind),
                    [("per_page", "100")], id: \.id)
                events += found.compactMap { mapping.event($0, kind: kind, item: id) }
            } catch GitLabError.server(404, _, _) {
                logger.notice("this GitLab has no resource events: state, label and milestone changes are read from notes")
                hasResourceEvents = false
                return notes.compactMap { mapping.event($0, item: id, stateInNotes: true) }
            }
        }
        return events
    }

    static func hasMoved(_ before: Record, _ after: Record) -> Bool {
        before.id != after.id
            || ([GitLabFields.updated, GitLabFields.reviewRequested] + GitLabFields.compared).contains { before[$0] != after[$0] }
    }

    /// The first configured project GitLab refuses (404: not there or not visible; 403: not readable), asked on full
    /// reads: named, while the others are watched.
    private func unavailableProject() throws -> GitLabError? {
        for path in gitlab.projects ?? [] {
            do {
                _ = try api.get(GitLabErrorBody.self, .project(path: path))
                _ = try api.get([GitLabItem].self, .projectIssues(path: path), [("per_page", "1")])
            } catch GitLabError.server(let status, _, _) where status == 404 || status == 403 {
                logger.warning("a configured GitLab project is not available", metadata: ["project": "\(path)", "status": "\(status)"])
                return .projectUnavailable(path: path, status: status)
            }
        }
        return nil
    }

    func watched(_ item: GitLabItem) -> Bool {
        guard let projects = gitlab.projects else { return true }
        guard let full = item.references?.full, let reference = GitLabReference(full) else { return false }
        return projects.contains(reference.project.lowercased())
    }

    /// `2026-01-17T12:34:56Z`: what `updated_after` takes.
    static func iso(_ timestamp: Timestamp) -> String {
        timestamp.rawValue.replacing(" ", with: "T").prefix(19) + "Z"
    }
}
