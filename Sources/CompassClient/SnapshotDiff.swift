import TrackwatchCore

/// What one poll saw: the *assigned to me* records and the *modified by others* history rows.
public struct PollObservation: Equatable, Sendable {
    public var records: [Record]
    public var history: [HistoryEntry]

    public init(records: [Record], history: [HistoryEntry]) {
        self.records = records
        self.history = history
    }
}

/// `DiffOutcome` and the history entries dated later than any zone allows (`HistoryWindow.latestPlausible`): diffed
/// and remembered like any other, but they did not move the checkpoint (logged, for the administrator).
@dynamicMemberLookup
public struct HistoryDiffOutcome: Equatable, Sendable {
    public var outcome: DiffOutcome
    public var implausible: [HistoryEntry] = []

    public subscript<Value>(dynamicMember path: WritableKeyPath<DiffOutcome, Value>) -> Value {
        get { outcome[keyPath: path] }
        set { outcome[keyPath: path] = newValue }
    }
}

/// Compares one poll with the previous snapshot and the history already seen.
///
/// The history query returns every entry of the records I own since well before the checkpoint (`HistoryWindow`),
/// mine and my colleagues'. Entries already seen are skipped by their key. Rules: a record entering the set is
/// `assigned` when a colleague's unseen entry explains it, and silent when only my own does (I took it). A record
/// leaving the set is `unassigned`. A record that stays is `modified` when a colleague acted on it, carrying
/// every field that changed; a change that only my own entries explain is stored silently. A change that no
/// entry explains at all (an entry the server did not return) is reported too, without a name: it is never
/// taken for my own edit. One record yields at most one change per poll.
public enum SnapshotDiff {
    /// - Parameters:
    ///   - me: my login name; history entries by this user (in any letter case) are my own.
    ///   - seenUpTo: entries up to this timestamp count as seen even without a stored key (the first poll of state
    ///     written by a version with a narrower window, whose keys were pruned sooner).
    ///   - latestPlausible: entries dated later than this never move the checkpoint (`HistoryWindow.latestPlausible`).
    public static func compare(
        previous: Snapshot?, seen: Set<HistoryKey>, observation: PollObservation,
        previousCheckpoint: Timestamp?, me: String, seenUpTo: Timestamp? = nil,
        latestPlausible: Timestamp? = nil, compared: [String] = WatchQueries.comparedFields
    ) -> HistoryDiffOutcome {
        let current = Snapshot(observation.records)
        var checkpoint = previousCheckpoint
        var unseenByRecord: [RecordID: [HistoryEntry]] = [:]
        var newlySeen: [HistoryKey] = []
        var implausible: [HistoryEntry] = []
        // Identical entries are numbered over the whole window, as the server returned it, so that their keys do
        // not depend on which records are in the set.
        for (entry, key) in zip(observation.history, HistoryEntry.keys(of: observation.history)) {
            // History rows for records outside the set raced with a reassignment: leave them for the next poll.
            guard current.record(entry.record) != nil else { continue }
            let isPlausible = latestPlausible.map { entry.timestamp <= $0 } ?? true
            if isPlausible, checkpoint.map({ entry.timestamp > $0 }) ?? true { checkpoint = entry.timestamp }
            guard !seen.contains(key) else { continue }
            newlySeen.append(key)
            if !isPlausible { implausible.append(entry) }
            if let seenUpTo, entry.timestamp <= seenUpTo { continue }
            unseenByRecord[entry.record, default: []].append(entry)
        }
        guard let previous else {
            return HistoryDiffOutcome(
                outcome: DiffOutcome(
                    changes: [], delta: SnapshotDelta(upserts: current.sortedRecords),
                    isBaseline: true, newlySeen: newlySeen, checkpoint: checkpoint, silentUpdates: 0),
                implausible: implausible)
        }
        var outcome = DiffOutcome(
            changes: [], delta: SnapshotDelta(), isBaseline: false, newlySeen: newlySeen, checkpoint: checkpoint,
            silentUpdates: 0)
        let mine = me.lowercased()
        // Both snapshots are in id order: walk them side by side. Records that stay the same, nearly all of
        // them, cost one comparison of their canonical bytes.
        let new = current.sortedRecords, old = previous.sortedRecords
        var unassigned: [Change] = []
        var oldIndex = 0
        for record in new {
            while oldIndex < old.count, old[oldIndex].id < record.id {
                leaving(old[oldIndex], into: &outcome, &unassigned)
                oldIndex += 1
            }
            var stayed: Record?
            if oldIndex < old.count, old[oldIndex].id == record.id {
                stayed = old[oldIndex]
                oldIndex += 1
            }
            let entries = unseenByRecord[record.id]
            if let stayed, entries == nil, stayed.hasSameFields(as: record) { continue }
            let sorted = (entries ?? []).sorted { $0.timestamp < $1.timestamp }
            compare(record, old: stayed, entries: sorted, mine: mine, compared: compared, into: &outcome)
        }
        while oldIndex < old.count {
            leaving(old[oldIndex], into: &outcome, &unassigned)
            oldIndex += 1
        }
        outcome.changes += unassigned
        return HistoryDiffOutcome(outcome: outcome, implausible: implausible)
    }

