#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TrackwatchCore

extension StateStore {
    /// Persists one successful poll in one transaction: applies the delta (removals, then upserts), marks
    /// the baseline if `isBaseline`, inserts the newly seen history keys (ignoring ones already stored),
    /// deletes seen keys older than `pruneSeenBefore`, sets the checkpoint (only if non-nil), stores the source's
    /// `values`, appends the poll log row and inserts every change as undelivered.
    ///
    /// A poll that is not a baseline needs a stored baseline for its watch; committing one without is a bug
    /// in the caller and throws without writing anything.
    ///
    /// - Returns: the stored changes, with their ids, in input order; `detectedAt` is the poll's start.
    @discardableResult
    public func commit(_ poll: PollCommit) throws -> [StoredChange] {
        try withDatabase("commit the poll of watch \"\(poll.watch)\"") { database in
            try database.transaction {
                try applyBaseline(poll, database)
                try Self.apply(poll.delta, watch: poll.watch, database)
                try Self.recordSeen(poll, database)
                if let checkpoint = poll.checkpoint {
                    let sql = "UPDATE watch_state SET checkpoint = ? WHERE watch = ?"
                    try database.execute(sql, [.text(checkpoint.rawValue), .text(poll.watch)])
                }
                for (key, value) in poll.values.sorted(by: { $0.key < $1.key }) {
                    if let value {
                        try database.execute(
                            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                            [.text(key), .text(value)])
                    } else {
                        try database.execute("DELETE FROM meta WHERE key = ?", [.text(key)])
                    }
                }
                let pollID = try Self.insertPoll(poll.log, watch: poll.watch, database)
                return try Self.insertChanges(poll, pollID: pollID, database)
            }
        }
    }

    /// Logs a failed poll of `watch`; touches nothing else. A `log` without an error is stored with the
    /// error "unknown error", so that it still counts as a failure.
    public func recordFailure(watch: String, log: PollLogEntry) throws {
        var log = log
        log.error = log.error ?? "unknown error"
        try withDatabase("log the failed poll of watch \"\(watch)\"") { database in
            _ = try Self.insertPoll(log, watch: watch, database)
        }
    }

    /// Marks the changes with `ids` delivered at `at` (seconds since 1970). Already delivered changes keep
    /// their first delivery time; unknown ids are ignored.
    public func markDelivered(_ ids: [Int64], at: Double) throws {
        try withDatabase("mark \(ids.count) changes delivered") { database in
            try database.transaction {
                let sql = "UPDATE changes SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL"
                for id in ids { try database.execute(sql, [.real(at), .integer(id)]) }
            }
        }
    }

    /// Deletes changes and poll log rows that `retention` no longer keeps: detected (or polled) more than
    /// `keep` seconds before `now`, or beyond the newest `maxChanges` changes and `maxPolls` polls. Never a change
    /// that is not yet delivered or waits for the quiet-hours summary, nor a poll that still has a change. Returns
    /// the number of changes deleted.
    @discardableResult
    public func prune(_ retention: LogConfig, now: Double) throws -> Int {
        try withDatabase("prune the change log") { database in
            try database.transaction {
                let cutoff = SQLValue.real(now - Double(retention.keep))
                let kept = "delivered_at IS NOT NULL AND held != 1"
                try database.execute("DELETE FROM changes WHERE detected_at < ? AND \(kept)", [cutoff])
                var deleted = database.changeCount
                try database.execute(
                    """
                    DELETE FROM changes WHERE \(kept) AND id <= (SELECT id FROM changes ORDER BY id DESC LIMIT 1 OFFSET ?)
                    """, [.integer(Int64(retention.maxChanges))])
                deleted += database.changeCount
                let unused = "NOT EXISTS (SELECT 1 FROM changes WHERE changes.poll_id = polls.id)"
                try database.execute("DELETE FROM polls WHERE started_at < ? AND \(unused)", [cutoff])
                try database.execute(
                    "DELETE FROM polls WHERE \(unused) AND id <= (SELECT id FROM polls ORDER BY id DESC LIMIT 1 OFFSET ?)",
                    [.integer(Int64(retention.maxPolls))])
                return deleted
            }
        }
    }

    /// Removes everything stored about `watch`: snapshot, baseline, checkpoint, seen history, poll log rows
    /// and changes. Its next poll is a baseline again.
    public func forget(watch: String) throws {
        try withDatabase("forget watch \"\(watch)\"") { database in
            try database.transaction {
                for table in ["changes", "polls", "seen_history", "snapshot", "watch_state"] {
                    try database.execute("DELETE FROM \(table) WHERE watch = ?", [.text(watch)])
                }
            }
        }
    }

    // MARK: Steps of a commit

