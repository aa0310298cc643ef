import SourceKit
import TrackwatchCore

/// The fields a work item or a pull request is stored and reported with, in Azure DevOps's own words.
public enum AzureDevOpsFields {
    public static let title = "Title", state = "State", assignedTo = "Assigned To", priority = "Priority"
    public static let iteration = "Iteration", area = "Area", tags = "Tags", project = "Project", type = "Type"
    public static let comments = "Comments", comment = "Comment", description = "Description"
    public static let reviewers = "Reviewers", reviewRequest = "Review request", review = "Review", votes = "Votes"
    public static let commit = "Commit", push = "Push"

    /// Compared where no log explains a difference.
    static let compared = [
        title, state, assignedTo, priority, iteration, area, tags, project, votes, reviewers, commit,
    ]
    static let assignment: Set<String> = [assignedTo, reviewRequest]

    /// A work item's fields in its updates, by reference name, as they are reported.
    static let updated: [(reference: String, field: String)] = [
        ("System.TeamProject", project), ("System.WorkItemType", type), ("System.Title", title),
        ("System.State", state), ("System.AssignedTo", assignedTo), ("Microsoft.VSTS.Common.Priority", priority),
        ("System.IterationPath", iteration), ("System.AreaPath", area), ("System.Tags", tags),
    ]
}

/// How Azure DevOps's work items, their updates, pull requests and their threads become the activity shape
/// (`ActivityDiff`).
struct AzureDevOpsMapping {
    /// My identity's id, lower-cased.
    let me: String
    /// The organization or collection URL, for links.
    let web: String

    static func id(workItem: Int) -> String { "w\(workItem)" }
    static func id(pullRequest: Int) -> String { "p\(pullRequest)" }

    func isMe(_ value: WireValue?) -> Bool { value?.identityKey == me }

    // MARK: Work items

    func workItem(_ item: WorkItem, isMine: Bool) -> ActivityItem? {
        let fields = item.fields
        guard let project = fields?.project, AzureDevOpsProject.isValid(project) else { return nil }
        let reference = AzureDevOpsReference(project: project, repository: nil, id: item.id)
        var values: [String: String] = [
            AzureDevOpsFields.title: SafeText.oneLine(fields?.title ?? "", limit: 500),
            AzureDevOpsFields.state: SafeText.oneLine(fields?.state ?? "", limit: 60),
            AzureDevOpsFields.type: SafeText.oneLine(fields?.type ?? "", limit: 60),
            AzureDevOpsFields.project: SafeText.oneLine(project, limit: 64),
            AzureDevOpsFields.assignedTo: fields?.assignedTo?.shown ?? "",
            AzureDevOpsFields.priority: fields?.priority?.shown ?? "",
            AzureDevOpsFields.iteration: SafeText.oneLine(fields?.iteration ?? "", limit: 200),
            AzureDevOpsFields.area: SafeText.oneLine(fields?.area ?? "", limit: 200),
            AzureDevOpsFields.tags: Self.tags(fields?.tags),
            AzureDevOpsFields.comments: fields?.commentCount?.shown ?? "",
        ]
        if let updated = AzureDevOpsTime.parse(fields?.changedDate) {
            values[ActivityFields.updated] = updated.rawValue
        }
        return ActivityItem(
            id: Self.id(workItem: item.id), record: Record(id: RecordID(reference.key), fields: values),
            isAssignedToMe: isMe(fields?.assignedTo), isMine: isMine,
            facts: ItemFacts(
                headline: values[AzureDevOpsFields.title] ?? "", priority: values[AzureDevOpsFields.priority],
                state: values[AzureDevOpsFields.state], link: reference.link(web: web)))
    }

    /// `a; b` as the server keeps tags, sorted, one line.
    static func tags(_ text: String?) -> String {
        SafeText.list(
            (text ?? "").split(separator: ";").map { $0.trimmingSpaces }.filter { !$0.isEmpty }, limit: 60,
            separator: "; ")
    }

    /// One revision as an event: who (`revisedBy`), each known field old → new, a comment by its first line, a
    /// description changed; `nil` for a revision that tells nothing to report (links, noise fields).
    func event(_ update: WorkItemUpdate, item: String) -> ActivityEvent? {
        let fields = update.fields ?? [:]
        // The latest revision's `revisedDate` is 9999-01-01: the change's own time is its ChangedDate.
        guard
            let at = AzureDevOpsTime.parse(fields["System.ChangedDate"]?.newValue?.text)
                ?? AzureDevOpsTime.parse(update.revisedDate)
        else { return nil }
        var changes: [FieldChange] = []
        for (reference, field) in AzureDevOpsFields.updated {
            guard let change = fields[reference] else { continue }
            var old = change.oldValue?.shown, new = change.newValue?.shown
            if field == AzureDevOpsFields.tags { (old, new) = (old.map(Self.tags), new.map(Self.tags)) }
            if (old ?? "") == (new ?? "") { continue }
            changes.append(FieldChange(field: field, old: old, new: new ?? ""))
        }
        if fields["System.Description"] != nil {
            changes.append(FieldChange(field: AzureDevOpsFields.description, old: nil, new: nil))
        }
        if let history = fields["System.History"]?.newValue?.text {
            let line = HTMLText.firstLine(history, limit: 200)
            if !line.isEmpty { changes.append(FieldChange(field: AzureDevOpsFields.comment, old: nil, new: line)) }
        }
        guard !changes.isEmpty else { return nil }
        return ActivityEvent(item: item, id: "u\(update.id)", at: at, actor: update.revisedBy?.actor, changes: changes)
    }

