import SourceKit
import TrackwatchCore

/// The fields an issue or merge request is stored and reported with.
public enum GitLabFields {
    public static let title = "Title", state = "State", assignees = "Assignees", reviewers = "Review request"
    public static let labels = "Labels", milestone = "Milestone", description = "Description", type = "Type"
    public static let comment = "Comment", approval = "Approval", commits = "Commits", updated = "Updated"
    public static let notes = "Comments", moved = "Moved"
    /// Whether my review is requested (`yes`/`no`).
    static let reviewRequested = "_review"

    /// Compared where no log was read: what the list shows (python-gitlab #743: a quick second change may leave
    /// `updated_at` alone; the list still shows labels, assignees, state, title and the comment count).
    static let compared = [title, state, assignees, labels, milestone, notes]
    static let assignment: Set<String> = [assignees, reviewers]
}

/// How GitLab's issues, merge requests, notes and resource events become the activity shape (`ActivityDiff`).
struct GitLabMapping {
    let me: GitLabUser
    /// The instance's web UI, for links.
    let web: String

    /// The stable id: issues and merge requests count ids apart.
    static func id(_ item: GitLabItem, mergeRequest: Bool) -> String { "\(mergeRequest ? "m" : "i")\(item.id)" }

    func item(_ item: GitLabItem, mergeRequest: Bool, reviewRequested: Bool, isMine: Bool, id: String? = nil)
        -> ActivityItem?
    {
        guard let full = item.references?.full, let reference = GitLabReference(full),
            reference.isMergeRequest == mergeRequest
        else { return nil }
        let state = SafeText.oneLine(item.state ?? "", limit: 20)
        var values: [String: String] = [
            GitLabFields.title: SafeText.oneLine(item.title ?? "", limit: 500), GitLabFields.state: state,
            GitLabFields.assignees: SafeText.list((item.assignees ?? []).compactMap(\.username), limit: 60),
            GitLabFields.labels: SafeText.list(
                item.labels?.values ?? [], limit: 60, isCut: item.labels?.isCut ?? false),
            GitLabFields.milestone: SafeText.oneLine(item.milestone?.title ?? "", limit: 100),
            GitLabFields.notes: String(min(max(item.user_notes_count ?? 0, 0), 1_000_000)),
            GitLabFields.type: mergeRequest ? "Merge request" : "Issue",
            GitLabFields.reviewRequested: reviewRequested ? "yes" : "no",
        ]
        if let updated = ServerTime.parse(item.updated_at) { values[GitLabFields.updated] = updated.rawValue }
        let assigned = (item.assignees ?? []).contains { $0.id == me.id }
        return ActivityItem(
            id: id ?? Self.id(item, mergeRequest: mergeRequest), record: Record(id: RecordID(reference.key), fields: values),
            isAssignedToMe: assigned || reviewRequested, isMine: isMine,
            facts: ItemFacts(
                headline: values[GitLabFields.title] ?? "", priority: Self.priority(item.labels?.values ?? []),
                state: state == "opened" ? "open" : state,
                link: "\(web)/\(reference.project)/-/\(mergeRequest ? "merge_requests" : "issues")/\(reference.iid)"))
    }

