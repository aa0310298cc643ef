import TrackwatchCore

/// A watched saved query's result (`[[watch]]`): its rows become records keyed by their `id` column.
public enum SavedQueryRows {
    /// Columns that identify a record rather than describe it: never compared.
    static let identityColumns: Set<String> = ["id", "dbid"]

    /// Records from rows whose values follow `columns`. Every column but `id` is kept, so that a later
    /// `fields` list can compare any of them; `dbid` is kept but never compared.
    public static func records(columns: [String], rows: [[String]], query: WorkspacePath) throws -> [Record] {
        let columns = columns.map(Record.storedName)  // the server names them: cut as any field name is
        guard let idColumn = columns.firstIndex(of: "id") else {
            throw WatchQueries.RowError(
                message: "the query \(query) has no id column (it shows \(columns.joined(separator: ", "))); add the field id to its display fields")
        }
        // Written straight into the records' canonical form, as the built-in query's rows are.
        let layout = RecordLayout(columns: columns, skipping: [idColumn])
        var buffer: [UInt8] = []
        return try rows.map { values in
            guard values.count == columns.count else {
                throw WatchQueries.RowError(message: "a row of \(query) has \(values.count) values for \(columns.count) columns")
            }
            guard !values[idColumn].isEmpty else { throw WatchQueries.RowError(message: "a row of \(query) has an empty id") }
            return layout.record(id: RecordID(values[idColumn]), values: values, buffer: &buffer)
        }
    }

    /// The columns a watch compares: its `fields`, or every column but `id` and `dbid`. A field the query does
    /// not show could never change: that is a mistake to report, not to watch silently.
    public static func comparedFields(_ watch: WatchConfig, columns: [String]) throws -> [String] {
        let columns = columns.map(Record.storedName)
        guard let fields = watch.fields else { return columns.filter { !identityColumns.contains($0) } }
        let missing = fields.filter { !columns.contains($0) }
        guard missing.isEmpty else {
            throw WatchQueries.RowError(
                message: "fields lists \(missing.joined(separator: ", ")), which \(watch.query) does not show (it shows \(columns.joined(separator: ", "))); remove them or add them to the query's display fields")
        }
        return fields
    }
}

/// Compares a watched saved query's result with its stored snapshot (`ListDiff`): there is no history to say who
/// acted, so a watched query reports what its rule asks for — entries, exits, field changes — and nothing is "my
/// own doing". The first poll of a watch is a silent baseline, so adding a watch never floods.
public enum SavedQueryDiff {
    public static func compare(previous: Snapshot?, records: [Record], watch: WatchConfig, comparedFields: [String]) -> DiffOutcome {
        ListDiff.compare(previous: previous, records: records, rule: watch.rule, comparedFields: comparedFields,
                         watch: watch.name, facts: facts)
    }

    /// A Compass record's facts: its Headline, Priority, Severity and State.
    static func facts(_ record: Record) -> ItemFacts {
        ItemFacts(headline: record.headline, priority: record["Priority"], severity: record["Severity"],
                  state: record["State"])
    }
}

extension Record {
    /// A Compass record's Headline (`""` where the query does not show it).
    public var headline: String { self["Headline"] ?? "" }
}
