#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SourceKit
import TrackwatchCore

/// The fields an issue or pull request is stored and reported with.
enum ForgejoFields {
    static let title = "Title", state = "State", assignees = "Assignees", labels = "Labels", milestone = "Milestone"
    static let reviewRequest = "Review request", type = "Type", comment = "Comment", review = "Review"
    static let push = "Push"

    static let compared = [title, state, assignees, labels, milestone]
    /// The fields whose events say who gave me an item or took it away.
    static let assignment: Set<String> = [assignees, reviewRequest]
}

/// How Forgejo's issues, timelines and reviews become the activity shape (`ActivityDiff`).
struct ForgejoMapping {
    /// My user id.
    let me: String
    /// The web root, for links.
    let web: String

    func item(_ issue: ForgejoIssue, id: String, isMine: Bool, reviewRequested: Bool) -> ActivityItem? {
        guard let reference = issue.reference else { return nil }
        let state = issue.pull_request?.merged == true ? "merged" : SafeText.oneLine(issue.state ?? "", limit: 20)
        var values: [String: String] = [
            ForgejoFields.title: SafeText.oneLine(issue.title ?? "", limit: 500), ForgejoFields.state: state,
            ForgejoFields.assignees: SafeText.list((issue.assignees ?? []).compactMap(\.login), limit: 60),
            ForgejoFields.labels: SafeText.list((issue.labels ?? []).compactMap(\.name), limit: 60),
            ForgejoFields.milestone: SafeText.oneLine(issue.milestone?.title ?? "", limit: 100),
            ForgejoFields.type: issue.isPull ? "Pull request" : "Issue",
            ActivityFields.reviewRequested: reviewRequested ? "yes" : "no",
        ]
        if let updated = Self.time(issue.updated_at) { values[ActivityFields.updated] = updated.rawValue }
        let assigned = (issue.assignees ?? []).contains { $0.id.map(String.init) == me }
        return ActivityItem(
            id: id, record: Record(id: RecordID(reference.key), fields: values),
            isAssignedToMe: assigned || reviewRequested, isMine: isMine,
            facts: ItemFacts(
                headline: values[ForgejoFields.title] ?? "", state: state,
                link: "\(web)/\(reference.repo)/\(issue.isPull ? "pulls" : "issues")/\(reference.number)"))
    }

    /// A timeline entry as an event, or `nil` for kinds that tell nothing to report (references, pins, reviews —
    /// whose verdicts come from `/reviews`).
    /// `type`: for `/comments`' entries, which have none.
    func event(_ entry: ForgejoComment, item: String, type: String? = nil) -> ActivityEvent? {
        func change(_ field: String, _ old: String?, _ new: String?) -> ActivityEvent? {
            guard let id = entry.id, let at = Self.time(entry.created_at) else { return nil }
            let changes = [
                FieldChange(
                    field: field, old: old.map { SafeText.oneLine($0, limit: 200) },
                    new: new.map { SafeText.oneLine($0, limit: 200) })
            ]
            return ActivityEvent(item: item, id: "t\(id)", at: at, actor: entry.user?.actor, changes: changes)
        }
        let verb = entry.removed_assignee == true ? "removed" : "added"
        switch type ?? entry.type ?? "" {
        case "comment": return change(ForgejoFields.comment, nil, SafeText.firstLine(entry.body, limit: 200))
        case "assignees": return change(ForgejoFields.assignees, nil, "\(verb) \(entry.assignee?.login ?? "?")")
        case "review_request":
            let who = entry.assignee?.login ?? entry.assignee_team.map { "team \($0.name ?? "?")" } ?? "?"
            return change(ForgejoFields.reviewRequest, nil, "\(verb) \(who)")
        case "label":
            return change(
                ForgejoFields.labels, nil, "\(entry.body == "1" ? "added" : "removed") \(entry.label?.name ?? "?")")
        case "milestone":
            return change(ForgejoFields.milestone, entry.old_milestone?.title ?? "", entry.milestone?.title ?? "")
        case "change_title": return change(ForgejoFields.title, entry.old_title, entry.new_title)
        case "close": return change(ForgejoFields.state, "open", "closed")
        case "reopen": return change(ForgejoFields.state, "closed", "open")
        case "merge_pull": return change(ForgejoFields.state, "open", "merged")
        case "pull_push":
            let push = try? JSONDecoder().decode(ForgejoPush.self, from: Data((entry.body ?? "").prefix(4_096).utf8))
            let count = push?.commit_ids?.count ?? 0
            let what = push?.is_force_push == true ? "force-pushed" : "pushed \(count) commit\(count == 1 ? "" : "s")"
            return change(ForgejoFields.push, nil, what)
        default: return nil
        }
    }

    /// A submitted review as an event; pending reviews and review requests (`REQUEST_REVIEW` rows) are none.
    func review(_ review: ForgejoReview, item: String) -> ActivityEvent? {
        guard let verdict = review.verdict, let id = review.id, let at = Self.time(review.submitted_at) else {
            return nil
        }
        let body = SafeText.firstLine(review.body, limit: 200)
        let change = FieldChange(
            field: ForgejoFields.review, old: nil, new: body.isEmpty ? verdict : "\(verdict): \(body)")
        return ActivityEvent(item: item, id: "r\(id)", at: at, actor: review.user?.actor, changes: [change])
    }

    /// Where no timeline says who: what differs from the stored state, as one event by no one at `at` (the poll's
    /// start, after every comment read).
    func differences(from stored: Record?, to item: ActivityItem, at: Double) -> [ActivityEvent] {
        guard let stored else { return [] }
        let changes = ForgejoFields.compared.compactMap { field -> FieldChange? in
            let before = stored[field].map(Record.stored), after = item.record[field]
            return before == after ? nil : FieldChange(field: field, old: before, new: after)
        }
        let moment = Timestamp(secondsSinceEpoch: Int(at))
        return changes.isEmpty
            ? [] : [ActivityEvent(item: item.id, id: "d\(Int(at))", at: moment, actor: nil, changes: changes)]
    }

    /// `2026-01-17T12:34:56Z`: what `since` takes.
    static func iso(_ timestamp: Timestamp) -> String { timestamp.rawValue.replacing(" ", with: "T").prefix(19) + "Z" }

    /// RFC 3339 (`2026-01-17T12:34:56Z`, `…+01:00`) in trackwatch's normal form; anything else `nil`.
    static func time(_ text: String?) -> Timestamp? {
        guard let text, text.utf8.count <= 64 else { return nil }
        return Timestamp.parse(text)?.timestamp
    }
}
