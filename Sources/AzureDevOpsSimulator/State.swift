#if canImport(Glibc)
    import Glibc
#endif
import SimulatorKit

/// Everything the server knows: work items, pull requests, access, switches, clock, faults and stats. Guarded by
/// one lock in `AzureDevOpsSimulator`; every method runs with the lock held.
struct AzureDevOpsState {
    let options: AzureDevOpsSimulatorOptions
    var switches: AzureDevOpsSwitches
    /// Milliseconds added to the real clock.
    var clockOffset: Int
    var workItems: [WorkItem] = []
    var pullRequests: [PullRequest] = []
    /// `"person project"` pairs that cannot read the project (Secret: only alice and lead read it).
    var noAccess: Set<String> = []
    /// People whose PAT was revoked (`POST /sim/pat`): answered as a bad PAT.
    var revoked: Set<Int> = []
    var nextCommentID = 5_000_001
    var nextThreadID = 1
    var faults: [AzureDevOpsFault] = []
    var stats = AzureDevOpsStats()

    init(options: AzureDevOpsSimulatorOptions) {
        self.options = options
        switches = options.switches
        clockOffset = options.clockOffset * 1000
        noAccess = ["\(Directory.engineer) 2"]
        Seed.populate(&self)
    }

    /// The server's clock in milliseconds.
    var now: Int {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int(spec.tv_sec) * 1000 + Int(spec.tv_nsec) / 1_000_000 + clockOffset
    }

    func reads(_ person: Int, project: Int) -> Bool { !noAccess.contains("\(person) \(project)") }

    /// The slot of a work item the person can see (not deleted, in a project they read), or nil.
    func visibleWorkItem(_ id: Int, by person: Int) -> Int? {
        guard let slot = workItems.firstIndex(where: { $0.id == id }), !workItems[slot].deleted,
            reads(person, project: workItems[slot].project)
        else { return nil }
        return slot
    }

    // MARK: Work item changes

    /// Noise fields every update carries (rev, dates, who), as Azure DevOps writes them.
    private func noise(_ item: WorkItem, by person: Int, at time: Int) -> [FieldChange] {
        let previous = item.updates.last
        let previousAt = previous.map { FieldValue.date($0.at) }
        return [
            FieldChange(field: "System.Rev", old: previous.map { .number($0.rev) }, new: .number(item.rev + 1)),
            FieldChange(field: "System.AuthorizedDate", old: previousAt, new: .date(time)),
            FieldChange(field: "System.RevisedDate", old: previous.map { _ in .date(time) }, new: .date(253_402_300_799_000)),
            FieldChange(field: "System.ChangedDate", old: previousAt, new: .date(time)),
            FieldChange(field: "System.ChangedBy", old: previous.map { .person($0.by) }, new: .person(person)),
            FieldChange(field: "System.AuthorizedAs", old: previous.map { .person($0.by) }, new: .person(person)),
            FieldChange(field: "System.Watermark", old: .number(1000 + item.id * 50 + item.rev),
                new: .number(1000 + item.id * 50 + item.rev + 1)),
        ]
    }

    /// A new revision by `person` at `time` setting each field of `set` (nil clears it); unchanged fields are left
    /// out, and nothing is recorded when nothing changes (unless `force`).
    mutating func change(_ slot: Int, by person: Int, at time: Int, set: [(String, FieldValue?)], force: Bool = false) {
        var changes: [FieldChange] = []
        for (field, value) in set where workItems[slot].fields[field] != value || force {
            changes.append(FieldChange(field: field, old: workItems[slot].fields[field], new: value))
        }
        guard !changes.isEmpty else { return }
        let item = workItems[slot]
        let all = noise(item, by: person, at: time) + changes
        for change in all { workItems[slot].fields[change.field] = change.new }
        // System.History holds only the latest revision's comment.
        if !set.contains(where: { $0.0 == "System.History" }) { workItems[slot].fields["System.History"] = nil }
        workItems[slot].updates.append(Update(rev: item.rev + 1, by: person, at: time, changes: all))
    }

