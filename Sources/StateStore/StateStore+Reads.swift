#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TrackwatchCore

extension StateStore {
    /// The stored snapshot of `watch`, or `nil` when the watch has no baseline yet.
    public func snapshot(watch: String) throws -> Snapshot? {
        let operation = "read the snapshot of watch \"\(watch)\""
        return try withDatabase(operation) { database in
            try database.transaction(.deferred) {
                guard try Self.hasBaseline(watch, database) else { return nil }
                return try readSnapshot(watch, database, operation: operation)
            }
        }
    }

    /// The history checkpoint of `watch`, or `nil` when none was stored.
    public func checkpoint(watch: String) throws -> Timestamp? {
        try withDatabase("read the checkpoint of watch \"\(watch)\"") { database in
            let text = try database.queryFirst("SELECT checkpoint FROM watch_state WHERE watch = ?", [.text(watch)]) {
                $0.string(at: 0)
            }
            return (text ?? nil).map(Timestamp.init)
        }
    }

    /// The history entries of `watch` already seen (and not yet pruned).
    public func seenHistoryKeys(watch: String) throws -> Set<HistoryKey> {
        try withDatabase("read the seen history of watch \"\(watch)\"") { database in
            var keys = Set<HistoryKey>()
            let sql = "SELECT record_id, action, timestamp, user, occurrence FROM seen_history WHERE watch = ?"
            try database.forEachRow(sql, [.text(watch)]) { row in
                keys.insert(
                    HistoryKey(
                        record: RecordID(row.string(at: 0) ?? ""), action: row.string(at: 1) ?? "",
                        timestamp: Timestamp(row.string(at: 2) ?? ""), user: row.string(at: 3) ?? "",
                        occurrence: row.int(at: 4)
                    )
                )
            }
            return keys
        }
    }

    /// Changes not yet marked delivered, oldest first: the notification outbox.
    public func undeliveredChanges() throws -> [StoredChange] {
        let operation = "read the undelivered changes"
        return try withDatabase(operation) { database in
            try database.query("\(Self.changeColumns) WHERE delivered_at IS NULL ORDER BY id") {
                try storedChange($0, operation: operation)
            }
        }
    }

    /// Stored changes, newest first: detected at or after `since` (if given), of `record` (if given), at most
    /// `limit` (if given).
    public func changes(since: Double?, record: RecordID?, limit: Int?) throws -> [StoredChange] {
        var conditions: [String] = []
        var values: [SQLValue] = []
        if let since {
            conditions.append("detected_at >= ?")
            values.append(.real(since))
        }
        if let record {
            conditions.append("record_id = ?")
            values.append(.text(record.rawValue))
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        values.append(.integer(limit.map(Int64.init) ?? -1))  // LIMIT -1 means no limit
        let operation = "read the change log"
        return try withDatabase(operation) { database in
            try database.query("\(Self.changeColumns)\(filter) ORDER BY id DESC LIMIT ?", values) {
                try storedChange($0, operation: operation)
            }
        }
    }

    /// The latest `limit` poll log rows of all watches, newest first.
    public func recentPolls(limit: Int) throws -> [LoggedPoll] {
        try withDatabase("read the poll log") { database in
            let sql = "\(Self.pollColumns) ORDER BY id DESC LIMIT ?"
            return try database.query(sql, [.integer(Int64(limit))], row: Self.loggedPoll)
        }
    }

    /// A summary of the poll log, the stored snapshots and the outbox, read from one consistent state.
    public func status() throws -> StoreStatus {
        try withDatabase("read the status") { database in
            try database.transaction(.deferred) { try Self.readStatus(database) }
        }
    }

    // MARK: Rows

    static let changeColumns = "SELECT id, watch, detected_at, change, delivered_at, held FROM changes"
    static let pollColumns = "SELECT watch, started_at, duration_ms, record_count, change_count, error FROM polls"

    static func hasBaseline(_ watch: String, _ database: Database) throws -> Bool {
        try database.queryFirst("SELECT 1 FROM watch_state WHERE watch = ?", [.text(watch)]) { _ in true } ?? false
    }

    private func readSnapshot(_ watch: String, _ database: Database, operation: String) throws -> Snapshot {
        // In key order, so that the records arrive sorted by id. Fields written by trackwatch are already in
        // the canonical form a `Record` keeps: they are copied, not decoded.
        var records: [Record] = []
        if let count = try database.queryFirst("SELECT count(*) FROM snapshot WHERE watch = ?", [.text(watch)], row: { $0.int(at: 0) }) {
            records.reserveCapacity(count)
        }
        let sql = "SELECT record_id, fields FROM snapshot WHERE watch = ? ORDER BY record_id"
        try database.forEachRow(sql, [.text(watch)]) { row in
            let id = RecordID(row.string(at: 0) ?? "")
            if let record = row.withUTF8(at: 1, { Record(id: id, canonicalJSON: $0) }) {
                records.append(record)
            } else if let fields = row.withUTF8(at: 1, FieldsJSON.decode) {
                records.append(Record(id: id, fields: fields))
            } else {
                throw unreadable("the stored fields of record \(id)", operation: operation)
            }
        }
        return Snapshot(records)
    }

    func storedChange(_ row: Statement, operation: String) throws -> StoredChange {
        let id = row.int64(at: 0)
        let json = row.withUTF8(at: 3) { Data($0) }
        guard let change = try? JSONDecoder().decode(Change.self, from: json) else {
            throw unreadable("stored change \(id)", operation: operation)
        }
        return StoredChange(
            id: id, watch: row.string(at: 1) ?? "", detectedAt: row.double(at: 2), change: change,
            delivered: !row.isNull(at: 4), muted: row.int(at: 5) == 2
        )
    }

    static func loggedPoll(_ row: Statement) -> LoggedPoll {
        LoggedPoll(watch: row.string(at: 0) ?? "", entry: pollLogEntry(row, from: 1))
    }

    /// The poll log entry in columns `from` … `from + 4` (started_at, duration_ms, record_count,
    /// change_count, error).
    static func pollLogEntry(_ row: Statement, from column: Int32) -> PollLogEntry {
        PollLogEntry(
            startedAt: row.double(at: column), durationMilliseconds: row.int(at: column + 1),
            recordCount: row.int(at: column + 2), changeCount: row.int(at: column + 3),
            error: row.string(at: column + 4)
        )
    }
}
