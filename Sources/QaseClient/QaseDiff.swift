import TrackwatchCore

/// The person trackwatch runs as, in each of Qase's namespaces (qase-api.md §2): plan assignees are users,
/// creators and editors are authors, reviewers are author UUIDs.
public struct QaseMe: Equatable, Sendable {
    public var userID: Int
    public var authorID: Int
    public var uuid: String
    public var name: String

    public init(userID: Int, authorID: Int, uuid: String, name: String) {
        self.userID = userID
        self.authorID = authorID
        self.uuid = uuid.lowercased()
        self.name = name
    }
}

/// What one watch of a Qase source saw in one poll.
public struct QaseObservation: Sendable {
    /// Every item read, with a marker (`DEMO/project`) for each project asked.
    public var records: [Record]
    /// Segments read whole: an item of one of them missing now has left.
    public var asked: Set<QaseSegment>
    /// Segments read only where recently updated: an item missing from them is unchanged. Everything else — a
    /// project not asked, a part the server cannot answer — keeps what it had: a part that cannot be asked never
    /// looks empty.
    public var windowed: Set<QaseSegment> = []
    /// Old project code → new code, for projects renamed since the last poll.
    public var renames: [String: String] = [:]
    /// A test case's last editor (author id), where QQL said.
    public var editors: [RecordID: Int] = [:]
    /// Stored as the watch's checkpoint (the start of the window of the next poll).
    public var checkpoint: Timestamp?

    public init(records: [Record], asked: Set<QaseSegment>) {
        self.records = records
        self.asked = asked
    }
}

/// How a watch's differences are reported.
public enum QaseRule: Sendable {
    /// Items assigned to me: `assigned` when one becomes mine (a plan also when another of its cases does),
    /// `unassigned` when it stops, `modified` (by whom Qase does not say) when a compared field changes.
    case assigned
    /// Items I created, changed by someone else: a case by its last editor (my own edits are silent), a defect
    /// by nobody named, a review by the reviewers whose verdict changed. `excluded`: items the assigned watch
    /// reports already; `names`: people's names by author id or UUID.
    case mine(me: QaseMe, excluded: Set<RecordID>, names: [String: String])
}

/// Compares a watch's observation with its stored snapshot. A pure function of its inputs.
public enum QaseDiff {
    public static func compare(previous: Snapshot?, observation: QaseObservation, rule: QaseRule) -> DiffOutcome {
        let current = Snapshot(observation.records).sortedRecords
        guard let previous else {
            return DiffOutcome(
                changes: [], delta: SnapshotDelta(upserts: current), isBaseline: true, newlySeen: [],
                checkpoint: observation.checkpoint, silentUpdates: 0)
        }
        let (stored, renamedAway) = renamed(previous, observation.renames)
        var outcome = DiffOutcome(
            changes: [], delta: SnapshotDelta(removals: renamedAway), isBaseline: false,
            newlySeen: [], checkpoint: observation.checkpoint, silentUpdates: 0)
        let moved = Set(observation.renames.values)
        let newProjects = Set(
            observation.asked.filter { $0.item == .project && stored.record(QaseKey.project($0.project)) == nil }
                .map(\.project))
        var seen = Set<RecordID>(), exits: [Change] = []
        for record in current {
            seen.insert(record.id)
            let project = QaseKey.parse(record.id)?.segment.project ?? ""
            guard let before = stored.record(record.id) else {
                outcome.delta.upserts.append(record)
                // A project seen for the first time is a silent baseline of its own.
                if case .assigned = rule, !newProjects.contains(project), QaseRecords.isAssigned(record) {
                    outcome.changes.append(change(record, .assigned))
                }
                continue
            }
            let same = before.hasSameFields(as: record)
            if !same || moved.contains(project) { outcome.delta.upserts.append(record) }
            // The same fields make no difference under either rule: only the others are compared field by field
            // (every item's every field looked up twice was half the diff's 9 % of a steady poll).
            guard !newProjects.contains(project), !same else { continue }
            if let found = difference(before, record, rule: rule, observation: observation) {
                outcome.changes.append(found)
            } else {
                outcome.silentUpdates += 1
            }
        }
        for before in stored.sortedRecords where !seen.contains(before.id) {
            let segment = QaseKey.parse(before.id)?.segment
            guard let segment, observation.asked.contains(segment), !observation.windowed.contains(segment) else {
                // Not asked this time: kept as it was (under its project's new code, if renamed).
                if moved.contains(segment?.project ?? "") { outcome.delta.upserts.append(before) }
                continue
            }
            outcome.delta.removals.append(before.id)
            if case .assigned = rule, QaseRecords.isAssigned(before) { exits.append(change(before, .unassigned)) }
        }
        outcome.changes += exits
        return outcome
    }

    /// `previous` with the keys of renamed projects under their new codes, and the old keys to remove.
    static func renamed(_ previous: Snapshot, _ renames: [String: String]) -> (Snapshot, [RecordID]) {
        guard !renames.isEmpty else { return (previous, []) }
        var removals: [RecordID] = []
        let records = previous.sortedRecords.map { record -> Record in
            guard let project = QaseKey.parse(record.id)?.segment.project, let new = renames[project] else {
                return record
            }
            removals.append(record.id)
            var fields = record.fields
            // A plan names its cases by key too.
            if let cases = fields[QaseFields.yourCases], !cases.isEmpty {
                fields[QaseFields.yourCases] = cases.split(separator: ", ").map {
                    QaseKey.renamed(RecordID(String($0)), from: project, to: new).rawValue
                }.joined(separator: ", ")
            }
            return Record(id: QaseKey.renamed(record.id, from: project, to: new), fields: fields)
        }
        return (Snapshot(records), removals)
    }