    /// A comment: an entry of the comments API and a revision carrying `System.History` and `System.CommentCount`.
    mutating func comment(_ slot: Int, _ text: String, by person: Int, at time: Int) -> WorkItemComment {
        let html = Self.html(text)
        let comment = WorkItemComment(id: nextCommentID, text: html, by: person, at: time)
        nextCommentID += 1
        workItems[slot].comments.append(comment)
        change(slot, by: person, at: time, set: [
            ("System.History", .text(html)), ("System.CommentCount", .number(workItems[slot].comments.count)),
        ], force: true)
        return comment
    }

    /// Plain text as the HTML the web editor writes: lines as `<div>`s, `&`, `<`, `>` escaped.
    static func html(_ text: String) -> String {
        let escaped = text.replacingAll("&", "&amp;").replacingAll("<", "&lt;").replacingAll(">", "&gt;")
        let lines = escaped.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.count == 1 ? escaped : lines.map { "<div>\($0)</div>" }.joined()
    }

    /// Moves a work item to another project: same id; project, area and iteration change, State and Reason reset.
    mutating func move(_ slot: Int, to project: Int, by person: Int, at time: Int) {
        let name = Directory.projectNames[project]
        workItems[slot].project = project
        change(slot, by: person, at: time, set: [
            ("System.TeamProject", .text(name)), ("System.AreaPath", .text(name)),
            ("System.IterationPath", .text(name)), ("System.State", .text("New")),
            ("System.Reason", .text("Moved to another project")),
        ])
    }

    // MARK: Pull request changes

    /// A thread on a pull request: a discussion by `person`, or a system thread (`kind`) whose comment is by the
    /// TFS service identity and whose actor and subject are in `properties`.
    @discardableResult
    mutating func addThread(_ slot: Int, at time: Int, text: String, by person: Int, kind: String? = nil,
        properties: [(String, PropertyValue)] = [], identities: [Int] = []) -> PullRequestThread
    {
        let thread = PullRequestThread(
            id: nextThreadID, at: time, updated: time,
            comments: [PullRequestComment(id: 1, parent: 0, author: kind == nil ? person : Directory.tfs,
                content: text, at: time, system: kind != nil)],
            kind: kind, properties: properties, identities: identities)
        nextThreadID += 1
        pullRequests[slot].threads.append(thread)
        return thread
    }

    /// `person` adds `reviewer` (a person or a group): a `ReviewersUpdate` thread.
    mutating func requestReview(_ slot: Int, reviewer: Int, by person: Int, at time: Int, required: Bool = false) {
        guard !pullRequests[slot].reviewers.contains(where: { $0.who == reviewer }) else { return }
        pullRequests[slot].reviewers.append(Reviewer(who: reviewer, isRequired: required))
        let name = Directory.people[reviewer].name, actor = Directory.people[person].name
        addThread(slot, at: time, text: "\(actor) added \(name) as a reviewer", by: person, kind: "ReviewersUpdate",
            properties: [
                ("CodeReviewReviewersUpdatedNumAdded", .int(1)), ("CodeReviewReviewersUpdatedNumRemoved", .int(0)),
                ("CodeReviewReviewersUpdatedAddedIdentity", .string("1")),
                ("CodeReviewReviewersUpdatedByIdentity", .string("2")),
            ], identities: [reviewer, person])
    }

    mutating func removeReview(_ slot: Int, reviewer: Int, by person: Int, at time: Int) {
        guard pullRequests[slot].reviewers.contains(where: { $0.who == reviewer }) else { return }
        pullRequests[slot].reviewers.removeAll { $0.who == reviewer }
        let name = Directory.people[reviewer].name, actor = Directory.people[person].name
        addThread(slot, at: time, text: "\(actor) removed \(name) as a reviewer", by: person,
            kind: "ReviewersUpdate", properties: [
                ("CodeReviewReviewersUpdatedNumAdded", .int(0)), ("CodeReviewReviewersUpdatedNumRemoved", .int(1)),
                ("CodeReviewReviewersUpdatedRemovedIdentity", .string("1")),
                ("CodeReviewReviewersUpdatedByIdentity", .string("2")),
            ], identities: [reviewer, person])
    }

