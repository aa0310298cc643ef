import TrackwatchCore

/// A watch's poll log line.
public struct PollLogLine: Equatable, Sendable {
    public var watch: String
    public var entry: PollLogEntry
}

/// What `trackwatch status` shows.
public struct StoreStatus: Equatable, Sendable {
    public var lastPoll: PollLogLine?
    public var lastSuccess: PollLogLine?
    public var lastError: PollLogLine?
    /// Failed polls since the last successful one.
    public var consecutiveFailures: Int
    /// Records in each watch's snapshot.
    public var recordCounts: [String: Int]
    public var checkpoints: [String: CompassTimestamp]
    public var undelivered: Int
}

extension StateStore {
    // MARK: - Outbox and change log

    public func markDelivered(_ ids: [Int64], at time: Double) throws {
        guard !ids.isEmpty else { return }
        try guarded("write") {
            try database.transaction {
                let update = try database.prepare("UPDATE changes SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL")
                for id in ids { try update.run([.double(time), .int(id)]) }
            }
        }
    }

    /// Changes committed but not yet delivered, oldest first.
    public func undeliveredChanges() throws -> [StoredChange] {
        try readChanges("SELECT id, watch, detected_at, change, delivered_at FROM changes WHERE delivered_at IS NULL ORDER BY id", [])
    }

    /// Past changes, newest first, optionally since a time (seconds since 1970) and for one record.
    public func changes(since: Double?, record: RecordID?, limit: Int?) throws -> [StoredChange] {
        var sql = "SELECT id, watch, detected_at, change, delivered_at FROM changes WHERE detected_at >= ?"
        var values: [SQLiteValue] = [.double(since ?? 0)]
        if let record {
            sql += " AND record_id = ?"
            values.append(.text(record.rawValue))
        }
        sql += " ORDER BY id DESC LIMIT ?"
        values.append(.int(Int64(limit ?? -1)))
        return try readChanges(sql, values)
    }

    private func readChanges(_ sql: String, _ values: [SQLiteValue]) throws -> [StoredChange] {
        try guarded("read") {
            let rows = try database.prepare(sql).bind(values)
            var result: [StoredChange] = []
            while try rows.step() {
                result.append(StoredChange(id: rows.int(0), watch: rows.text(1), detectedAt: rows.double(2),
                                           change: try decodeChange(rows.text(3)), delivered: !rows.isNull(4)))
            }
            return result
        }
    }

    // MARK: - Poll log and status

    public func recentPolls(limit: Int) throws -> [PollLogLine] {
        try guarded("read") { try pollLines("ORDER BY id DESC LIMIT \(max(0, limit))") }
    }

    public func status() throws -> StoreStatus {
        try guarded("read") {
            let last = try pollLines("ORDER BY id DESC LIMIT 1").first
            let success = try pollLines("WHERE error IS NULL ORDER BY id DESC LIMIT 1").first
            let error = try pollLines("WHERE error IS NOT NULL ORDER BY id DESC LIMIT 1").first
            let failures = try database.prepare(
                "SELECT COUNT(*) FROM polls WHERE error IS NOT NULL AND id > COALESCE((SELECT MAX(id) FROM polls WHERE error IS NULL), 0)")
            _ = try failures.step()
            var counts: [String: Int] = [:]
            let countRows = try database.prepare(
                "SELECT w.watch, COUNT(s.record_id) FROM watch_state w LEFT JOIN snapshot s ON s.watch = w.watch GROUP BY w.watch")
            while try countRows.step() { counts[countRows.text(0)] = Int(countRows.int(1)) }
            var checkpoints: [String: CompassTimestamp] = [:]
            let checkpointRows = try database.prepare("SELECT watch, checkpoint FROM watch_state WHERE checkpoint IS NOT NULL")
            while try checkpointRows.step() { checkpoints[checkpointRows.text(0)] = CompassTimestamp(checkpointRows.text(1)) }
            let undelivered = try database.prepare("SELECT COUNT(*) FROM changes WHERE delivered_at IS NULL")
            _ = try undelivered.step()
            return StoreStatus(
                lastPoll: last, lastSuccess: success, lastError: error, consecutiveFailures: Int(failures.int(0)),
                recordCounts: counts, checkpoints: checkpoints, undelivered: Int(undelivered.int(0)))
        }
    }

    private func pollLines(_ clause: String) throws -> [PollLogLine] {
        let rows = try database.prepare(
            "SELECT watch, started_at, duration_ms, record_count, change_count, error FROM polls \(clause)")
        var lines: [PollLogLine] = []
        while try rows.step() {
            lines.append(PollLogLine(watch: rows.text(0), entry: PollLogEntry(
                startedAt: rows.double(1), durationMilliseconds: Int(rows.int(2)), recordCount: Int(rows.int(3)),
                changeCount: Int(rows.int(4)), error: rows.optionalText(5))))
        }
        return lines
    }
}
