import SourceKit
import TrackwatchCore

/// GitLab as the application wires it: `[[gitlab]]` tables become `GitLabTracker`s on the shared poller; `doctor`
/// and `probe` survey them.
public typealias GitLabFactory = ActivityTrackerFactory<GitLabSourceKind>

extension GitLabSourceKind: ActivityTrackerKind {
    public static var route: @Sendable (String) -> String { GitLabTracker.route }

    public static func secretFix(_ settings: GitLabSettings) -> String {
        secretFix("a personal access token with the read_api scope", madeIn: "GitLab, Preferences, Access tokens")
    }

    public static func session(_ settings: GitLabSettings, _ access: APIAccess) -> TrackerSession {
        TrackerSession(GitLabTracker(settings: settings, api: GitLabAPI(access)))
    }
}

/// GitLab on the shared `ActivityPoller`: issues and merge requests assigned to me or authored by me, merge requests
/// where I am a reviewer, and for those that changed, their notes and resource events.
///
/// A steady poll reads five short lists: my assigned issues, assigned merge requests and review requests (newest
/// update first, page after page while they are newer than the last poll: what left them is asked for one by one),
/// and what I authored updated since the last poll (with `[poll] overlap`). GitLab's REST API has no "assigned or
/// authored" filter.
final class GitLabTracker: SurveyedTracker {
    /// The stored project id of an item, to ask for it by path (`/projects/:id/issues/:iid`).
    static let projectField = "_project"
    /// GitLab's id of the item now (a moved issue's differs from the stable id it keeps).
    static let currentIDField = "_gitlab"
    /// A closed item of mine stays watched (a comment on it, its reopening) this long after its last update.
    static let keepClosed = 7 * 86_400
    /// The most pages of one item's notes read: a busier item is followed by its newest notes.
    static let mostNotePages = 30

    let gitlab: GitLabSettings
    let api: GitLabAPI
    /// What GitLab answered for each configured project it refused at the last full read (404 or 403).
    private var refused: [String: Int] = [:]

    init(settings: GitLabSettings, api: GitLabAPI) {
        gitlab = settings
        self.api = api
    }

    func identify(_ memory: inout TrackerMemory) async throws -> ActivityIdentity {
        let found = try await api.get(GitLabUser.self, .user)
        guard let id = found.id else { throw GitLabError.invalidResponse(endpoint: "user", detail: "no id") }
        return ActivityIdentity(id: String(id), login: found.username ?? "", name: found.name ?? "")
    }

    func rules(me: ActivityIdentity) -> ActivityRules {
        .forge(
            me: me, ignoreBots: gitlab.ignoreBots, compared: GitLabFields.compared,
            shownValues: [ForgeFields.state: ["opened": "open"]])
    }

    let watching = "GitLab issues and merge requests assigned to you or awaiting your review, and those you authored"

    func unavailable(_ parts: [String]) -> (any SourceFailure)? {
        GitLabError.projectsUnavailable(parts, refused: refused)
    }

    func mapping(_ poll: ActivityPoll) -> GitLabMapping { GitLabMapping(me: poll.me, web: gitlab.url) }

