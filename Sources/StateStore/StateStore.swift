#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import CSQLite
import TrackwatchCore

/// trackwatch's persistent state in one SQLite file: per watch the snapshot, the history entries already
/// seen, the checkpoint; the log of polls; and the changes (the outbox: a change is committed with the
/// snapshot that revealed it, and marked delivered once journaled and shown).
///
/// WAL with `synchronous=FULL`: a committed poll survives a killed process or a power cut. Used from one
/// queue at a time (the CLI's main thread or the daemon's poll queue), so it is not Sendable.
public final class StateStore {
    public static let fileName = "state.sqlite"
    static let schemaVersion: Int64 = 1

    public let path: String
    let database: Database
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
    private let decoder = JSONDecoder()

    /// Opens (creating if needed) `<directory>/state.sqlite`; the directory is made private to the user.
    public convenience init(directory: String) throws {
        var built = ""
        for component in directory.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o700) != 0 && errno != EEXIST {
                throw StoreError(path: directory, operation: "create the directory for",
                                 SQLiteError(code: SQLITE_CANTOPEN, extendedCode: SQLITE_CANTOPEN, message: String(cString: strerror(errno))))
            }
        }
        try self.init(path: directory + "/" + Self.fileName)
    }

    public init(path: String) throws {
        self.path = path
        let previousMask = umask(0o077)  // the database and its WAL files are private
        defer { umask(previousMask) }
        do {
            database = try Database(path: path)
            try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON")
            try migrate()
        } catch {
            throw StoreError(path: path, operation: "open", error)
        }
    }

    private func migrate() throws {
        let version = try database.intPragma("user_version")
        guard version < Self.schemaVersion else { return }
        try database.transaction {
            try database.execute("""
                CREATE TABLE IF NOT EXISTS snapshot(watch TEXT NOT NULL, record_id TEXT NOT NULL, fields TEXT NOT NULL,
                    PRIMARY KEY(watch, record_id)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS watch_state(watch TEXT PRIMARY KEY, baseline_at REAL NOT NULL, checkpoint TEXT);
                CREATE TABLE IF NOT EXISTS seen_history(watch TEXT NOT NULL, record_id TEXT NOT NULL, action TEXT NOT NULL,
                    timestamp TEXT NOT NULL, user TEXT NOT NULL,
                    PRIMARY KEY(watch, record_id, action, timestamp, user)) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS seen_history_time ON seen_history(watch, timestamp);
                CREATE TABLE IF NOT EXISTS polls(id INTEGER PRIMARY KEY, watch TEXT NOT NULL, started_at REAL NOT NULL,
                    duration_ms INTEGER NOT NULL, record_count INTEGER NOT NULL, change_count INTEGER NOT NULL, error TEXT);
                CREATE TABLE IF NOT EXISTS changes(id INTEGER PRIMARY KEY, watch TEXT NOT NULL, poll_id INTEGER NOT NULL,
                    detected_at REAL NOT NULL, record_id TEXT NOT NULL, kind TEXT NOT NULL, change TEXT NOT NULL,
                    delivered_at REAL);
                CREATE INDEX IF NOT EXISTS changes_undelivered ON changes(delivered_at) WHERE delivered_at IS NULL;
                CREATE INDEX IF NOT EXISTS changes_record ON changes(record_id, detected_at);
                CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                PRAGMA user_version = \(Self.schemaVersion);
                """)
        }
    }

    /// Runs `body`, wrapping any failure in a `StoreError` that names the operation.
    func guarded<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as StoreError { throw error } catch {
            throw StoreError(path: path, operation: operation, error)
        }
    }

    // MARK: - Reading a watch

    /// The stored snapshot, or `nil` when the watch has no baseline yet.
    public func snapshot(watch: String) throws -> Snapshot? {
        try guarded("read") {
            let baseline = try database.prepare("SELECT 1 FROM watch_state WHERE watch = ?").bind([.text(watch)])
            guard try baseline.step() else { return nil }
            let rows = try database.prepare("SELECT record_id, fields FROM snapshot WHERE watch = ?").bind([.text(watch)])
            var records: [RecordID: Record] = [:]
            while try rows.step() {
                let id = RecordID(rows.text(0))
                let fields = try decoder.decode([String: String].self, from: Data(rows.text(1).utf8))
                records[id] = Record(id: id, fields: fields)
            }
            return Snapshot(records: records)
        }
    }

    public func checkpoint(watch: String) throws -> CompassTimestamp? {
        try guarded("read") {
            let row = try database.prepare("SELECT checkpoint FROM watch_state WHERE watch = ?").bind([.text(watch)])
            return try row.step() ? row.optionalText(0).map(CompassTimestamp.init) : nil
        }
    }

    public func seenHistoryKeys(watch: String) throws -> Set<HistoryKey> {
        try guarded("read") {
            let rows = try database.prepare("SELECT record_id, action, timestamp, user FROM seen_history WHERE watch = ?")
                .bind([.text(watch)])
            var keys = Set<HistoryKey>()
            while try rows.step() {
                keys.insert(HistoryKey(record: RecordID(rows.text(0)), action: rows.text(1),
                                       timestamp: CompassTimestamp(rows.text(2)), user: rows.text(3)))
            }
            return keys
        }
    }

    // MARK: - Committing a poll

    /// Persists one successful poll in one transaction and returns its changes as stored (undelivered).
    @discardableResult
    public func commit(_ poll: PollCommit) throws -> [StoredChange] {
        try guarded("write") {
            try database.transaction {
                try applyDelta(poll.delta, watch: poll.watch)
                try updateWatchState(poll)
                try updateSeen(poll)
                let pollID = try insertPoll(watch: poll.watch, poll.log)
                return try poll.changes.map { try insertChange($0, watch: poll.watch, pollID: pollID, at: poll.log.startedAt) }
            }
        }
    }

    private func applyDelta(_ delta: SnapshotDelta, watch: String) throws {
        let upsert = try database.prepare("""
            INSERT INTO snapshot(watch, record_id, fields) VALUES (?, ?, ?)
            ON CONFLICT(watch, record_id) DO UPDATE SET fields = excluded.fields
            """)
        for record in delta.upserts {
            let fields = String(decoding: try encoder.encode(record.fields), as: UTF8.self)
            try upsert.run([.text(watch), .text(record.id.rawValue), .text(fields)])
        }
        let remove = try database.prepare("DELETE FROM snapshot WHERE watch = ? AND record_id = ?")
        for id in delta.removals { try remove.run([.text(watch), .text(id.rawValue)]) }
    }

    private func updateWatchState(_ poll: PollCommit) throws {
        try database.prepare("""
            INSERT INTO watch_state(watch, baseline_at, checkpoint) VALUES (?, ?, ?)
            ON CONFLICT(watch) DO UPDATE SET checkpoint = COALESCE(excluded.checkpoint, watch_state.checkpoint)
            """).run([.text(poll.watch), .double(poll.log.startedAt), .text(poll.checkpoint?.rawValue)])
    }

    private func updateSeen(_ poll: PollCommit) throws {
        let insert = try database.prepare(
            "INSERT OR IGNORE INTO seen_history(watch, record_id, action, timestamp, user) VALUES (?, ?, ?, ?, ?)")
        for key in poll.newlySeen {
            try insert.run([.text(poll.watch), .text(key.record.rawValue), .text(key.action), .text(key.timestamp.rawValue), .text(key.user)])
        }
        if let boundary = poll.pruneSeenBefore {
            try database.prepare("DELETE FROM seen_history WHERE watch = ? AND timestamp < ?")
                .run([.text(poll.watch), .text(boundary.rawValue)])
        }
    }

    private func insertPoll(watch: String, _ log: PollLogEntry) throws -> Int64 {
        try database.prepare("""
            INSERT INTO polls(watch, started_at, duration_ms, record_count, change_count, error) VALUES (?, ?, ?, ?, ?, ?)
            """).run([.text(watch), .double(log.startedAt), .int(Int64(log.durationMilliseconds)), .int(Int64(log.recordCount)),
                      .int(Int64(log.changeCount)), .text(log.error)])
        return database.lastInsertRowID
    }

    private func insertChange(_ change: Change, watch: String, pollID: Int64, at time: Double) throws -> StoredChange {
        let json = String(decoding: try encoder.encode(change), as: UTF8.self)
        try database.prepare("""
            INSERT INTO changes(watch, poll_id, detected_at, record_id, kind, change) VALUES (?, ?, ?, ?, ?, ?)
            """).run([.text(watch), .int(pollID), .double(time), .text(change.record.rawValue), .text(change.kind.rawValue), .text(json)])
        return StoredChange(id: database.lastInsertRowID, watch: watch, detectedAt: time, change: change, delivered: false)
    }

    /// Logs a failed poll; the snapshot, history and checkpoint stay as they were.
    public func recordFailure(watch: String, log: PollLogEntry) throws {
        _ = try guarded("write") { try insertPoll(watch: watch, log) }
    }

    /// Forgets everything about a watch: the next poll takes a new baseline.
    public func forget(watch: String) throws {
        try guarded("write") {
            try database.transaction {
                for table in ["snapshot", "watch_state", "seen_history"] {
                    try database.prepare("DELETE FROM \(table) WHERE watch = ?").run([.text(watch)])
                }
            }
        }
    }

    // MARK: - Meta

    public func value(forKey key: String) throws -> String? {
        try guarded("read") {
            let row = try database.prepare("SELECT value FROM meta WHERE key = ?").bind([.text(key)])
            return try row.step() ? row.text(0) : nil
        }
    }

    public func setValue(_ value: String?, forKey key: String) throws {
        try guarded("write") {
            if let value {
                try database.prepare("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
                    .run([.text(key), .text(value)])
            } else {
                try database.prepare("DELETE FROM meta WHERE key = ?").run([.text(key)])
            }
        }
    }

    func decodeChange(_ json: String) throws -> Change { try decoder.decode(Change.self, from: Data(json.utf8)) }
}
