import TrackwatchCore

/// The two built-in queries trackwatch reruns every poll, and how their rows become records and history.
public enum WatchQueries {
    /// Compass substitutes the logged-in user's login name for this value.
    public static let currentUser = "[CURRENT_USER]"
    public static let entity = "Defect"

    /// Columns of *assigned to me*; every one but `id` and `dbid` is compared between polls.
    public static let assignedColumns = ["id", "dbid", "Headline", "State", "Priority", "Severity", "Submitter", "Owner"]
    /// Fields whose changes are reported (`id` and `dbid` never change).
    public static let comparedFields = ["Headline", "State", "Priority", "Severity", "Submitter", "Owner"]
    /// Compared besides those where `extra_fields` is not set, if the record type has them: what colleagues most
    /// often change without touching the six — and a note (`Notes_Log`), reported by its first line.
    public static let defaultExtraFields = ["Description", "Keywords", "Notes_Log"]
    /// The notes package's log: entries appended under a header line (`==== State: … by: … on … ====`).
    public static let notesLog = "Notes_Log"

    /// The columns of *assigned to me* with `extra` compared fields after the built-in ones.
    public static func assignedColumns(extra: [String]) -> [String] {
        assignedColumns + extra.filter { !assignedColumns.contains($0) }
    }

    /// The fields compared, with `extra` ones.
    public static func comparedFields(extra: [String]) -> [String] {
        comparedFields + extra.filter { !comparedFields.contains($0) && !assignedColumns.contains($0) }
    }

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

    /// Who I am to the server: the name it puts for `[CURRENT_USER]`, which every record *assigned to me* carries as
    /// its Owner, and which history entries carry as their user. The configured `username` need not be that name
    /// (an e-mail or directory login, a personal access token). `nil` when no record says, or records disagree.
    public static func currentUser(in records: [Record]) -> String? {
        guard let name = records.first?["Owner"], !name.isEmpty else { return nil }
        return records.allSatisfy { $0["Owner"] == name } ? name : nil
    }

    /// `Owner EQ [CURRENT_USER]`.
    public static var assignedToMe: QueryDefinition { assignedToMe(extra: []) }

    /// `Owner EQ [CURRENT_USER]`, showing `extra` compared fields too.
    public static func assignedToMe(extra: [String]) -> QueryDefinition {
        QueryDefinition(
            primaryEntityDefName: entity,
            queryFieldDefs: assignedColumns(extra: extra).map {
                QueryFieldDefinition($0, sort: $0 == "id" ? .ascending : .none)
            },
            filterNode: FilterNode(.and, [FieldFilter("Owner", .equal, [currentUser])])
        )
    }

    /// `Owner EQ [CURRENT_USER]` AND `id IN ids`: a second look at a few records (see `SnapshotDiff.secondLook`).
    public static func assignedRecords(_ ids: [RecordID], extra: [String] = []) -> QueryDefinition {
        var query = assignedToMe(extra: extra)
        query.filterNode.fieldFilters.append(FieldFilter("id", .inSet, ids.map(\.rawValue)))
        return query
    }

    /// Every history entry of the records I own: `Owner EQ [CURRENT_USER]` AND `history.action_timestamp GT since`,
    /// every action by anyone, newest first (`since` comes from `HistoryWindow`). My own entries come too: a
    /// change with neither my entry nor a colleague's behind it is then known to be unexplained and is reported,
    /// never taken for my own edit. `until` (`history.action_timestamp LTE until`) leaves out entries dated later
    /// than any zone allows, when the newest entry is looked for.
    public static func historyOfMyRecords(since: Timestamp?, until: Timestamp? = nil) -> QueryDefinition {
        var filters = [FieldFilter("Owner", .equal, [currentUser])]
        if let since { filters.append(FieldFilter("history.action_timestamp", .greater, [since.rawValue])) }
        if let until { filters.append(FieldFilter("history.action_timestamp", .lessOrEqual, [until.rawValue])) }
        return history(filters)
    }

    /// The history columns of the records `filters` select, newest entry first.
    static func history(_ filters: [FieldFilter]) -> QueryDefinition {
        QueryDefinition(
            primaryEntityDefName: entity,
            queryFieldDefs: historyColumns.map {
                QueryFieldDefinition($0, sort: $0 == "history.action_timestamp" ? .descending : .none, sortOrder: 1)
            },
            filterNode: FilterNode(.and, filters)
        )
    }

