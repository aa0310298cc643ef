import SourceKit
import TrackerHTTP
import TrackwatchCore

/// An Azure DevOps item as read: a work item, or a pull request with its threads where they were read.
enum AzureDevOpsItem {
    case workItem(WorkItem)
    case pullRequest(PullRequest, threads: LossyList<PullRequestThread>?)
}

/// Azure DevOps on the shared `ActivityPoller`: work items assigned to me, created by me or followed, and pull
/// requests I review or opened; for those that changed, the work items' updates and the pull requests' threads.
///
/// A steady poll (shared/ado-api.md §6): one WIQL for the work items that changed since the last answer's `asOf` and
/// are, or were, mine — nothing more when none did; then per readable project my two pull request lists (reviewer,
/// creator), and the threads of each active pull request I opened (comments show nowhere else). Pull requests I only
/// review are followed by their list (votes, reviewers, pushes): their threads are read when it moved.
final class AzureDevOpsTracker: SurveyedTracker {
    typealias Item = AzureDevOpsItem

    /// The most ids `workitemsbatch` takes (`VS403474` beyond).
    static let batchSize = 200
    /// WIQL refuses more (`VS402337`); never more ids than this are taken from an answer.
    static let mostWorkItems = 20_000
    static let updatesPage = 200, mostUpdatePages = 5
    static let pullRequestPage = 1_000, mostPullRequestPages = 10
    /// The server time of the last WIQL answer, and the projects found on the last full read (none configured).
    static let asOfKey = "ado_as_of", projectsKey = "ado_projects"
    /// Read again before the last answer's `asOf`: a change indexed a little late is still found (seen ones are
    /// told once).
    static let margin = 120

    let settings: AzureDevOpsSettings
    let api: AzureDevOpsAPI
    /// What Azure DevOps answered for each project it refused in this poll.
    private var refused: [String: Int] = [:]
    /// Work items this poll already read that left my lists: their lookup needs no request.
    private var readAlready: [String: (item: WorkItem, isMine: Bool)] = [:]

    init(settings: AzureDevOpsSettings, api: AzureDevOpsAPI) {
        self.settings = settings
        self.api = api
    }

    var mostLookups: Int { Self.batchSize }
    func takeServerInterval() -> Double? { api.askedToWait.take() }

    func identify(_ memory: inout TrackerMemory) async throws -> ActivityIdentity {
        let user = try await api.get(AzureDevOpsConnection.self, .connectionData).authenticatedUser
        guard let id = user?.id, !id.isEmpty, id.utf8.count <= 64 else {
            throw AzureDevOpsError.invalidResponse(endpoint: "connectionData", detail: "no authenticated user")
        }
        let name = user?.customDisplayName ?? user?.providerDisplayName ?? ""
        let account = user?.properties?["Account"]?.value?.text ?? ""
        return ActivityIdentity(
            id: id.lowercased(), login: SafeText.oneLine(account, limit: 80), name: SafeText.oneLine(name, limit: 80))
    }

    func rules(me: ActivityIdentity) -> ActivityRules {
        ActivityRules(
            me: me.id, comparedFields: AzureDevOpsFields.compared, assignmentFields: AzureDevOpsFields.assignment)
    }

    let watching = "Azure DevOps work items and pull requests assigned to you or awaiting your review, and those you "
        + "created or follow"

    func unavailable(_ parts: [String]) -> (any SourceFailure)? {
        AzureDevOpsError.projectsUnavailable(parts, refused: refused)
    }

    func mapping(_ poll: ActivityPoll) -> AzureDevOpsMapping { AzureDevOpsMapping(me: poll.me.id, web: settings.url) }

    // MARK: Lists

    func readLists(_ poll: ActivityPoll, memory: inout TrackerMemory) async throws -> ActivityLists<AzureDevOpsItem> {
        var lists = ActivityLists<AzureDevOpsItem>()
        refused = [:]
        readAlready = [:]
        var read = Set<String>()
        for project in try await projects(poll, memory: &memory) {
            do {
                try await pullRequests(in: project, poll, into: &lists)
                read.insert(project.lowercased())
            } catch AzureDevOpsError.server(let status, _, _) where status == 404 || status == 403 {
                refused[project] = status
                lists.unreadable.insert(project)
            }
        }
        // Active pull requests of mine that left both lists of a project read: completed, abandoned, or no longer mine.
        for (id, record) in poll.stored.byID where id.hasPrefix("p") && lists.mine[id] == nil {
            if record[AzureDevOpsFields.state] == "active",
                AzureDevOpsReference(record.id.rawValue).map({ read.contains($0.project.lowercased()) }) ?? true
            {
                lists.missing.insert(id)
            }
        }
        let scope = settings.projects.map {
            $0.filter { !lists.unreadable.contains($0) && !poll.unreadable.contains($0) }
        }
        if scope?.isEmpty != true { try await workItems(poll, scope: scope, memory: &memory, into: &lists) }
        return lists
    }