    // MARK: Pull requests

    /// A pull request; `lastActivity`: the newest moment its threads show, where they were read (those of mine,
    /// every poll).
    func pullRequest(
        _ pull: PullRequest, isMine: Bool, reviewRequested: Bool, lastActivity: Timestamp?
    ) -> ActivityItem? {
        guard let project = pull.repository?.project?.name, let repository = pull.repository?.name,
            AzureDevOpsProject.isValid(project), AzureDevOpsProject.isValid(repository),
            (1..<Int(Int32.max)).contains(pull.pullRequestId)
        else { return nil }
        let reference = AzureDevOpsReference(project: project, repository: repository, id: pull.pullRequestId)
        let others = (pull.reviewers ?? []).filter { $0.key != me }
        var values: [String: String] = [
            AzureDevOpsFields.title: SafeText.oneLine(pull.title ?? "", limit: 500),
            AzureDevOpsFields.state: SafeText.oneLine(pull.status ?? "", limit: 20),
            AzureDevOpsFields.type: "Pull request",
            AzureDevOpsFields.reviewers: SafeText.list((pull.reviewers ?? []).map(\.name), limit: 80),
            AzureDevOpsFields.votes: SafeText.list(
                others.filter { ($0.vote ?? 0) != 0 }.map { "\($0.name): \(Self.vote($0.vote ?? 0))" }, limit: 120),
            AzureDevOpsFields.commit: Self.shortCommit(pull.lastMergeSourceCommit?.commitId),
            ActivityFields.reviewRequested: reviewRequested ? "yes" : "no",
        ]
        if let lastActivity { values[ActivityFields.updated] = lastActivity.rawValue }
        return ActivityItem(
            id: Self.id(pullRequest: pull.pullRequestId), record: Record(id: RecordID(reference.key), fields: values),
            isAssignedToMe: reviewRequested, isMine: isMine,
            facts: ItemFacts(
                headline: values[AzureDevOpsFields.title] ?? "", state: values[AzureDevOpsFields.state],
                link: reference.link(web: web)))
    }

    /// A vote in people's words.
    static func vote(_ value: Int) -> String {
        switch value {
        case 10: "approved"
        case 5: "approved with suggestions"
        case 0: "vote reset"
        case -5: "waiting for author"
        case -10: "rejected"
        default: "voted \(min(max(value, -99), 99))"
        }
    }

    /// The first eight hex digits of a commit id; empty for anything else.
    static func shortCommit(_ id: String?) -> String {
        guard let id, id.utf8.count >= 8, id.utf8.count <= 64,
            id.utf8.allSatisfy({ $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit })
        else { return "" }
        return String(id.prefix(8)).lowercased()
    }

    /// The newest moment a pull request's threads show: what tells the poller that one of mine moved.
    static func lastActivity(_ threads: [PullRequestThread], created: String?) -> Timestamp? {
        var times = [AzureDevOpsTime.parse(created)]
        for thread in threads {
            times += [AzureDevOpsTime.parse(thread.lastUpdatedDate), AzureDevOpsTime.parse(thread.publishedDate)]
            for comment in thread.comments ?? [] {
                times += [AzureDevOpsTime.parse(comment.lastUpdatedDate), AzureDevOpsTime.parse(comment.publishedDate)]
            }
        }
        return times.compactMap { $0 }.max()
    }

