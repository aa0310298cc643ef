/// A watched saved query's result (`[[watch]]`): its rows become records keyed by their `id` column.
public enum SavedQueryRows {
    /// Columns that identify a record rather than describe it: never compared.
    static let identityColumns: Set<String> = ["id", "dbid"]

    /// Records from rows whose values follow `columns`. Every column but `id` is kept, so that a later
    /// `fields` list can compare any of them; `dbid` is kept but never compared.
    public static func records(columns: [String], rows: [[String]], query: WorkspacePath) throws -> [Record] {
        guard let idColumn = columns.firstIndex(of: "id") else {
            throw WatchQueries.RowError(
                message: "the query \(query) has no id column (it shows \(columns.joined(separator: ", "))); add the field id to its display fields")
        }
        return try rows.map { values in
            guard values.count == columns.count else {
                throw WatchQueries.RowError(message: "a row of \(query) has \(values.count) values for \(columns.count) columns")
            }
            guard !values[idColumn].isEmpty else { throw WatchQueries.RowError(message: "a row of \(query) has an empty id") }
            var fields: [String: String] = [:]
            for (index, column) in columns.enumerated() where index != idColumn { fields[column] = values[index] }
            return Record(id: RecordID(values[idColumn]), fields: fields)
        }
    }

    /// The columns a watch compares: its `fields`, or every column but `id` and `dbid`. A field the query does
    /// not show could never change: that is a mistake to report, not to watch silently.
    public static func comparedFields(_ watch: WatchConfig, columns: [String]) throws -> [String] {
        guard let fields = watch.fields else { return columns.filter { !identityColumns.contains($0) } }
        let missing = fields.filter { !columns.contains($0) }
        guard missing.isEmpty else {
            throw WatchQueries.RowError(
                message: "fields lists \(missing.joined(separator: ", ")), which \(watch.query) does not show (it shows \(columns.joined(separator: ", "))); remove them or add them to the query's display fields")
        }
        return fields
    }
}

/// Compares a watched saved query's result with its stored snapshot. There is no history to say who acted:
/// a watched query reports what its rule asks for — entries, exits, field changes — and nothing is "my
/// own doing". The first poll of a watch is a silent baseline, so adding a watch never floods.
public enum SavedQueryDiff {
    public static func compare(previous: Snapshot?, records: [Record], watch: WatchConfig, comparedFields: [String]) -> DiffOutcome {
        let current = Snapshot(records)
        let sorted = current.records.values.sorted { $0.id < $1.id }
        guard let previous else {
            return DiffOutcome(changes: [], delta: SnapshotDelta(upserts: sorted), isBaseline: true, newlySeen: [],
                               checkpoint: nil, silentUpdates: 0)
        }
        var outcome = DiffOutcome(changes: [], delta: SnapshotDelta(), isBaseline: false, newlySeen: [], checkpoint: nil,
                                  silentUpdates: 0)
        for record in sorted {
            guard let old = previous.records[record.id] else {
                outcome.delta.upserts.append(record)
                outcome.changes.append(change(record, .entered, watch: watch))
                continue
            }
            guard old != record else { continue }
            // Every difference is stored, so that the snapshot stays true; only compared fields are reported.
            outcome.delta.upserts.append(record)
            let fields = comparedFields.compactMap { field -> FieldChange? in
                old[field] == record[field] ? nil : FieldChange(field: field, old: old[field], new: record[field])
            }
            if watch.rule == .changes, !fields.isEmpty {
                outcome.changes.append(change(record, .changed, watch: watch, fields: fields))
            } else {
                outcome.silentUpdates += 1
            }
        }
        for old in previous.records.values.sorted(by: { $0.id < $1.id }) where current.records[old.id] == nil {
            outcome.delta.removals.append(old.id)
            if watch.rule != .entries { outcome.changes.append(change(old, .left, watch: watch)) }
        }
        return outcome
    }

    private static func change(_ record: Record, _ kind: ChangeKind, watch: WatchConfig, fields: [FieldChange] = []) -> Change {
        Change(record: record.id, kind: kind, headline: record.headline, changes: fields, priority: record["Priority"],
               severity: record["Severity"], watch: watch.name)
    }
}
