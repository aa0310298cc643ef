import SourceKit
import TrackwatchCore

/// GitHub's fields besides a forge's (`ForgeFields`).
enum GitHubFields {
    static let commit = "Commit"
    /// The last commit of a pull request seen in its timeline.
    static let head = "_head"
}

/// How GitHub's issues, pull requests and timelines become the activity shape (`ActivityDiff`).
struct GitHubMapping {
    let me: ActivityIdentity
    /// The web UI (`https://github.com`), for links.
    let web: String

    /// An issue or pull request as one of my items; `nil` without a valid reference.
    func item(_ issue: GitHubIssue, reviewRequested: Bool, isMine: Bool, id: String? = nil) -> ActivityItem? {
        issue.reference.map {
            issue.item(
                $0, id: id ?? String(issue.id), me: me.id, isMine: isMine,
                reviewRequested: reviewRequested, web: web, pulls: "pull")
        }
    }

    /// A timeline item as an event, or `nil` for kinds that tell nothing to report (mentions, references, …).
    func event(_ item: GitHubTimelineItem, issue: String) -> ActivityEvent? {
        let actor = (item.actor ?? item.user)?.actor
        func make(_ prefix: String, _ field: String, _ old: String?, _ new: String?, at: String? = nil)
            -> ActivityEvent?
        {
            guard let id = item.id, let time = ServerTime.parse(at ?? item.created_at) else { return nil }
            // A comment and a review are anchors of the item's page, by their numeric id (as their `html_url`).
            let anchor = ["c": "#issuecomment-", "r": "#pullrequestreview-"][prefix].map { "\($0)\(id)" }
            let change = FieldChange(
                field: field, old: old.map { SafeText.oneLine($0, limit: 200) },
                new: new.map { SafeText.oneLine($0, limit: 200) })
            // A comment and a review are their `user`'s; other events their `actor`'s.
            let by = prefix == "e" ? actor : item.user?.actor ?? actor
            return ActivityEvent(
                item: issue, id: "\(prefix)\(id)", at: time, actor: by, changes: [change], link: anchor)
        }
        func change(_ field: String, _ old: String?, _ new: String?) -> ActivityEvent? { make("e", field, old, new) }
        switch item.event ?? "" {
        case "assigned": return change(ForgeFields.assignees, nil, "added \(item.assignee?.login ?? "?")")
        case "unassigned": return change(ForgeFields.assignees, nil, "removed \(item.assignee?.login ?? "?")")
        case "review_requested": return change(ForgeFields.reviewRequest, nil, "added \(Self.reviewer(item))")
        case "review_request_removed": return change(ForgeFields.reviewRequest, nil, "removed \(Self.reviewer(item))")
        case "renamed": return change(ForgeFields.title, item.rename?.from, item.rename?.to)
        case "labeled": return change(ForgeFields.labels, nil, "added \(item.label?.name ?? "?")")
        case "unlabeled": return change(ForgeFields.labels, nil, "removed \(item.label?.name ?? "?")")
        case "milestoned": return change(ForgeFields.milestone, nil, item.milestone?.title)
        case "demilestoned": return change(ForgeFields.milestone, item.milestone?.title, "")
        case "closed": return change(ForgeFields.state, "open", "closed")
        case "reopened": return change(ForgeFields.state, "closed", "open")
        case "merged": return change(ForgeFields.state, "open", "merged")
        case "head_ref_force_pushed":
            // Who pushed and when: a rebase's commits carry the rebase's (older) committer date, and read by it
            // they fell before the last poll and went unreported.
            let head = item.commit_id.flatMap(Self.shortSHA).map { " \($0)" } ?? ""
            return change(GitHubFields.commit, nil, "force-pushed\(head)")
        case "commented": return make("c", ForgeFields.comment, nil, SafeText.firstLine(item.body, limit: 200))
        case "reviewed": return make("r", ForgeFields.review, nil, Self.verdict(item), at: item.submitted_at)
        default: return nil
        }
    }

    /// A commit on a pull request, named by its git author (REST does not say who pushed); mine where its author
    /// has my name, login or e-mail. `at` is when it counts as seen (the tracker decides: see `GitHubTracker`).
    func commit(_ item: GitHubTimelineItem, issue: String, at: Timestamp) -> ActivityEvent? {
        guard let sha = item.sha, let short = Self.shortSHA(sha) else { return nil }
        let author = item.author ?? item.committer
        let name = SafeText.oneLine(author?.name ?? "someone", limit: 80)
        let mine = [me.name, me.login, me.email].filter { !$0.isEmpty }.map { $0.lowercased() }
        let isMe = mine.contains(name.lowercased()) || mine.contains((author?.email ?? "").lowercased())
        let id = isMe ? me.id : "git:\(SafeText.oneLine(author?.email ?? name, limit: 120))"
        let line = "\(short) \(SafeText.firstLine(item.message, limit: 200))"
        return ActivityEvent(
            item: issue, id: "s\(sha)", at: at, actor: Actor(id: id, name: name),
            changes: [FieldChange(field: GitHubFields.commit, old: nil, new: SafeText.oneLine(line, limit: 200))])
    }

    /// The first seven digits of a commit's sha, or `nil` when it is not one (hex, 7 to 64 digits).
    static func shortSHA(_ sha: String) -> String? {
        guard sha.utf8.count >= 7, sha.utf8.count <= 64,
            sha.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        return String(sha.prefix(7))
    }

    static func reviewer(_ item: GitHubTimelineItem) -> String {
        if let login = item.requested_reviewer?.login { return SafeText.oneLine(login, limit: 60) }
        return "team " + SafeText.oneLine(item.requested_team?.name ?? item.requested_team?.slug ?? "?", limit: 60)
    }

    static func verdict(_ item: GitHubTimelineItem) -> String {
        let body = SafeText.firstLine(item.body, limit: 200)
        let verdict = ["approved": "approved", "changes_requested": "changes requested"][item.state?.lowercased() ?? ""]
            ?? "commented"
        return body.isEmpty ? verdict : "\(verdict): \(body)"
    }
}