    /// The history entries of `ids` since `since`, whoever owns them now, newest first: who took records out of my
    /// hands (`id IN ids` AND `history.action_timestamp GT since`).
    public static func historyOfRecords(_ ids: [RecordID], since: Timestamp?) -> QueryDefinition {
        var filters = [FieldFilter("id", .inSet, ids.map(\.rawValue))]
        if let since { filters.append(FieldFilter("history.action_timestamp", .greater, [since.rawValue])) }
        return history(filters)
    }

    /// A result row that does not fit the query's columns.
    public struct RowError: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }

        public init(message: String) { self.message = message }

        /// A value from the server, quoted for a message: at most 60 characters, control characters shown as
        /// `\u{…}` escapes, so that it can neither break the line nor reach a terminal as a command.
        public static func quote(_ value: String) -> String {
            var text = ""
            for (count, scalar) in value.unicodeScalars.enumerated() {
                guard count < 60 else {
                    text += "…"
                    break
                }
                switch scalar.value {
                case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                    text += "\\u{\(String(scalar.value, radix: 16))}"
                case 0x22, 0x5C: text += "\\" + String(scalar)
                default: text.unicodeScalars.append(scalar)
                }
            }
            return "\"" + text + "\""
        }
    }

    /// Turns *assigned to me* rows (values in `assignedColumns` order) into records.
    public static func records(fromRows rows: [[String]]) throws -> [Record] { try records(fromRows: rows, extra: []) }

    /// Turns *assigned to me* rows (values in `assignedColumns(extra:)` order) into records. Every column but `id`
    /// is a field, written straight into the record's canonical form; a notes log is kept as its newest note
    /// (`NotesLog.summary`).
    public static func records(fromRows rows: [[String]], extra: [String]) throws -> [Record] {
        let columns = assignedColumns(extra: extra)
        let layout = extra.isEmpty ? assignedLayout : RecordLayout(columns: columns, skipping: [0])
        let notes = columns.firstIndex(of: notesLog)
        var records: [Record] = []
        records.reserveCapacity(rows.count)
        var buffer: [UInt8] = []
        for var values in rows {
            guard values.count == columns.count else {
                throw RowError(message: "a result row has \(values.count) values for \(columns.count) columns")
            }
            guard !values[0].isEmpty else { throw RowError(message: "a result row has an empty id") }
            if let notes { values[notes] = NotesLog.summary(values[notes]) }
            records.append(layout.record(id: RecordID(values[0]), values: values, buffer: &buffer))
        }
        return records
    }

    /// Every column but `id` is a field, written straight into the record's canonical form.
    static let assignedLayout = RecordLayout(columns: assignedColumns, skipping: [0])

    /// History rows in normal form, and the timestamp formats the server printed them in.
    public struct HistoryRows: Equatable, Sendable {
        public var entries: [HistoryEntry]
        public var formats: Set<TimestampFormat>
    }

    /// Turns history rows (values in `historyColumns` order) into entries. A timestamp in a form trackwatch does
    /// not read fails the whole result, naming the value and the row.
    public static func historyRows(_ rows: [[String]]) throws -> HistoryRows {
        var result = HistoryRows(entries: [], formats: [])
        result.entries.reserveCapacity(rows.count)
        for (index, values) in rows.enumerated() {
            guard values.count == historyColumns.count else {
                throw RowError(message: "a history row has \(values.count) values for \(historyColumns.count) columns")
            }
            guard !values[0].isEmpty else { throw RowError(message: "history row \(index + 1) has an empty id") }
            guard let (timestamp, format) = Timestamp.parse(values[3]) else {
                throw RowError(
                    message: "history row \(index + 1) (\(RowError.quote(values[0]))) has the timestamp "
                        + "\(RowError.quote(values[3])), which is not a date and time in a form trackwatch reads "
                        + "(2024-01-31 10:15:00, ISO 8601 such as 2024-01-31T10:15:00.5+09:30, or 01/31/2024 10:15:00 AM)")
            }
            result.formats.insert(format)
            result.entries.append(HistoryEntry(
                record: RecordID(values[0]), headline: values[1], action: values[2], timestamp: timestamp,
                user: values[4], oldState: values[5], newState: values[6]))
        }
        return result
    }
}
