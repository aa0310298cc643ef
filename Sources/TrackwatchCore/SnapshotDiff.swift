/// What one poll saw: the *assigned to me* records and the *modified by others* history rows.
public struct PollObservation: Equatable, Sendable {
    public var records: [Record]
    public var history: [HistoryEntry]

    public init(records: [Record], history: [HistoryEntry]) {
        self.records = records
        self.history = history
    }
}

/// The outcome of comparing a poll with the persisted state; everything a `PollCommit` needs.
public struct DiffOutcome: Equatable, Sendable {
    public var changes: [Change]
    public var delta: SnapshotDelta
    public var isBaseline: Bool
    public var newlySeen: [HistoryKey]
    public var checkpoint: CompassTimestamp?
    /// Records whose fields changed by my own hand: stored silently.
    public var silentUpdates: Int
}

/// Compares one poll with the previous snapshot and the history already seen.
///
/// Rules: a record entering the set is `assigned` when a colleague's unseen history entry explains it, and
/// silent otherwise (the history query returns every colleague's action since the checkpoint, so no entry
/// means I took it myself). A record leaving the set is `unassigned`. A record that stays is `modified` when a
/// colleague acted on it, carrying every field that changed; changes without a colleague's action are my own
/// edits and are stored silently. One record yields at most one change per poll.
public enum SnapshotDiff {
    public static func compare(
        previous: Snapshot?, seen: Set<HistoryKey>, observation: PollObservation,
        previousCheckpoint: CompassTimestamp?
    ) -> DiffOutcome {
        let current = Snapshot(observation.records)
        // History rows for records outside the set raced with a reassignment: leave them for the next poll.
        let accepted = observation.history.filter { current.record($0.record) != nil }
        let checkpoint = ([previousCheckpoint].compactMap { $0 } + accepted.map(\.timestamp)).max()
        var unseenByRecord: [RecordID: [HistoryEntry]] = [:]
        var newlySeen: [HistoryKey] = []
        var keys = Set<HistoryKey>()
        for entry in accepted where !seen.contains(entry.key) && keys.insert(entry.key).inserted {
            unseenByRecord[entry.record, default: []].append(entry)
            newlySeen.append(entry.key)
        }
        guard let previous else {
            return DiffOutcome(
                changes: [], delta: SnapshotDelta(upserts: current.sortedRecords),
                isBaseline: true, newlySeen: newlySeen, checkpoint: checkpoint, silentUpdates: 0)
        }
        var outcome = DiffOutcome(
            changes: [], delta: SnapshotDelta(), isBaseline: false, newlySeen: newlySeen, checkpoint: checkpoint,
            silentUpdates: 0)
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
            compare(record, old: stayed, entries: (entries ?? []).sorted { $0.timestamp < $1.timestamp }, into: &outcome)
        }
        while oldIndex < old.count {
            leaving(old[oldIndex], into: &outcome, &unassigned)
            oldIndex += 1
        }
        outcome.changes += unassigned
        return outcome
    }

    private static func leaving(_ old: Record, into outcome: inout DiffOutcome, _ unassigned: inout [Change]) {
        outcome.delta.removals.append(old.id)
        unassigned.append(
            Change(record: old.id, kind: .unassigned, headline: old.headline,
                   priority: old["Priority"], severity: old["Severity"], state: old["State"]))
    }

    private static func compare(_ record: Record, old: Record?, entries: [HistoryEntry], into outcome: inout DiffOutcome) {
        let fieldChanges = old.map { Self.fieldChanges(from: $0, to: record) } ?? []
        if old == nil || !fieldChanges.isEmpty { outcome.delta.upserts.append(record) }
        // The colleague who put the record in my hands is the one who assigned it, if several acted.
        let cause = old == nil ? (entries.last { $0.action == "Assign" } ?? entries.last) : entries.last
        guard let cause else {
            if old == nil || !fieldChanges.isEmpty { outcome.silentUpdates += 1 }
            return
        }
        outcome.changes.append(
            Change(
                record: record.id, kind: old == nil ? .assigned : .modified, headline: record.headline,
                by: cause.user, action: cause.action, changes: fieldChanges, at: cause.timestamp,
                priority: record["Priority"], severity: record["Severity"], state: record["State"]))
    }

    /// The compared fields whose values differ, in a stable order.
    public static func fieldChanges(from old: Record, to new: Record) -> [FieldChange] {
        if old.hasSameFields(as: new) { return [] }
        return WatchQueries.comparedFields.compactMap { field in
            let before = old[field], after = new[field]
            return before == after ? nil : FieldChange(field: field, old: before, new: after)
        }
    }

    /// History keys older than this can never be returned again by the overlap window and may be forgotten.
    public static func pruneBoundary(checkpoint: CompassTimestamp?, overlap: Int) -> CompassTimestamp? {
        checkpoint?.adding(seconds: -overlap)
    }
}
