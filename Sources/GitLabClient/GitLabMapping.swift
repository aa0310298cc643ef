import SourceKit
import TrackwatchCore

/// GitLab's fields besides a forge's (`ForgeFields`).
enum GitLabFields {
    static let description = "Description", approval = "Approval", commits = "Commits", notes = "Comments"
    static let moved = "Moved"

    /// Compared where no log was read: what the list shows (python-gitlab #743: a quick second change may leave
    /// `updated_at` alone; the list still shows labels, assignees, state, title and the comment count).
    static let compared = ForgeFields.compared + [notes]
}

/// How GitLab's issues, merge requests, notes and resource events become the activity shape (`ActivityDiff`).
struct GitLabMapping {
    let me: ActivityIdentity
    /// The instance's web UI, for links.
    let web: String

    /// The stable id: issues and merge requests count ids apart.
    static func id(_ item: GitLabItem, mergeRequest: Bool) -> String { "\(mergeRequest ? "m" : "i")\(item.id)" }

    func item(_ item: GitLabItem, mergeRequest: Bool, reviewRequested: Bool, isMine: Bool, id: String? = nil)
        -> ActivityItem?
    {
        guard let reference = item.reference, reference.isMergeRequest == mergeRequest else { return nil }
        let state = SafeText.oneLine(item.state ?? "", limit: 20)
        var values: [String: String] = [
            ForgeFields.title: SafeText.oneLine(item.title ?? "", limit: 500), ForgeFields.state: state,
            ForgeFields.assignees: SafeText.list((item.assignees ?? []).compactMap(\.username), limit: 60),
            ForgeFields.labels: SafeText.list(
                item.labels?.values ?? [], limit: 60, isCut: item.labels?.isCut ?? false),
            ForgeFields.milestone: SafeText.oneLine(item.milestone?.title ?? "", limit: 100),
            GitLabFields.notes: String(min(max(item.user_notes_count ?? 0, 0), 1_000_000)),
            ForgeFields.type: mergeRequest ? "Merge request" : "Issue",
            ActivityFields.reviewRequested: reviewRequested ? "yes" : "no",
        ]
        if let updated = ServerTime.parse(item.updated_at) { values[ActivityFields.updated] = updated.rawValue }
        let assigned = (item.assignees ?? []).contains { $0.id.map(String.init) == me.id }
        return ActivityItem(
            id: id ?? Self.id(item, mergeRequest: mergeRequest), record: Record(id: RecordID(reference.key), fields: values),
            isAssignedToMe: assigned || reviewRequested, isMine: isMine,
            facts: ItemFacts(
                headline: values[ForgeFields.title] ?? "", priority: Self.priority(item.labels?.values ?? []),
                state: state == "opened" ? "open" : state,
                link: "\(web)/\(reference.webPath)"))
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
        let system = note.system == true
        let changes = system
            ? Self.systemNote(note.body ?? "", stateInNotes: stateInNotes)
            : [FieldChange(field: ForgeFields.comment, old: nil, new: SafeText.firstLine(note.body, limit: 200))]
        guard !changes.isEmpty else { return nil }
        // A comment is its anchor on the item's page, by its numeric id.
        return ActivityEvent(
            item: item, id: "n\(note.id)", at: at, actor: note.author?.actor, changes: changes,
            link: system ? nil : "#note_\(note.id)")
    }

    /// A label, state or milestone event.
    func event(_ event: GitLabResourceEvent, kind: String, item: String) -> ActivityEvent? {
        guard let at = ServerTime.parse(event.created_at) else { return nil }
        let added = event.action == "add"
        let change: FieldChange
        switch kind {
        case "label":
            let name = SafeText.oneLine(event.label?.name ?? "?", limit: 60)
            change = FieldChange(field: ForgeFields.labels, old: nil, new: "\(added ? "added" : "removed") \(name)")
        case "milestone":
            let title = SafeText.oneLine(event.milestone?.title ?? "?", limit: 100)
            change = FieldChange(field: ForgeFields.milestone, old: added ? nil : title, new: added ? title : "")
        default:
            let state = SafeText.oneLine(event.state ?? "?", limit: 20)
            change = FieldChange(field: ForgeFields.state, old: nil, new: state)
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
                ("assigned to ", ForgeFields.assignees, "added"), ("unassigned ", ForgeFields.assignees, "removed"),
                ("requested review from ", ForgeFields.reviewRequest, "added"),
                ("removed review request for ", ForgeFields.reviewRequest, "removed"),
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
        if ["closed", "reopened", "merged"].contains(first) { return [FieldChange(field: ForgeFields.state, old: nil, new: first)] }
        if text.hasPrefix("changed milestone to ") {
            let title = text.dropFirst("changed milestone to ".count).drop { $0 == "%" }.filter { $0 != "\"" }
            return [FieldChange(field: ForgeFields.milestone, old: nil, new: SafeText.oneLine(String(title), limit: 100))]
        }
        if text.hasPrefix("removed milestone") { return [FieldChange(field: ForgeFields.milestone, old: nil, new: "removed")] }
        var changes: [FieldChange] = []
        for clause in text.split(separator: "\n").first.map(String.init)?.split(separator: " and ") ?? [] {
            for verb in ["added", "removed"] where clause.hasPrefix("\(verb) ~") && (clause.hasSuffix(" label") || clause.hasSuffix(" labels")) {
                let names = clause.dropFirst(verb.count + 1).split(separator: " ").dropLast().joined(separator: " ")
                    .split(separator: "~").map { $0.trimmingQuotesAndSpaces }.filter { !$0.isEmpty }
                for name in names { changes.append(FieldChange(field: ForgeFields.labels, old: nil, new: "\(verb) \(SafeText.oneLine(name, limit: 60))")) }
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
        else { return FieldChange(field: ForgeFields.title, old: nil, new: nil) }
        let inner = String(note.dropFirst(head.count).dropLast(tail.count))
        let splits = inner.ranges(of: separator).map { (old: inner[..<$0.lowerBound], new: inner[$0.upperBound...]) }
        let agreeing = splits.filter {
            unmarked($0.old, "{-", "-}", dropping: true) == unmarked($0.new, "{+", "+}", dropping: true)
        }
        guard let split = agreeing.count == 1 ? agreeing.first : splits.count == 1 ? splits.first : nil else {
            return FieldChange(field: ForgeFields.title, old: nil, new: nil)
        }
        return FieldChange(
            field: ForgeFields.title, old: SafeText.oneLine(unmarked(split.old, "{-", "-}"), limit: 200),
            new: SafeText.oneLine(unmarked(split.new, "{+", "+}"), limit: 200))
    }

    /// `text` with the marks of each `open`…`close` span of GitLab's inline diff taken out; its content kept, or
    /// taken out too (`dropping`).
    private static func unmarked(_ text: Substring, _ open: String, _ close: String, dropping: Bool = false) -> String {
        marked(text, open, close).filter { !(dropping && $0.isMarked) }.map(\.text).joined()
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