    func readLists(_ poll: ActivityPoll, memory: inout TrackerMemory) async throws -> ActivityLists<GitLabItem> {
        let full = poll.window.full, since = poll.window.since
        var lists = ActivityLists<GitLabItem>()
        if full { lists.unreadable = try await unavailableProjects() }
        let myID = Int64(poll.me.id) ?? 0
        let assignedIssues = try await list(.issues, ["scope": "assigned_to_me"], full: full, since: since)
        let assignedMRs = try await list(.mergeRequests, ["scope": "assigned_to_me"], full: full, since: since)
        // An old GitLab ignores reviewer_id and answers unfiltered: only merge requests that name me as a reviewer
        // are review requests.
        let reviews = try await list(.mergeRequests, ["scope": "all", "reviewer_id": String(myID)], full: full, since: since)
        let createdIssues = try await recent(.issues, since: full ? nil : since)
        let createdMRs = try await recent(.mergeRequests, since: full ? nil : since)
        // A moved issue is a new issue with a new id: it keeps the identity it had before the move.
        var aliases: [String: String] = [:]
        for (id, record) in poll.stored.byID {
            if let current = record[Self.currentIDField], current != id { aliases[current] = id }
        }
        func add(_ item: GitLabItem, mr: Bool) {
            let id = GitLabMapping.id(item, mergeRequest: mr)
            lists.mine[aliases[id] ?? id] = item
        }
        for item in assignedIssues.items + createdIssues where watched(item) { add(item, mr: false) }
        for item in assignedMRs.items + createdMRs where watched(item) { add(item, mr: true) }
        for item in reviews.items where watched(item) && (item.reviewers ?? []).contains(where: { $0.id == myID }) {
            add(item, mr: true)
            lists.reviewRequests.insert(aliases["m\(item.id)"] ?? "m\(item.id)")
        }
        // Open stored items the lists should have shown and did not: asked for one by one.
        let covered = ["i": assignedIssues.coveredSince, "m": assignedMRs.coveredSince]
        for (id, record) in poll.stored.byID where lists.mine[id] == nil && record[ForgeFields.state] == "opened" {
            let reviewGone = record[ActivityFields.reviewRequested] == "yes" && !lists.reviewRequests.contains(id)
                && ActivityFields.shouldHaveShown(record, since: reviews.coveredSince)
            let unassigned = record[ActivityDiff.assignedField] == "yes"
                && ActivityFields.shouldHaveShown(record, since: covered[String(id.prefix(1))] ?? nil)
            if reviewGone || unassigned { lists.missing.insert(id) }
        }
        return lists
    }

    /// A newest-first list of open items: all of it on a full read; otherwise page after page while its items are
    /// newer than `since` (a bulk import of 300 assignments is read, not left for the next full read). `coveredSince`:
    /// how far back the read reached (`nil`: the whole list). A steady poll asks for one page of 20 first: decoding 100
    /// full items of three lists every poll was most of its CPU (perf, issue 33); if all 20 are news, pages of 100.
    private func list(
        _ endpoint: GitLabEndpoint, _ filters: [String: String], full: Bool, since: Timestamp, pageSize: Int? = nil
    ) async throws -> (items: [GitLabItem], coveredSince: Timestamp?) {
        let size = pageSize ?? (full ? 100 : 20)
        let query = filters.sorted { $0.key < $1.key } + [
            ("state", "opened"), ("order_by", "updated_at"), ("sort", "desc"), ("per_page", String(size)),
        ]
        var reachedOlder = false
        let read = try await api.pages(GitLabItem.self, endpoint, query, id: \.id, most: size < 100 ? 1 : nil) { page in
            guard !full, let oldest = page.last.flatMap({ ServerTime.parse($0.updated_at) }) else { return false }
            reachedOlder = oldest < since
            return reachedOlder
        }
        if !read.complete { return try await list(endpoint, filters, full: full, since: since, pageSize: 100) }
        // Stopped at a full page: older items of the list were not read (a short page was its end).
        let items = read.entries.elements, covered = reachedOlder && items.count % size == 0
        return (items, covered ? ServerTime.parse(items.last?.updated_at) : nil)
    }

    /// What I authored, updated since `since` (every open one on a full read).
    private func recent(_ endpoint: GitLabEndpoint, since: Timestamp?) async throws -> [GitLabItem] {
        var query = [("scope", "created_by_me"), ("order_by", "updated_at"), ("sort", "desc"), ("per_page", "100")]
        if let since { query += [("state", "all"), ("updated_after", ServerTime.iso(since))] } else { query.append(("state", "opened")) }
        return try await api.pages(GitLabItem.self, endpoint, query, id: \.id).entries.elements
    }