    /// A scoped `priority::1` label (GitLab's convention for ranked priorities, `priority::high` too): the item's
    /// priority, so that `min_priority` and the summary's urgent count judge it as Compass's `1-…` or Jira's `High`.
    static func priority(_ labels: [String]) -> String? {
        labels.lazy.compactMap { label -> String? in
            let parts = label.split(separator: "::", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "priority" else { return nil }
            return SafeText.oneLine(String(parts[1]), limit: 40)
        }.first
    }

    /// A note as an event: a comment by its first line; a system note read for who did what (never shown raw),
    /// `nil` for the kinds that tell nothing to report. `stateInNotes`: an old GitLab without resource events
    /// writes closed/reopened/merged as notes.
    func event(_ note: GitLabNote, item: String, stateInNotes: Bool) -> ActivityEvent? {
        guard let at = ServerTime.parse(note.created_at) else { return nil }
        let changes: [FieldChange]
        var anchor: String?
        if note.system == true {
            changes = Self.systemNote(note.body ?? "", stateInNotes: stateInNotes)
            guard !changes.isEmpty else { return nil }
        } else {
            changes = [FieldChange(field: GitLabFields.comment, old: nil, new: SafeText.firstLine(note.body, limit: 200))]
            anchor = "#note_\(note.id)"  // the comment on the item's page, by its numeric id
        }
        return ActivityEvent(
            item: item, id: "n\(note.id)", at: at, actor: note.author?.actor, changes: changes, link: anchor)
    }

    /// A label, state or milestone event.
    func event(_ event: GitLabResourceEvent, kind: String, item: String) -> ActivityEvent? {
        guard let at = ServerTime.parse(event.created_at) else { return nil }
        let added = event.action == "add"
        let change: FieldChange
        switch kind {
        case "label": change = FieldChange(field: GitLabFields.labels, old: nil, new: "\(added ? "added" : "removed") \(SafeText.oneLine(event.label?.name ?? "?", limit: 60))")
        case "milestone":
            let title = SafeText.oneLine(event.milestone?.title ?? "?", limit: 100)
            change = added ? FieldChange(field: GitLabFields.milestone, old: nil, new: title) : FieldChange(field: GitLabFields.milestone, old: title, new: "")
        default:
            let state = SafeText.oneLine(event.state ?? "?", limit: 20)
            change = FieldChange(field: GitLabFields.state, old: nil, new: state)
        }
        return ActivityEvent(item: item, id: "\(kind.prefix(1))\(event.id)", at: at, actor: event.user?.actor, changes: [change])
    }

    /// What a system note says, in field changes; GitLab's wording is no contract, so what is not recognised is
    /// left out rather than shown raw.
    static func systemNote(_ body: String, stateInNotes: Bool) -> [FieldChange] {
        // Cut by scalars: a prefix of characters reads a whole character, and one may hold millions of marks.
        let text = SafeText.head(of: body, scalars: 2_000).head
        if text.hasPrefix("changed title from ") { return [titleChange(text)] }
        if text.hasPrefix("changed the description") { return [FieldChange(field: GitLabFields.description, old: nil, new: nil)] }
        if text.hasPrefix("approved this merge request") { return [FieldChange(field: GitLabFields.approval, old: nil, new: "approved")] }
        if text.hasPrefix("unapproved this merge request") { return [FieldChange(field: GitLabFields.approval, old: nil, new: "revoked")] }
        if text.hasPrefix("added "), text.contains("commit") {
            let count = text.dropFirst("added ".count).prefix { $0.isNumber }
            return [FieldChange(field: GitLabFields.commits, old: nil, new: "added \(count.isEmpty ? "?" : String(count))")]
        }
        for (prefix, direction) in [("moved to ", "to"), ("moved from ", "from")] where text.hasPrefix(prefix) {
            let place = text.dropFirst(prefix.count).split(separator: " ").first.map { SafeText.oneLine(String($0), limit: 120) } ?? "?"
            return [FieldChange(field: GitLabFields.moved, old: nil, new: "\(direction) \(place)")]
        }
        if stateInNotes, let notes = oldStyle(text) { return notes }
        var changes: [FieldChange] = []
        let firstLine = text.split(separator: "\n").first.map(String.init) ?? ""
        for clause in firstLine.split(separator: " and ") {
            for (prefix, field, verb) in [
                ("assigned to ", GitLabFields.assignees, "added"), ("unassigned ", GitLabFields.assignees, "removed"),
                ("requested review from ", GitLabFields.reviewers, "added"),
                ("removed review request for ", GitLabFields.reviewers, "removed"),
            ] where clause.hasPrefix(prefix) {
                let users = String(clause.dropFirst(prefix.count)).replacing("@", with: "")
                changes.append(FieldChange(field: field, old: nil, new: "\(verb) \(SafeText.oneLine(users, limit: 200))"))
            }
        }
        return changes
    }

    /// What a GitLab without resource events writes as notes: state, labels (`added ~bug ~"two words" labels`) and
    /// milestone (`changed milestone to %"v2.0"`, `removed milestone`).
    private static func oldStyle(_ text: String) -> [FieldChange]? {
        let first = text.split(separator: " ").first.map(String.init) ?? ""
        if ["closed", "reopened", "merged"].contains(first) { return [FieldChange(field: GitLabFields.state, old: nil, new: first)] }
        if text.hasPrefix("changed milestone to ") {
            let title = text.dropFirst("changed milestone to ".count).drop { $0 == "%" }.filter { $0 != "\"" }
            return [FieldChange(field: GitLabFields.milestone, old: nil, new: SafeText.oneLine(String(title), limit: 100))]
        }
        if text.hasPrefix("removed milestone") { return [FieldChange(field: GitLabFields.milestone, old: nil, new: "removed")] }
        var changes: [FieldChange] = []
        for clause in text.split(separator: "\n").first.map(String.init)?.split(separator: " and ") ?? [] {
            for verb in ["added", "removed"] where clause.hasPrefix("\(verb) ~") && (clause.hasSuffix(" label") || clause.hasSuffix(" labels")) {
                let names = clause.dropFirst(verb.count + 1).split(separator: " ").dropLast().joined(separator: " ")
                    .split(separator: "~").map { $0.trimmingQuotesAndSpaces }.filter { !$0.isEmpty }
                for name in names { changes.append(FieldChange(field: GitLabFields.labels, old: nil, new: "\(verb) \(SafeText.oneLine(name, limit: 60))")) }
            }
        }
        return changes.isEmpty ? nil : changes
    }

    /// `changed title from **A** to **B**`, read by its markers (never by a word, as " to ", that a title may hold).
    /// GitLab marks what changed inside each title, `{-removed-}` in A and `{+added+}` in B, so that what is left of
    /// A without its removals is B without its additions: that picks the right `** to **` when a title holds one
    /// too. A note that cannot be read still says that the title changed.
    static func titleChange(_ text: String) -> FieldChange {
        let head = "changed title from **", tail = "**", separator = "** to **"
        var note = Substring(text)
        while note.last?.isWhitespace == true { note = note.dropLast() }
        guard note.hasPrefix(head), note.hasSuffix(tail), note.count >= head.count + separator.count + tail.count
        else { return FieldChange(field: GitLabFields.title, old: nil, new: nil) }
        let inner = String(note.dropFirst(head.count).dropLast(tail.count))
        let splits = inner.ranges(of: separator).map { (old: inner[..<$0.lowerBound], new: inner[$0.upperBound...]) }
        let agreeing = splits.filter { without($0.old, "{-", "-}") == without($0.new, "{+", "+}") }
        guard let split = agreeing.count == 1 ? agreeing.first : splits.count == 1 ? splits.first : nil else {
            return FieldChange(field: GitLabFields.title, old: nil, new: nil)
        }
        return FieldChange(
            field: GitLabFields.title, old: SafeText.oneLine(unmarked(split.old, "{-", "-}"), limit: 200),
            new: SafeText.oneLine(unmarked(split.new, "{+", "+}"), limit: 200))
    }

    /// `text` with each `open`…`close` span of GitLab's inline diff taken out, marks and content.
    private static func without(_ text: Substring, _ open: String, _ close: String) -> String {
        marked(text, open, close).filter { !$0.isMarked }.map(\.text).joined()
    }

    /// `text` with the marks of each `open`…`close` span taken out and its content kept.
    private static func unmarked(_ text: Substring, _ open: String, _ close: String) -> String {
        marked(text, open, close).map(\.text).joined()
    }

    /// `text` in runs, each inside a complete `open`…`close` span or outside any; an `open` never closed is text.
    private static func marked(_ text: Substring, _ open: String, _ close: String)
        -> [(text: Substring, isMarked: Bool)]
    {
        var runs: [(text: Substring, isMarked: Bool)] = []
        var rest = text
        while let start = rest.firstRange(of: open), let end = rest[start.upperBound...].firstRange(of: close) {
            runs.append((rest[..<start.lowerBound], false))
            runs.append((rest[start.upperBound..<end.lowerBound], true))
            rest = rest[end.upperBound...]
        }
        runs.append((rest, false))
        return runs
    }
}

extension Substring {
    fileprivate var trimmingQuotesAndSpaces: String {
        String(drop { $0 == " " || $0 == "\"" }.reversed().drop { $0 == " " || $0 == "\"" }.reversed())
    }
}