    private func applyBaseline(_ poll: PollCommit, _ database: Database) throws {
        if poll.isBaseline {
            try database.execute(
                """
                INSERT INTO watch_state (watch, baseline_at) VALUES (?, ?)
                ON CONFLICT (watch) DO UPDATE SET baseline_at = excluded.baseline_at
                """,
                [.text(poll.watch), .real(poll.log.startedAt)]
            )
        } else if try !Self.hasBaseline(poll.watch, database) {
            throw StoreError(
                reason: .other, operation: "commit the poll of watch \"\(poll.watch)\"", path: path,
                detail: "the watch has no baseline yet and the poll is not marked as one"
            )
        }
    }

    private static func apply(_ delta: SnapshotDelta, watch: String, _ database: Database) throws {
        // One prepared statement per kind of row, bound and stepped once per record: a 100,000-record
        // baseline is 100,000 steps of the same statement inside the caller's transaction.
        let remove = try database.cached("DELETE FROM snapshot WHERE watch = ? AND record_id = ?")
        for id in delta.removals {
            defer { remove.reset() }
            try remove.bind(watch, at: 1)
            try remove.bind(id.rawValue, at: 2)
            _ = try remove.step()
        }
        let upsert = try database.cached(
            """
            INSERT INTO snapshot (watch, record_id, fields) VALUES (?, ?, ?)
            ON CONFLICT (watch, record_id) DO UPDATE SET fields = excluded.fields
            """
        )
        for record in delta.upserts {
            defer { upsert.reset() }
            try upsert.bind(watch, at: 1)
            try upsert.bind(record.id.rawValue, at: 2)
            // A record keeps its fields as the canonical JSON stored here (FieldsJSON): bound as they are.
            try record.withCanonicalJSON { try upsert.bind(utf8: $0, at: 3) }
            _ = try upsert.step()
        }
    }

    private static func recordSeen(_ poll: PollCommit, _ database: Database) throws {
        let insert = try database.cached(
            """
            INSERT OR IGNORE INTO seen_history (watch, record_id, action, timestamp, user, occurrence, stored_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """
        )
        for key in poll.newlySeen {
            defer { insert.reset() }
            try insert.bind([
                .text(poll.watch), .text(key.record.rawValue), .text(key.action), .text(key.timestamp.rawValue),
                .text(key.user), .integer(Int64(key.occurrence)), .real(poll.log.startedAt),
            ])
            _ = try insert.step()
        }
        if let cutoff = poll.pruneSeenBefore {
            let sql = "DELETE FROM seen_history WHERE watch = ? AND timestamp < ?"
            try database.execute(sql, [.text(poll.watch), .text(cutoff.rawValue)])
        }
        guard let bounds = poll.bounds else { return }
        try database.execute(
            "DELETE FROM seen_history WHERE watch = ? AND stored_at > 0 AND stored_at < ?",
            [.text(poll.watch), .real(bounds.storedBefore)])
        let trim = try database.cached(
            """
            DELETE FROM seen_history WHERE watch = ?1 AND record_id = ?2
            AND (action, timestamp, user, occurrence) NOT IN (
                SELECT action, timestamp, user, occurrence FROM seen_history WHERE watch = ?1 AND record_id = ?2
                ORDER BY stored_at DESC, timestamp DESC LIMIT ?3)
            """
        )
        for record in Set(poll.newlySeen.map(\.record.rawValue)).sorted() {
            defer { trim.reset() }
            try trim.bind([.text(poll.watch), .text(record), .integer(Int64(bounds.perRecord))])
            _ = try trim.step()
        }
    }

    private static func insertPoll(_ log: PollLogEntry, watch: String, _ database: Database) throws -> Int64 {
        try database.execute(
            """
            INSERT INTO polls (watch, started_at, duration_ms, record_count, change_count, error)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(watch), .real(log.startedAt), .integer(Int64(log.durationMilliseconds)),
                .integer(Int64(log.recordCount)), .integer(Int64(log.changeCount)), .optionalText(log.error),
            ]
        )
        return database.lastInsertRowID
    }

    private static func insertChanges(
        _ poll: PollCommit, pollID: Int64, _ database: Database
    ) throws -> [StoredChange] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let insert = try database.cached(
            """
            INSERT INTO changes (watch, poll_id, detected_at, record_id, kind, change, delivered_at)
            VALUES (?, ?, ?, ?, ?, ?, NULL)
            """
        )
        return try poll.changes.map { change in
            defer { insert.reset() }
            // Whatever a source found, one change stores a bounded number of field changes.
            let change = change.withBoundedFields()
            let json = try encoder.encode(change)
            try insert.bind([
                .text(poll.watch), .integer(pollID), .real(poll.log.startedAt), .text(change.record.rawValue),
                .text(change.kind.rawValue),
            ])
            try json.withUnsafeBytes { try insert.bind(utf8: $0.bindMemory(to: UInt8.self), at: 6) }
            _ = try insert.step()
            return StoredChange(
                id: database.lastInsertRowID, watch: poll.watch, detectedAt: poll.log.startedAt, change: change,
                delivered: false
            )
        }
    }
}