    /// The projects whose pull requests are read: those configured (less the ones refused since the last full read),
    /// or every project the token can read, asked on a full read and remembered between.
    private func projects(_ poll: ActivityPoll, memory: inout TrackerMemory) async throws -> [String] {
        if let configured = settings.projects { return configured.filter { !poll.unreadable.contains($0) } }
        if !poll.window.full, let remembered = try memory.value(Self.projectsKey) {
            return remembered.split(separator: "\n").map(String.init).filter { !poll.unreadable.contains($0) }
        }
        var names: [String] = [], token: String?
        for _ in 0..<Self.mostPullRequestPages {
            var query = [("$top", "500")]
            if let token { query.append(("continuationToken", token)) }
            let page = try await api.read(ValueList<AzureDevOpsProjectInfo>.self, .projects, query)
            names += page.value.entries.elements.compactMap(\.name).filter(AzureDevOpsProject.isValid)
            token = page.response.header("x-ms-continuationtoken").flatMap { $0.utf8.count <= 1_000 ? $0 : nil }
            if token?.isEmpty ?? true { break }
        }
        names = Array(Set(names)).sorted()
        memory.set(Self.projectsKey, names.joined(separator: "\n"))
        return names
    }

    /// My two lists of a project's active pull requests, and the threads of those I opened.
    private func pullRequests(
        in project: String, _ poll: ActivityPoll, into lists: inout ActivityLists<AzureDevOpsItem>
    ) async throws {
        let reviewing = try await pullRequests(project, "searchCriteria.reviewerId", poll.me.id)
        let authored = try await pullRequests(project, "searchCriteria.creatorId", poll.me.id)
        for pull in authored where pull.status == "active" {
            let threads = try await self.threads(of: pull)
            lists.mine[AzureDevOpsMapping.id(pullRequest: pull.pullRequestId)] = .pullRequest(pull, threads: threads)
        }
        for pull in reviewing where pull.status == "active" {
            // Named directly, or (the server matched me) through a group; a reviewer who declined is asked no more.
            let direct = (pull.reviewers ?? []).first { $0.key == poll.me.id }
            guard direct?.hasDeclined != true else { continue }
            let id = AzureDevOpsMapping.id(pullRequest: pull.pullRequestId)
            lists.reviewRequests.insert(id)
            if lists.mine[id] == nil { lists.mine[id] = .pullRequest(pull, threads: nil) }
        }
    }

    private func pullRequests(_ project: String, _ criterion: String, _ me: String) async throws -> [PullRequest] {
        var pulls: [PullRequest] = []
        for page in 0..<Self.mostPullRequestPages {
            let found =
                try await api.get(
                    ValueList<PullRequest>.self, .pullRequests(project: project),
                    [
                        (criterion, me), ("searchCriteria.status", "active"), ("$top", String(Self.pullRequestPage)),
                        ("$skip", String(page * Self.pullRequestPage)),
                    ]
                ).entries
            pulls += found.elements
            // A full page holding one that could not be read is not the last (`sent`, not what was read).
            if found.sent < Self.pullRequestPage { return pulls }
        }
        throw AzureDevOpsError.invalidResponse(
            endpoint: "pull requests", detail: "more than \(Self.mostPullRequestPages * Self.pullRequestPage) items")
    }

    func threads(of pull: PullRequest) async throws -> LossyList<PullRequestThread> {
        guard let project = pull.repository?.project?.name,
            let repository = pull.repository?.id ?? pull.repository?.name
        else { return LossyList() }
        return try await api.get(
            ValueList<PullRequestThread>.self,
            .threads(project: project, repository: repository, pullRequest: pull.pullRequestId)
        ).entries
    }

    // MARK: Work items