    /// Stored items asked for one by one: those GitLab still shows (mine while assigned, authored or awaiting my
    /// review; a closed one for `keepClosed` after its last update); an issue moved elsewhere follows to its new
    /// place; one gone (404, 403) is dropped.
    func lookUp(
        _ ids: [String], _ poll: ActivityPoll, lists: inout ActivityLists<GitLabItem>
    ) async throws -> [String: ItemLookup<GitLabItem>] {
        var answers: [String: ItemLookup<GitLabItem>] = [:]
        let myID = Int64(poll.me.id)
        let recently = Timestamp(secondsSinceEpoch: Int(poll.window.started) - Self.keepClosed)
        for id in ids {
            guard let record = poll.stored[id], let reference = GitLabReference(record.id.rawValue),
                let project = record[Self.projectField].flatMap({ Int64($0) })
            else { continue }
            do {
                // An answer that is the item but cannot be read (an unusable number) leaves it unanswered: kept.
                guard let item = try await api.get(
                    LossyItem<GitLabItem>.self,
                    .item(project: project, iid: reference.iid, mergeRequest: reference.isMergeRequest)
                ).value else { continue }
                if let movedTo = item.moved_to_id, let new = lists.mine.removeValue(forKey: "i\(movedTo)") {
                    answers[id] = .found(new, isMine: true)  // moved: the new issue keeps the old one's identity
                    continue
                }
                let mine = (item.assignees ?? []).contains { $0.id == myID } || item.author?.id == myID
                    || lists.reviewRequests.contains(id)
                let open = item.state == "opened" || (ServerTime.parse(item.updated_at).map { $0 >= recently } ?? false)
                answers[id] = .found(item, isMine: mine && open && item.moved_to_id == nil)
            } catch GitLabError.server(let status, _, _) where status == 404 || status == 403 {
                answers[id] = .gone(status: status)
            }
        }
        return answers
    }

    func item(_ item: GitLabItem, id: String, isMine: Bool, reviewRequested: Bool, _ poll: ActivityPoll) -> ActivityItem? {
        let mr = id.hasPrefix("m")
        guard
            var mapped = mapping(poll).item(
                item, mergeRequest: mr, reviewRequested: reviewRequested, isMine: isMine, id: id)
        else { return nil }
        mapped.record.fields[Self.projectField] = String(item.project_id ?? 0)
        mapped.record.fields[Self.currentIDField] = GitLabMapping.id(item, mergeRequest: mr)
        return mapped
    }

    /// Notes and resource events of the items that moved. Read also where only what the list shows changed: a quick
    /// second change may leave `updated_at` alone (python-gitlab #743), and its events are then named now and seen,
    /// not told twice.
    func logs(of changed: [(item: ActivityItem, source: GitLabItem)], _ poll: ActivityPoll) async throws -> [String: ItemLog] {
        let mapping = self.mapping(poll)
        var logs: [String: ItemLog] = [:]
        for (item, source) in changed {
            guard let project = source.project_id else { continue }
            let mr = item.id.hasPrefix("m")
            // Newest first, so that an item too busy to read whole is followed by its newest notes.
            let notes = try await api.pages(
                GitLabNote.self, .notes(project: project, iid: source.iid, mergeRequest: mr),
                [("sort", "desc"), ("order_by", "created_at"), ("per_page", "100")], id: \.id, most: Self.mostNotePages)
            var log = ItemLog(events: [], complete: notes.complete, skipped: notes.entries.skipped)
            var stateInNotes = false
            for kind in ["label", "state", "milestone"] where !stateInNotes {
                do {
                    let found = try await api.pages(
                        GitLabResourceEvent.self,
                        .resourceEvents(project: project, iid: source.iid, mergeRequest: mr, kind: kind),
                        [("per_page", "100")], id: \.id, most: Self.mostNotePages)
                    log.events += found.entries.elements.compactMap { mapping.event($0, kind: kind, item: item.id) }
                    log.complete = log.complete && found.complete
                    log.skipped += found.entries.skipped
                } catch GitLabError.server(404, _, _) {
                    // An old GitLab without resource events (or the item went meanwhile): its notes tell state,
                    // label and milestone changes, for this item and this poll.
                    stateInNotes = true
                    log.events = []
                }
            }
            log.events += notes.entries.elements.reversed().compactMap {
                mapping.event($0, item: item.id, stateInNotes: stateInNotes)
            }
            logs[item.id] = log
        }
        return logs
    }