    /// `person` votes: their reviewer entry (added if they were not one, with `votedFor` the group reviewers they
    /// belong to) takes the vote; a `VoteUpdate` thread.
    mutating func vote(_ slot: Int, _ vote: Int, by person: Int, at time: Int) {
        let groups = pullRequests[slot].reviewers.map(\.who).filter { Directory.members[$0]?.contains(person) == true }
        if let index = pullRequests[slot].reviewers.firstIndex(where: { $0.who == person }) {
            pullRequests[slot].reviewers[index].vote = vote
        } else {
            pullRequests[slot].reviewers.append(Reviewer(who: person, vote: vote, votedFor: groups))
        }
        for index in pullRequests[slot].reviewers.indices where groups.contains(pullRequests[slot].reviewers[index].who) {
            pullRequests[slot].reviewers[index].vote = vote
        }
        let words = [10: "approved", 5: "approved with suggestions", 0: "reset their vote",
            -5: "is waiting for the author", -10: "rejected"][vote] ?? "voted \(vote)"
        addThread(slot, at: time, text: "\(Directory.people[person].name) \(words) the pull request", by: person,
            kind: "VoteUpdate", properties: [
                ("CodeReviewVoteResult", .string(String(vote))),
                ("CodeReviewVotedByInitiatorIdentity", .string("1")), ("CodeReviewVotedByIdentity", .string("1")),
            ], identities: [person])
    }

    /// A new iteration (a push) by `person` and its `RefUpdate` thread.
    mutating func push(_ slot: Int, by person: Int, at time: Int, message: String) {
        let number = pullRequests[slot].iterations.count + 1
        let commit = Self.sha("\(pullRequests[slot].id)/\(number)/\(message)")
        pullRequests[slot].iterations.append(Iteration(id: number, author: person, at: time, commit: commit,
            reason: "push"))
        addThread(slot, at: time, text: "\(Directory.people[person].name) updated the source branch", by: person,
            kind: "RefUpdate", properties: [
                ("CodeReviewRefUpdatedByIdentity", .string("1")), ("CodeReviewRefNewCommits", .string(commit)),
                ("CodeReviewRefNewCommitsCount", .int(1)), ("CodeReviewRefNewHeadCommit", .string(commit)),
            ], identities: [person])
    }

    /// Completed or Abandoned by `person`: status, `closedDate`, `closedBy`, a `StatusUpdate` thread.
    mutating func close(_ slot: Int, completed: Bool, by person: Int, at time: Int) {
        pullRequests[slot].status = completed ? "completed" : "abandoned"
        (pullRequests[slot].closed, pullRequests[slot].closedBy) = (time, person)
        let word = completed ? "Completed" : "Abandoned"
        addThread(slot, at: time, text: "\(Directory.people[person].name) set the pull request status to \(word)",
            by: person, kind: "StatusUpdate", properties: [
                ("CodeReviewStatus", .string(word)), ("CodeReviewStatusUpdatedByIdentity", .string("1")),
            ], identities: [person])
    }

    /// A deterministic 40-hex-digit commit id.
    static func sha(_ seed: String) -> String {
        var out = ""
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for round in 0..<3 {
            for byte in (seed + "/\(round)").utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            let hex = String(hash, radix: 16)
            out += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return String(out.prefix(40))
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        guard contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// `GET /sim/stats`: what the API was asked, for benchmarks ("requests per poll") and tests.
struct AzureDevOpsStats: Encodable {
    /// API requests (`/sim/` routes are not counted), refused and faulted answers included.
    var requests = 0
    /// By route name, e.g. `POST wiql`, `GET threads`.
    var requestsByRoute: [String: Int] = [:]
    /// By the username of the authenticated person.
    var requestsByUser: [String: Int] = [:]
    /// 203 sign-in pages and 401s sent.
    var unauthorized = 0
    /// 429 answers sent.
    var throttled = 0
}