    /// The change of an item seen before and now, or `nil` when none is reported.
    static func difference(_ before: Record, _ record: Record, rule: QaseRule, observation: QaseObservation) -> Change?
    {
        guard let item = QaseKey.parse(record.id)?.segment.item, item != .project else { return nil }
        let fields = QaseFields.compared(item, in: record).compactMap { field -> FieldChange? in
            before[field] == record[field] ? nil : FieldChange(field: field, old: before[field], new: record[field])
        }
        switch rule {
        case .assigned:
            let (was, isNow) = (QaseRecords.isAssigned(before), QaseRecords.isAssigned(record))
            if !was && isNow { return change(record, .assigned) }
            if was && !isNow { return change(record, .unassigned) }
            guard was, !fields.isEmpty else { return nil }
            // A case newly mine in a plan that held one of mine already: assigned again, its cases shown.
            if item == .plan, gainsCases(before, record) { return change(record, .assigned, fields: fields) }
            return change(record, .modified, fields: fields, action: action(item, fields))
        case .mine(let me, let excluded, let names):
            guard !excluded.contains(record.id) else { return nil }
            if item == .review { return reviewChange(before, record, fields: fields, names: names) }
            guard !fields.isEmpty else { return nil }
            guard item == .testCase else {
                return change(record, .modified, fields: fields, action: action(item, fields))
            }
            let editor = observation.editors[record.id]
            if editor == me.authorID { return nil }  // my own edit
            return change(
                record, .modified, fields: fields, action: action(item, fields),
                by: editor.flatMap { names[String($0)] })
        }
    }

    /// Whether a plan's cases assigned to me include one they did not before.
    static func gainsCases(_ before: Record, _ record: Record) -> Bool {
        func cases(_ plan: Record) -> Set<Substring> {
            Set((plan[QaseFields.yourCases] ?? "").split(separator: ", "))
        }
        return !cases(record).isSubset(of: cases(before))
    }

    /// A review I wrote: reviewers' verdicts by name, then its own fields.
    static func reviewChange(_ before: Record, _ record: Record, fields: [FieldChange], names: [String: String])
        -> Change?
    {
        let verdictKeys = Set(before.fields.keys).union(record.fields.keys).filter {
            $0.hasPrefix(QaseFields.verdictPrefix)
        }
        var verdicts: [(name: String, change: FieldChange)] = []
        for key in verdictKeys.sorted() where before[key] != nil && record[key] != nil && before[key] != record[key] {
            let name = names[String(key.dropFirst(QaseFields.verdictPrefix.count))] ?? "a reviewer"
            verdicts.append((name, FieldChange(field: "Verdict of \(name)", old: before[key], new: record[key])))
        }
        guard !verdicts.isEmpty || !fields.isEmpty else { return nil }
        let actions = Set(verdicts.map { verdictAction($0.change.new) })
        let reviewers = Array(Set(verdicts.map(\.name))).sorted()
        let by = verdicts.isEmpty ? nil : reviewers.joined(separator: " and ")
        let action = verdicts.isEmpty ? Self.action(.review, fields) : (actions.count == 1 ? actions.first ?? nil : nil)
        // One reviewer is named by the sentence ("approved by Dave Diaz"): the field need not name them again.
        let named = reviewers.count == 1
            ? verdicts.map { FieldChange(field: "Verdict", old: $0.change.old, new: $0.change.new) } : verdicts.map(\.change)
        return change(record, .modified, fields: named + fields, action: action, by: by)
    }

    static func verdictAction(_ verdict: String?) -> String? {
        switch verdict {
        case "Approved": "approve"
        case "Changes requested": "request_changes"
        case "Unapproved": "unapprove"
        default: nil
        }
    }

    /// The verb of a status change (`resolve`, `merge`, …); an edit of a case; otherwise none ("changed").
    static func action(_ item: QaseItem, _ fields: [FieldChange]) -> String? {
        let status = fields.first { $0.field == QaseFields.status }
        switch (item, status?.new) {
        case (.defect, "Resolved"): return "resolve"
        case (.defect, "Invalid"): return "invalidate"
        case (.defect, "In progress"): return "start"
        case (.defect, "Open"), (.review, "Open"): return "reopen"
        case (.review, "Merged"): return "merge"
        case (.review, "Declined"): return "decline"
        case (.testCase, "Deprecated"): return "deprecate"
        case (.testCase, _): return "edit"
        default: return nil
        }
    }

    static func change(
        _ record: Record, _ kind: ChangeKind, fields: [FieldChange] = [], action: String? = nil,
        by: String? = nil
    ) -> Change {
        let facts = QaseRecords.facts(record)
        var change = Change(
            record: record.id, kind: kind, headline: facts.headline, by: by, action: action, changes: fields,
            priority: facts.priority, severity: facts.severity, state: facts.state)
        change.stateField = facts.stateField
        return change
    }

    /// The people whose names the `mine` rule needs for these differences: editors of changed cases (author ids)
    /// and reviewers whose verdict changed (UUIDs); never me.
    public static func namesNeeded(previous: Snapshot?, observation: QaseObservation, me: QaseMe) -> Set<String> {
        guard let previous else { return [] }
        let (stored, _) = renamed(previous, observation.renames)
        var needed = Set<String>()
        for record in observation.records {
            guard let before = stored.record(record.id), !before.hasSameFields(as: record),
                let item = QaseKey.parse(record.id)?.segment.item
            else { continue }
            if item == .testCase, let editor = observation.editors[record.id], editor != me.authorID {
                needed.insert(String(editor))
            } else if item == .review {
                for key in record.fields.keys
                where key.hasPrefix(QaseFields.verdictPrefix) && before[key] != record[key] {
                    needed.insert(String(key.dropFirst(QaseFields.verdictPrefix.count)))
                }
            }
        }
        return needed
    }
}
