#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SourceKit
import TrackwatchCore

/// Forgejo's fields besides a forge's (`ForgeFields`).
enum ForgejoFields {
    static let push = "Push"
}

/// How Forgejo's issues, timelines and reviews become the activity shape (`ActivityDiff`).
struct ForgejoMapping {
    /// My user id.
    let me: String
    /// The web root, for links.
    let web: String

    func item(_ issue: ForgejoIssue, id: String, isMine: Bool, reviewRequested: Bool) -> ActivityItem? {
        issue.reference.map {
            issue.item($0, id: id, me: me, isMine: isMine, reviewRequested: reviewRequested, web: web, pulls: "pulls")
        }
    }

    /// A timeline entry as an event, or `nil` for kinds that tell nothing to report (references, pins, reviews —
    /// whose verdicts come from `/reviews`).
    /// `type`: for `/comments`' entries, which have none.
    func event(_ entry: ForgejoComment, item: String, type: String? = nil) -> ActivityEvent? {
        func change(_ field: String, _ old: String?, _ new: String?) -> ActivityEvent? {
            guard let id = entry.id, let at = ServerTime.parse(entry.created_at) else { return nil }
            let changes = [
                FieldChange(
                    field: field, old: old.map { SafeText.oneLine($0, limit: 200) },
                    new: new.map { SafeText.oneLine($0, limit: 200) })
            ]
            // A comment's place on the item's page, as Forgejo's and Gitea's web pages anchor it.
            return ActivityEvent(
                item: item, id: "t\(id)", at: at, actor: entry.user?.actor, changes: changes,
                link: field == ForgeFields.comment ? "#issuecomment-\(id)" : nil)
        }
        let verb = entry.removed_assignee == true ? "removed" : "added"
        switch type ?? entry.type ?? "" {
        case "comment": return change(ForgeFields.comment, nil, SafeText.firstLine(entry.body, limit: 200))
        case "assignees": return change(ForgeFields.assignees, nil, "\(verb) \(entry.assignee?.login ?? "?")")
        case "review_request":
            let who = entry.assignee?.login ?? entry.assignee_team.map { "team \($0.name ?? "?")" } ?? "?"
            return change(ForgeFields.reviewRequest, nil, "\(verb) \(who)")
        case "label":
            return change(
                ForgeFields.labels, nil, "\(entry.body == "1" ? "added" : "removed") \(entry.label?.name ?? "?")")
        case "milestone":
            return change(ForgeFields.milestone, entry.old_milestone?.title ?? "", entry.milestone?.title ?? "")
        case "change_title": return change(ForgeFields.title, entry.old_title, entry.new_title)
        case "close": return change(ForgeFields.state, "open", "closed")
        case "reopen": return change(ForgeFields.state, "closed", "open")
        case "merge_pull": return change(ForgeFields.state, "open", "merged")
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
        guard let verdict = review.verdict, let id = review.id, let at = ServerTime.parse(review.submitted_at) else {
            return nil
        }
        let body = SafeText.firstLine(review.body, limit: 200)
        let change = FieldChange(
            field: ForgeFields.review, old: nil, new: body.isEmpty ? verdict : "\(verdict): \(body)")
        return ActivityEvent(item: item, id: "r\(id)", at: at, actor: review.user?.actor, changes: [change])
    }

    /// Where no timeline says who: what differs from the stored state, as one event by no one at `at` (the poll's
    /// start, after every comment read).
    func differences(from stored: Record?, to item: ActivityItem, at: Double) -> [ActivityEvent] {
        guard let stored else { return [] }
        let changes = ForgeFields.compared.compactMap { field -> FieldChange? in
            let before = stored[field].map(Record.stored), after = item.record[field]
            return before == after ? nil : FieldChange(field: field, old: before, new: after)
        }
        let moment = Timestamp(secondsSinceEpoch: Int(at))
        return changes.isEmpty
            ? [] : [ActivityEvent(item: item.id, id: "d\(Int(at))", at: moment, actor: nil, changes: changes)]
    }
}
