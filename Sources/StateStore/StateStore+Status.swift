#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TrackwatchCore

extension StateStore {
    /// Reads `StoreStatus`; the caller wraps it in one read transaction.
    static func readStatus(_ database: Database) throws -> StoreStatus {
        var status = try standing(database).map(StoreStatus.init(standing:)) ?? pollLogStanding(database)
        status.recordCounts = try recordCounts(database)
        status.checkpoints = try checkpoints(database)
        status.undelivered = try database.queryFirst("SELECT count(*) FROM changes WHERE delivered_at IS NULL") {
            $0.int(at: 0)
        } ?? 0
        status.failingWatches = try failingWatches(database)
        status.nextPoll = try database.queryFirst("SELECT value FROM meta WHERE key = ?", [.text(nextPollKey)]) {
            $0.string(at: 0).flatMap(NextPoll.init(text:))
        } ?? nil
        return status
    }

    /// The standing from the poll log alone, for a store whose polls no trackwatch has recorded as a whole yet
    /// (`recordSourcePoll`): every watch of the source's own (a `[[watch]]` is stored as `watch:<name>` and reports
    /// its own failure in `failingWatches`), whatever the tracker calls it — `assigned`, `items`, `issues`, `mine`.
    private static func pollLogStanding(_ database: Database) throws -> StoreStatus {
        let own = "watch NOT LIKE 'watch:%'"
        let lastPoll = try database.queryFirst(
            "SELECT \(pollColumnList) FROM polls WHERE \(own) ORDER BY id DESC LIMIT 1"
        ) { pollLogEntry($0, from: 0) }
        let lastSuccess = try database.queryFirst(
            "SELECT id, \(pollColumnList) FROM polls WHERE \(own) AND error IS NULL ORDER BY id DESC LIMIT 1"
        ) { (id: $0.int64(at: 0), entry: pollLogEntry($0, from: 1)) }
        let lastError = try database.queryFirst(
            "SELECT \(pollColumnList) FROM polls WHERE error IS NOT NULL ORDER BY id DESC LIMIT 1"
        ) { pollLogEntry($0, from: 0) }
        // Walking back by rowid to the last success keeps this cheap however long the log grows.
        let failures = try database.queryFirst(
            "SELECT count(*) FROM polls WHERE \(own) AND id > ?", [.integer(lastSuccess?.id ?? 0)]
        ) { $0.int(at: 0) }
        return StoreStatus(
            lastPoll: lastPoll, lastSuccess: lastSuccess?.entry, lastError: lastError,
            consecutiveFailures: failures ?? 0, recordCounts: [:], checkpoints: [:], undelivered: 0)
    }

    /// Where the daemon leaves each source's next poll (`recordNextPoll`).
    static let nextPollKey = "next_poll"

    /// Records when the daemon polls this source next, and why then: `trackwatch status` says it.
    public func recordNextPoll(at: Double, why: String?) throws {
        try setValue(NextPoll(at: at, why: why).text, forKey: Self.nextPollKey)
    }

    private static func failingWatches(_ database: Database) throws -> [String: String] {
        var failing: [String: String] = [:]
        let sql = "SELECT watch, error FROM polls WHERE id IN (SELECT max(id) FROM polls GROUP BY watch) AND error IS NOT NULL"
        try database.forEachRow(sql) { failing[$0.string(at: 0) ?? ""] = $0.string(at: 1) }
        return failing
    }

    private static let pollColumnList = "started_at, duration_ms, record_count, change_count, error"

    private static func recordCounts(_ database: Database) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let sql = """
            SELECT watch, (SELECT count(*) FROM snapshot WHERE snapshot.watch = watch_state.watch) FROM watch_state
            """
        try database.forEachRow(sql) { counts[$0.string(at: 0) ?? ""] = $0.int(at: 1) }
        return counts
    }

    private static func checkpoints(_ database: Database) throws -> [String: Timestamp] {
        var checkpoints: [String: Timestamp] = [:]
        let sql = "SELECT watch, checkpoint FROM watch_state WHERE checkpoint IS NOT NULL"
        try database.forEachRow(sql) { checkpoints[$0.string(at: 0) ?? ""] = Timestamp($0.string(at: 1) ?? "") }
        return checkpoints
    }
}

// MARK: - A source's polls as a whole

/// A source's polls as a whole, as the command or the daemon that made them saw them: whatever its watches are
/// called, and also a poll that failed before any watch was asked (a token that cannot be read, a login refused
/// while finding out who I am), which the poll log never sees.
struct SourceStanding: Codable, Equatable {
    var lastPoll: PollLogEntry
    var lastSuccess: PollLogEntry?
    var lastError: PollLogEntry?
    var failuresInARow: Int
}

extension StoreStatus {
    init(standing: SourceStanding) {
        self.init(
            lastPoll: standing.lastPoll, lastSuccess: standing.lastSuccess, lastError: standing.lastError,
            consecutiveFailures: standing.failuresInARow, recordCounts: [:], checkpoints: [:], undelivered: 0)
    }
}

extension StateStore {
    /// Where `recordSourcePoll` keeps the standing, in `meta`.
    static let standingKey = "source_poll"

    /// Records one poll of the source as a whole, for `trackwatch status`: `log.error` set when the poll failed
    /// (counted in failures in a row); `partialFailure` when it was made but a part of it failed (a watched query, a
    /// project it cannot read): then it is the last error, and the poll is no failure in a row.
    public func recordSourcePoll(_ log: PollLogEntry, partialFailure: String? = nil) throws {
        try withDatabase("record the poll of the source") { database in
            try database.transaction {
                let previous = try Self.standing(database)
                var standing = SourceStanding(
                    lastPoll: log, lastSuccess: previous?.lastSuccess, lastError: previous?.lastError,
                    failuresInARow: log.error == nil ? 0 : (previous?.failuresInARow ?? 0) + 1)
                if log.error == nil { standing.lastSuccess = log }
                if log.error != nil { standing.lastError = log }
                if let partialFailure, log.error == nil {
                    var failed = log
                    failed.error = partialFailure
                    standing.lastError = failed
                }
                let text = String(decoding: try JSONEncoder().encode(standing), as: UTF8.self)
                try database.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?) "
                        + "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    [.text(Self.standingKey), .text(text)])
            }
        }
    }

    /// The standing `recordSourcePoll` left; `nil` before it first did (or when the entry cannot be read: the poll
    /// log then stands in).
    static func standing(_ database: Database) throws -> SourceStanding? {
        guard let text = try database.queryFirst("SELECT value FROM meta WHERE key = ?", [.text(standingKey)], row: {
            $0.string(at: 0)
        }) ?? nil else { return nil }
        return try? JSONDecoder().decode(SourceStanding.self, from: Data(text.utf8))
    }
}