    /// A thread's events: each text comment by its author; a system thread by the real actor its properties name
    /// (its comment's author is the service), the kinds that tell nothing to report left out.
    func events(_ thread: PullRequestThread, item: String) -> [ActivityEvent] {
        guard thread.isDeleted != true else { return [] }
        let link = "?discussionId=\(thread.id)"
        if let kind = thread.property("CodeReviewThreadType") {
            guard let at = AzureDevOpsTime.parse(thread.publishedDate ?? thread.comments?.first?.publishedDate),
                let told = systemThread(thread, kind: kind), !told.changes.isEmpty
            else { return [] }
            return [
                ActivityEvent(item: item, id: "t\(thread.id)", at: at, actor: told.actor?.actor, changes: told.changes)
            ]
        }
        return (thread.comments ?? []).compactMap { comment in
            guard comment.isDeleted != true, comment.commentType != "system", let id = comment.id,
                let at = AzureDevOpsTime.parse(comment.publishedDate)
            else { return nil }
            let line = SafeText.firstLine(comment.content, limit: 200)
            guard !line.isEmpty else { return nil }
            return ActivityEvent(
                item: item, id: "c\(thread.id).\(id)", at: at, actor: comment.author?.actor,
                changes: [FieldChange(field: AzureDevOpsFields.comment, old: nil, new: line)], link: link)
        }
    }

    /// What a system thread says, by its properties (its prose varies and is never read).
    private func systemThread(
        _ thread: PullRequestThread, kind: String
    ) -> (actor: AzureDevOpsIdentity?, changes: [FieldChange])? {
        switch kind {
        case "VoteUpdate":
            guard let vote = thread.property("CodeReviewVoteResult").flatMap({ Int($0.prefix(4)) }) else { return nil }
            let voter = thread.identity("CodeReviewVotedByIdentity")
            return (voter, [FieldChange(field: AzureDevOpsFields.review, old: nil, new: Self.vote(vote))])
        case "ReviewersUpdate":
            var changes: [FieldChange] = []
            for (property, verb) in [
                ("CodeReviewReviewersUpdatedAddedIdentity", "added"),
                ("CodeReviewReviewersUpdatedRemovedIdentity", "removed"),
            ] {
                for key in (thread.property(property) ?? "").split(whereSeparator: { $0 == "," || $0 == ";" }).prefix(
                    50)
                {
                    guard let who = thread.identities?[key.trimmingSpaces] else { continue }
                    changes.append(
                        FieldChange(field: AzureDevOpsFields.reviewRequest, old: nil, new: "\(verb) \(who.name)"))
                }
            }
            return (thread.identity("CodeReviewReviewersUpdatedByIdentity"), changes)
        case "StatusUpdate":
            guard let status = thread.property("CodeReviewStatus") else { return nil }
            let state = SafeText.oneLine(status, limit: 20).lowercased()
            return (
                thread.identity("CodeReviewStatusUpdatedByIdentity"),
                [FieldChange(field: AzureDevOpsFields.state, old: nil, new: state)]
            )
        case "RefUpdate":
            let count = thread.property("CodeReviewRefNewCommitsCount").flatMap { Int($0.prefix(9)) }
            let words = count.map { "pushed \($0) commit\($0 == 1 ? "" : "s")" } ?? "pushed"
            return (
                thread.identity("CodeReviewRefUpdatedByIdentity"),
                [FieldChange(field: AzureDevOpsFields.push, old: nil, new: words)]
            )
        default:
            return nil
        }
    }

    /// Whether a thread tells that `me` was added as a reviewer.
    static func addsReviewer(_ me: String, in threads: [PullRequestThread]) -> Bool {
        threads.contains { thread in
            thread.property("CodeReviewThreadType") == "ReviewersUpdate"
                && (thread.property("CodeReviewReviewersUpdatedAddedIdentity") ?? "")
                    .split(whereSeparator: { $0 == "," || $0 == ";" })
                    .contains { thread.identities?[$0.trimmingSpaces]?.key == me }
        }
    }

    /// A review request told by the pull request's creation, for one that named me a reviewer when it was opened
    /// (no thread says so).
    func requestedAtCreation(_ pull: PullRequest, item: String, myName: String) -> ActivityEvent? {
        guard let at = AzureDevOpsTime.parse(pull.creationDate) else { return nil }
        return ActivityEvent(
            item: item, id: "created", at: at, actor: pull.createdBy?.actor,
            changes: [FieldChange(field: AzureDevOpsFields.reviewRequest, old: nil, new: "added \(myName)")])
    }

    /// Completed or abandoned, by `closedBy`, for a pull request whose threads do not tell it.
    func closed(_ pull: PullRequest, item: String) -> ActivityEvent? {
        guard let status = pull.status, status == "completed" || status == "abandoned",
            let at = AzureDevOpsTime.parse(pull.closedDate)
        else { return nil }
        return ActivityEvent(
            item: item, id: "closed", at: at, actor: pull.closedBy?.actor,
            changes: [FieldChange(field: AzureDevOpsFields.state, old: nil, new: status)])
    }
}

extension AzureDevOpsReference {
    init(project: String, repository: String?, id: Int) {
        self.project = project
        self.repository = repository
        self.id = id
    }

    /// `Web#42`, `Web/web-app!7`.
    var key: String { repository.map { "\(project)/\($0)!\(id)" } ?? "\(project)#\(id)" }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
