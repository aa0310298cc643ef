/// The two built-in queries trackwatch reruns every poll, and how their rows become records and history.
public enum WatchQueries {
    /// Compass substitutes the logged-in user's login name for this value.
    public static let currentUser = "[CURRENT_USER]"
    public static let entity = "Defect"

    /// Columns of *assigned to me*; every one but `id` and `dbid` is compared between polls.
    public static let assignedColumns = ["id", "dbid", "Headline", "State", "Priority", "Severity", "Submitter", "Owner"]
    /// Fields whose changes are reported (`id` and `dbid` never change).
    public static let comparedFields = ["Headline", "State", "Priority", "Severity", "Submitter", "Owner"]

    public static let historyColumns = [
        "id", "Headline", "history.action_name", "history.action_timestamp", "history.user_name",
        "history.old_state", "history.new_state",
    ]

    /// Names under which the queries are stored in Personal Queries on servers without ad-hoc queries: letters,
    /// digits, spaces and underscores only, which every server's `ValidateQueryDefName` accepts.
    public static let assignedQueryName = "trackwatch assigned to me"
    public static let historyQueryName = "trackwatch modified by others"
    /// The names earlier versions stored them under; such queries are deleted when found.
    public static let legacyQueryNames: Set<String> = ["trackwatch: assigned to me", "trackwatch: modified by others"]

    /// Without a checkpoint, the history query reads only the newest entries: enough to set the checkpoint
    /// and mark the entries the next overlap window will return again as seen.
    public static let uncheckpointedHistoryLimit = 1_000

    /// `Owner EQ [CURRENT_USER]`.
    public static var assignedToMe: QueryDefinition {
        QueryDefinition(
            primaryEntityDefName: entity,
            queryFieldDefs: assignedColumns.map { QueryFieldDefinition($0, sort: $0 == "id" ? .ascending : .none) },
            filterNode: FilterNode(.and, [FieldFilter("Owner", .equal, [currentUser])])
        )
    }

    /// `Owner EQ [CURRENT_USER]` AND `history.user_name NEQ [CURRENT_USER]` AND `history.action_timestamp GT since`,
    /// every action (a colleague resolving my defect matters most), newest first.
    public static func modifiedByOthers(since: CompassTimestamp?) -> QueryDefinition {
        var filters = [
            FieldFilter("Owner", .equal, [currentUser]),
            FieldFilter("history.user_name", .notEqual, [currentUser]),
        ]
        if let since { filters.append(FieldFilter("history.action_timestamp", .greater, [since.rawValue])) }
        return QueryDefinition(
            primaryEntityDefName: entity,
            queryFieldDefs: historyColumns.map {
                QueryFieldDefinition($0, sort: $0 == "history.action_timestamp" ? .descending : .none, sortOrder: 1)
            },
            filterNode: FilterNode(.and, filters)
        )
    }

    /// A result row that does not fit the query's columns.
    public struct RowError: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Turns *assigned to me* rows (values in `assignedColumns` order) into records.
    public static func records(fromRows rows: [[String]]) throws -> [Record] {
        var records: [Record] = []
        records.reserveCapacity(rows.count)
        var buffer: [UInt8] = []
        for values in rows { records.append(try record(fromRow: values, buffer: &buffer)) }
        return records
    }

    /// Every column but `id` is a field, written straight into the record's canonical form.
    static let assignedLayout = RecordLayout(columns: assignedColumns, skipping: [0])

    static func record(fromRow values: [String], buffer: inout [UInt8]) throws -> Record {
        guard values.count == assignedColumns.count else {
            throw RowError(message: "a result row has \(values.count) values for \(assignedColumns.count) columns")
        }
        guard !values[0].isEmpty else { throw RowError(message: "a result row has an empty id") }
        return assignedLayout.record(id: RecordID(values[0]), values: values, buffer: &buffer)
    }

    /// Turns *modified by others* rows (values in `historyColumns` order) into history entries.
    public static func historyEntries(fromRows rows: [[String]]) throws -> [HistoryEntry] {
        try rows.map { values in
            guard values.count == historyColumns.count else {
                throw RowError(message: "a history row has \(values.count) values for \(historyColumns.count) columns")
            }
            let timestamp = CompassTimestamp(values[3])
            guard !values[0].isEmpty, timestamp.secondsSinceEpoch != nil else {
                throw RowError(message: "a history row has no id or an unreadable timestamp '\(values[3])'")
            }
            return HistoryEntry(
                record: RecordID(values[0]), headline: values[1], action: values[2], timestamp: timestamp,
                user: values[4], oldState: values[5], newState: values[6])
        }
    }
}
