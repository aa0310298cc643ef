/// What a change says about an item besides its fields, as its source describes it.
public struct ItemFacts: Equatable, Sendable {
    public var headline: String
    public var priority: String?
    public var severity: String?
    public var state: String?
    /// What the tracker calls its state where people read it (Jira: `Status`); `nil`: `State`.
    public var stateField: String?
    /// Who the item names as the one who last changed it, where it does.
    public var by: String?
    /// The item's web page, where the source knows it from the item itself.
    public var link: String?

    public init(headline: String, priority: String? = nil, severity: String? = nil, state: String? = nil,
                stateField: String? = nil, by: String? = nil, link: String? = nil) {
        self.headline = headline
        self.stateField = stateField
        self.priority = priority
        self.severity = severity
        self.state = state
        self.by = by
        self.link = link
    }
}

/// Compares a list's items with its stored snapshot: items that entered it, left it, or changed a compared field,
/// reported as `rule` asks. There is no history to say who acted, so nothing is "my own doing"; an item may name
/// who changed it (`ItemFacts.by`). The first poll of a list is a silent baseline, so adding one never floods.
public enum ListDiff {
    /// - Parameters:
    ///   - watch: what the changes say the item is in (a saved query's or a list's name).
    ///   - facts: what a change says about an item (its headline, priority, …).
    public static func compare(
        previous: Snapshot?, records: [Record], rule: WatchRule, comparedFields: [String], watch: String?,
        facts: (Record) -> ItemFacts
    ) -> DiffOutcome {
        compare(previous: previous, records: records, rule: rule, watch: watch, facts: facts) { before, record in
            // A value stored whole by an earlier version compares as it would be stored now (`Record.stored`).
            comparedFields.compactMap { field -> FieldChange? in
                let old = before[field].map(Record.stored)
                return old == record[field] ? nil : FieldChange(field: field, old: old, new: record[field])
            }
        }
    }

    /// The same, for items whose compared fields differ from item to item: `isCompared` picks them among the
    /// fields either side has, reported in name order.
    public static func compare(
        previous: Snapshot?, records: [Record], rule: WatchRule, isCompared: (String) -> Bool, watch: String?,
        facts: (Record) -> ItemFacts
    ) -> DiffOutcome {
        compare(previous: previous, records: records, rule: rule, watch: watch, facts: facts) { before, record in
            let old = before.fields, new = record.fields
            return Set(old.keys).union(new.keys).filter(isCompared).sorted().compactMap { field -> FieldChange? in
                let before = old[field].map(Record.stored)
                return before == new[field] ? nil : FieldChange(field: field, old: before, new: new[field])
            }
        }
    }

    private static func compare(
        previous: Snapshot?, records: [Record], rule: WatchRule, watch: String?, facts: (Record) -> ItemFacts,
        fieldChanges: (_ before: Record, _ after: Record) -> [FieldChange]
    ) -> DiffOutcome {
        let current = Snapshot(records).sortedRecords
        guard let previous else {
            return DiffOutcome(changes: [], delta: SnapshotDelta(upserts: current), isBaseline: true, newlySeen: [],
                               checkpoint: nil, silentUpdates: 0)
        }
        var outcome = DiffOutcome(changes: [], delta: SnapshotDelta(), isBaseline: false, newlySeen: [], checkpoint: nil,
                                  silentUpdates: 0)
        var exits: [Change] = []
        func change(_ record: Record, _ kind: ChangeKind, fields: [FieldChange] = []) -> Change {
            let facts = facts(record)
            return Change(record: record.id, kind: kind, headline: facts.headline, by: kind == .left ? nil : facts.by,
                          changes: Change.bounded(fields), priority: facts.priority, severity: facts.severity,
                          state: facts.state, watch: watch, link: facts.link)
        }
        // Both sides are in id order: one merge walk.
        let old = previous.sortedRecords
        var i = 0, j = 0
        while i < old.count || j < current.count {
            if j == current.count || (i < old.count && old[i].id < current[j].id) {
                outcome.delta.removals.append(old[i].id)
                if rule != .entries { exits.append(change(old[i], .left)) }
                i += 1
            } else if i == old.count || current[j].id < old[i].id {
                outcome.delta.upserts.append(current[j])
                outcome.changes.append(change(current[j], .entered))
                j += 1
            } else {
                let (before, record) = (old[i], current[j])
                i += 1
                j += 1
                guard before != record else { continue }
                // Every difference is stored, so that the snapshot stays true; only compared fields are reported.
                outcome.delta.upserts.append(record)
                let fields = fieldChanges(before, record)
                if rule == .changes, !fields.isEmpty {
                    outcome.changes.append(change(record, .changed, fields: fields))
                } else {
                    outcome.silentUpdates += 1
                }
            }
        }
        outcome.changes += exits  // entries and changes first, then exits, each in id order
        return outcome
    }
}