    /// Every configured project GitLab refuses (404: not there or not visible; 403: not readable), asked on full
    /// reads: each named, while the others are watched.
    private func unavailableProjects() async throws -> Set<String> {
        refused = [:]
        for path in gitlab.projects ?? [] {
            do {
                _ = try await api.get(APIErrorBody.self, .project(path: path))
                _ = try await api.get(LossyList<GitLabItem>.self, .projectIssues(path: path), [("per_page", "1")])
            } catch GitLabError.server(let status, _, _) where status == 404 || status == 403 {
                refused[path] = status
            }
        }
        return Set(refused.keys)
    }

    func watched(_ item: GitLabItem) -> Bool { WatchedPaths.include(gitlab.projects, item.reference?.project) }

    /// What `doctor` and `probe` ask GitLab, read-only: who the token is, what a poll will read, what the server has.
    func survey(_ findings: inout ProbeReport) async throws {
        let me = try await api.get(GitLabUser.self, .user)
        let login = me.actor?.login.map { "@\($0), " } ?? ""
        findings.add(.pass, "signed in as \(me.actor?.name ?? "?") (\(login)id \(me.id.map(String.init) ?? "?"))")
        for path in gitlab.projects ?? [] {
            do {
                _ = try await api.get(APIErrorBody.self, .project(path: path))
                findings.add(.pass, "project \(path) is visible")
            } catch GitLabError.server(let status, _, _) where status == 404 || status == 403 {
                findings.add(.fail, "\(GitLabError.projectUnavailable(name: path, status: status))",
                             then: "check projects in \(gitlab.tableName), or ask for access")
            }
        }
        let assigned = try await api.get(
            LossyList<GitLabItem>.self, .issues, [("scope", "assigned_to_me"), ("state", "opened"), ("per_page", "100")]
        ).elements
        findings.add(.pass, "\(assigned.count)\(assigned.count == 100 ? "+" : "") open issues assigned to you")
        if let first = assigned.first, let project = first.project_id {
            do {
                _ = try await api.get(
                    LossyList<GitLabResourceEvent>.self,
                    .resourceEvents(project: project, iid: first.iid, mergeRequest: false, kind: "label"))
                findings.add(.pass, "resource events can be read (who changed labels, state and milestone)")
            } catch GitLabError.server(404, _, _) {
                findings.add(
                    .warn, "this GitLab has no resource events",
                    then: "state, label and milestone changes are read from its notes instead")
            }
        }
        let reviews = try await api.get(
            LossyList<GitLabItem>.self, .mergeRequests,
            [("scope", "all"), ("reviewer_id", String(me.id ?? 0)), ("state", "opened"), ("per_page", "1")]
        ).elements
        if let first = reviews.first, first.reviewers == nil {
            findings.add(.warn, "this GitLab has no reviewers (it answers merge requests unfiltered)",
                         then: "review requests are not reported; assignments and changes are")
        } else {
            findings.add(.pass, "merge requests awaiting your review can be read")
        }
        findings.add(.pass, "a steady poll with nothing changed costs 5 requests (GitLab has no filter for "
            + "\"assigned or authored\"); items that changed add their notes and resource events")
    }

    func fix(for error: any Error) -> String {
        switch error as? GitLabError {
        case .tokenRejected: "make a new personal access token with read_api and put it in the \(gitlab.credential.summary) of \(gitlab.tableName)"
        case .rateLimited: "wait: GitLab limits this token for a while; trackwatch backs off by itself"
        default: "check url in \(gitlab.tableName): your GitLab without /api/v4"
        }
    }

    /// `/api/v4/projects/12/issues/42/notes` → `/api/v4/projects/{id}/issues/{iid}/notes`.
    @Sendable static func route(_ path: String) -> String {
        var segments = path.split(separator: "/").map(String.init)
        for index in segments.indices where index > 0 {
            if segments[index - 1] == "projects" { segments[index] = "{id}" }
            if ["issues", "merge_requests"].contains(segments[index - 1]), segments[index].allSatisfy(\.isNumber) {
                segments[index] = "{iid}"
            }
        }
        return "/" + segments.joined(separator: "/")
    }
}
