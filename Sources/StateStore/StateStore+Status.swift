import TrackwatchCore

extension StateStore {
    /// Reads `StoreStatus`; the caller wraps it in one read transaction.
    static func readStatus(_ database: Database) throws -> StoreStatus {
        // The server's standing is the built-in watch's; each [[watch]] reports its own failure below.
        let builtIn = builtInWatches.map(SQLValue.text)
        let lastPoll = try database.queryFirst("\(pollColumns) WHERE watch IN (?, ?) ORDER BY id DESC LIMIT 1", builtIn,
                                               row: loggedPoll)
        let lastSuccess = try database.queryFirst(
            "SELECT id, \(pollColumnList) FROM polls WHERE watch IN (?, ?) AND error IS NULL ORDER BY id DESC LIMIT 1",
            builtIn
        ) { (id: $0.int64(at: 0), entry: pollLogEntry($0, from: 1)) }
        let lastError = try database.queryFirst(
            "SELECT \(pollColumnList) FROM polls WHERE error IS NOT NULL ORDER BY id DESC LIMIT 1"
        ) { pollLogEntry($0, from: 0) }
        // Walking back by rowid to the last success keeps this cheap however long the log grows.
        let failures = try database.queryFirst(
            "SELECT count(*) FROM polls WHERE watch IN (?, ?) AND id > ?", builtIn + [.integer(lastSuccess?.id ?? 0)]
        ) { $0.int(at: 0) }
        return StoreStatus(
            lastPoll: lastPoll, lastSuccess: lastSuccess?.entry, lastError: lastError,
            consecutiveFailures: failures ?? 0, recordCounts: try recordCounts(database),
            checkpoints: try checkpoints(database),
            undelivered: try database.queryFirst("SELECT count(*) FROM changes WHERE delivered_at IS NULL") {
                $0.int(at: 0)
            } ?? 0,
            failingWatches: try failingWatches(database),
            nextPoll: try database.queryFirst("SELECT value FROM meta WHERE key = ?", [.text(nextPollKey)]) {
                $0.string(at: 0).flatMap(NextPoll.init(text:))
            } ?? nil
        )
    }

    /// Where the daemon leaves each source's next poll (`recordNextPoll`).
    static let nextPollKey = "next_poll"

    /// Records when the daemon polls this source next, and why then: `trackwatch status` says it.
    public func recordNextPoll(at: Double, why: String?) throws {
        try setValue(NextPoll(at: at, why: why).text, forKey: Self.nextPollKey)
    }

    /// The names in the store of a source's own question, whose polls are its standing: a tracker's built-in pair of
    /// queries (`assigned`), a list's items (`items`). Any source has one of them.
    static let builtInWatches = ["assigned", "items"]

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