    /// On a full read every work item of mine; otherwise those that changed since the last answer and are, or were,
    /// mine. Those that are no longer mine are looked up from what was read, if they were stored.
    private func workItems(
        _ poll: ActivityPoll, scope: [String]?, memory: inout TrackerMemory,
        into lists: inout ActivityLists<AzureDevOpsItem>
    ) async throws {
        let asOf = try memory.value(Self.asOfKey).flatMap(AzureDevOpsTime.parse)
        let full = poll.window.full || asOf == nil
        let since = asOf?.adding(seconds: -Self.margin) ?? poll.window.since
        let answer = try await wiql(full ? WIQL.mine(projects: scope) : WIQL.changed(since: since, projects: scope))
        if let mark = AzureDevOpsTime.parse(answer.asOf) { memory.set(Self.asOfKey, mark.rawValue) }
        let ids = Self.ids(answer)
        let items = try await batch(ids).items
        let me = poll.me.id
        var undecided: [Int] = []
        for item in items {
            let assigned = item.fields?.assignedTo?.identityKey == me,
                created = item.fields?.createdBy?.identityKey == me
            if full || assigned || created {
                lists.mine[AzureDevOpsMapping.id(workItem: item.id)] = .workItem(item)
            } else {
                undecided.append(item.id)
            }
        }
        // Changed, neither assigned to me nor created by me: mine if I follow it; else, if stored, no longer mine.
        let stored = undecided.filter { poll.stored[AzureDevOpsMapping.id(workItem: $0)] != nil }
        let followed = await undecided.isEmpty ? [] : try self.followed(undecided)
        let byID = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for id in undecided {
            guard let item = byID[id] else { continue }
            let key = AzureDevOpsMapping.id(workItem: id)
            if followed.contains(id) {
                lists.mine[key] = .workItem(item)
            } else if stored.contains(id) {
                readAlready[key] = (item, false)
                lists.missing.insert(key)
            }
        }
    }

    private func wiql(_ query: String) async throws -> WIQLAnswer {
        struct Body: Encodable { var query: String }
        return try await api.post(WIQLAnswer.self, .wiql, [("timePrecision", "true")], body: Body(query: query))
    }

    /// The ids of a WIQL answer, each once, bounded.
    static func ids(_ answer: WIQLAnswer) -> [Int] {
        var seen = Set<Int>()
        return (answer.workItems ?? []).map(\.id).filter {
            (1..<Int(Int32.max)).contains($0) && seen.insert($0).inserted
        }
        .prefix(mostWorkItems).map { $0 }
    }

    /// Which of `ids` I follow: one WIQL per 200.
    private func followed(_ ids: [Int]) async throws -> Set<Int> {
        var found = Set<Int>()
        for chunk in ids.chunked(Self.batchSize) { await found.formUnion(Self.ids(try wiql(WIQL.followed(Array(chunk))))) }
        return found
    }

    /// The work items of `ids` that I can see, 200 a request; one I cannot is left out (`errorPolicy: Omit`).
    /// `unsure`: ids left out of an answer that also held a work item that could not be read — it may be any of
    /// them, so none is taken for one I cannot see.
    func batch(_ ids: [Int]) async throws -> (items: [WorkItem], unsure: Set<Int>) {
        struct Body: Encodable {
            var ids: [Int]
            var fields: [String]
            var errorPolicy = "Omit"
        }
        var items: [WorkItem] = [], unsure = Set<Int>()
        for chunk in ids.chunked(Self.batchSize) {
            let answer = try await api.post(
                WorkItemBatch.self, .workItemsBatch, body: Body(ids: Array(chunk), fields: WorkItem.Fields.names))
            let read = answer.entries.elements.compactMap { $0 }.filter { chunk.contains($0.id) }
            items += read
            if answer.entries.skipped > 0 { unsure.formUnion(Set(chunk).subtracting(read.map(\.id))) }
        }
        return (items, unsure)
    }

    // MARK: Look-ups, items, logs