    /// Records that stayed in the set with the same fields although an unseen history entry says someone acted
    /// on them: the action may have landed between the two queries of the poll, after the records were read.
    /// Reading these records again lets the change carry its field changes now, instead of a later poll finding
    /// the fields changed with no entry left to explain them.
    public static func secondLook(previous: Snapshot?, seen: Set<HistoryKey>, observation: PollObservation) -> [RecordID] {
        guard let previous else { return [] }
        let current = Snapshot(observation.records)
        var ids = Set<RecordID>()
        let keys = HistoryEntry.keys(of: observation.history)
        for (entry, key) in zip(observation.history, keys) where !seen.contains(key) && !ids.contains(entry.record) {
            guard let now = current.record(entry.record), let before = previous.record(entry.record),
                now.hasSameFields(as: before)
            else { continue }
            ids.insert(entry.record)
        }
        return ids.sorted()
    }

    private static func leaving(_ old: Record, into outcome: inout DiffOutcome, _ unassigned: inout [Change]) {
        outcome.delta.removals.append(old.id)
        unassigned.append(
            Change(record: old.id, kind: .unassigned, headline: old.headline,
                   priority: old["Priority"], severity: old["Severity"], state: old["State"]))
    }

    private static func compare(
        _ record: Record, old: Record?, entries: [HistoryEntry], mine: String, compared: [String],
        into outcome: inout DiffOutcome
    ) {
        let fieldChanges = old.map { Self.fieldChanges(from: $0, to: record, compared: compared) } ?? []
        let changed = old == nil || !fieldChanges.isEmpty
        // Stored whenever it differs, also where nothing compared changed: a field compared from now on is adopted.
        if changed || old.map({ !$0.hasSameFields(as: record) }) == true { outcome.delta.upserts.append(record) }
        let colleagues = entries.filter { $0.user.lowercased() != mine }
        let cause = old == nil ? assigner(colleagues) : colleagues.last
        if cause == nil, !entries.isEmpty {
            // Only my own entries: my own doing.
            if changed { outcome.silentUpdates += 1 }
            return
        }
        guard changed || cause != nil else { return }
        // With no entry at all, the change is reported without a name rather than taken for mine.
        outcome.changes.append(
            Change(
                record: record.id, kind: old == nil ? .assigned : .modified, headline: record.headline,
                by: cause?.user, action: cause?.action, changes: fieldChanges, at: cause?.timestamp,
                priority: record["Priority"], severity: record["Severity"], state: record["State"]))
        if cause == nil { outcome.unexplained += 1 }
    }

    /// Who put an entering record in my hands: whoever assigned it in the hour before the last action (a colleague
    /// who assigns and another who edits a minute later), else whoever acted last. A record entering the set
    /// brings its older history into the window too, and an Assign from days ago is not what made it mine.
    private static func assigner(_ entries: [HistoryEntry]) -> HistoryEntry? {
        guard let last = entries.last, let end = last.timestamp.secondsSinceEpoch else { return entries.last }
        let assign = entries.last { entry in
            entry.action == "Assign" && entry.timestamp.secondsSinceEpoch.map { end - $0 <= 3_600 } ?? false
        }
        return assign ?? last
    }

    /// The compared fields whose values differ, in a stable order. A field the old record lacks was not compared
    /// then (an upgrade, a field added to `extra_fields`): it is adopted silently. A new note reads as its first line
    /// (`Note`).
    public static func fieldChanges(
        from old: Record, to new: Record, compared: [String] = WatchQueries.comparedFields
    ) -> [FieldChange] {
        if old.hasSameFields(as: new) { return [] }
        return compared.compactMap { field in
            // A value stored whole by an earlier version compares as it would be stored now (`Record.stored`).
            guard let before = old[field].map(Record.stored) else { return nil }
            let after = new[field]
            guard before != after else { return nil }
            if field == WatchQueries.notesLog {
                return FieldChange(field: "Note", old: nil, new: after.flatMap(NotesLog.newestLine(ofSummary:)) ?? "")
            }
            return FieldChange(field: field, old: before, new: after)
        }
    }
}