    /// Stored items asked for by id: work items in one batch (one I cannot see any more is gone: deleted, or out of
    /// my reach, Azure DevOps does not say which), pull requests one by one (404: gone).
    func lookUp(
        _ ids: [String], _ poll: ActivityPoll, lists: inout ActivityLists<AzureDevOpsItem>
    ) async throws -> [String: ItemLookup<AzureDevOpsItem>] {
        var answers: [String: ItemLookup<AzureDevOpsItem>] = [:]
        var asked: [Int] = []
        for id in ids where id.hasPrefix("w") {
            if let read = readAlready[id] {
                answers[id] = .found(.workItem(read.item), isMine: read.isMine)
            } else if let number = Int(id.dropFirst()) {
                asked.append(number)
            }
        }
        if !asked.isEmpty {
            let read = try await batch(asked)
            let found = Dictionary(read.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for number in asked {
                let id = AzureDevOpsMapping.id(workItem: number)
                if let item = found[number] {
                    // Not in the list of mine that a full read just took (nor changed as mine since): no longer mine.
                    answers[id] = .found(.workItem(item), isMine: false)
                } else if read.unsure.contains(number) {
                    continue  // perhaps the work item that could not be read: kept, asked again
                } else {
                    answers[id] = .gone(status: 404)
                }
            }
        }
        for id in ids where id.hasPrefix("p") {
            guard let number = Int(id.dropFirst()) else { continue }
            do {
                // An answer that is the pull request but cannot be read leaves it unanswered: kept.
                guard let pull = try await api.get(LossyItem<PullRequest>.self, .pullRequest(id: number)).value else { continue }
                // Still a reviewer of one completed meanwhile: its end is told as a change, not as an unassignment.
                let direct = (pull.reviewers ?? []).first { $0.key == poll.me.id }
                let reviewing = direct != nil && direct?.hasDeclined != true
                if reviewing { lists.reviewRequests.insert(id) }
                let mine = pull.status == "active" && (reviewing || pull.createdBy?.key == poll.me.id)
                answers[id] = .found(.pullRequest(pull, threads: nil), isMine: mine)
            } catch AzureDevOpsError.server(let status, _, _) where status == 404 || status == 403 {
                answers[id] = .gone(status: status)
            }
        }
        return answers
    }

    func item(
        _ item: AzureDevOpsItem, id: String, isMine: Bool, reviewRequested: Bool, _ poll: ActivityPoll
    ) -> ActivityItem? {
        switch item {
        case .workItem(let workItem): return mapping(poll).workItem(workItem, isMine: isMine)
        case .pullRequest(let pull, let threads):
            return mapping(poll).pullRequest(
                pull, isMine: isMine, reviewRequested: reviewRequested,
                lastActivity: threads.flatMap {
                    AzureDevOpsMapping.lastActivity($0.elements, created: pull.creationDate)
                })
        }
    }

    /// The updates of each work item that moved; the threads of each pull request that moved (read already for
    /// those I opened).
    func logs(of changed: [(item: ActivityItem, source: AzureDevOpsItem)], _ poll: ActivityPoll) async throws -> [String:
        ItemLog]
    {
        let mapping = self.mapping(poll)
        var logs: [String: ItemLog] = [:]
        for (item, source) in changed {
            switch source {
            case .workItem(let workItem):
                logs[item.id] = try await updates(of: workItem, item: item.id, mapping)
            case .pullRequest(let pull, let read):
                let threads = if let read { read } else { try await self.threads(of: pull) }
                var events = threads.elements.flatMap { mapping.events($0, item: item.id) }
                if item.isAssignedToMe, poll.stored[item.id] == nil,
                    !AzureDevOpsMapping.addsReviewer(poll.me.id, in: threads.elements),
                    let created = mapping.requestedAtCreation(
                        pull, item: item.id, myName: poll.me.name.isEmpty ? "you" : poll.me.name)
                {
                    events.append(created)
                }
                if !events.contains(where: { $0.changes.contains { $0.field == AzureDevOpsFields.state } }),
                    let closed = mapping.closed(pull, item: item.id)
                {
                    events.append(closed)
                }
                // A thread left out (`LossyList`) may be a colleague's change: what no read one names is told.
                logs[item.id] = ItemLog(events: events, skipped: threads.skipped)
            }
        }
        return logs
    }

    /// A work item's updates, oldest first, page after page; one with more revisions than five pages is followed
    /// by its newest page.
    private func updates(of workItem: WorkItem, item: String, _ mapping: AzureDevOpsMapping) async throws -> ItemLog {
        let revisions = min(max(workItem.rev ?? 0, 0), Int(Int32.max))
        let start = revisions > Self.updatesPage * Self.mostUpdatePages ? revisions - Self.updatesPage : 0
        var events: [ActivityEvent] = [], skipped = 0
        for page in 0...Self.mostUpdatePages {
            let updates = try await api.get(
                ValueList<WorkItemUpdate>.self, .updates(workItem: workItem.id),
                [("$top", String(Self.updatesPage)), ("$skip", String(start + page * Self.updatesPage))]
            ).entries
            events += updates.elements.compactMap { mapping.event($0, item: item) }
            skipped += updates.skipped
            if updates.sent < Self.updatesPage {
                return ItemLog(events: events, complete: start == 0, skipped: skipped)
            }
        }
        return ItemLog(events: events, complete: false, skipped: skipped)
    }
}
