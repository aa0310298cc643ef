/// The database schema and its migrations, versioned with `PRAGMA user_version`.
///
/// `migrations[n]` takes a database from version `n` to `n + 1`. Append new steps; never edit a shipped one.
enum Schema {
    static let migrations: [String] = [version1, version2, version3, version4]

    /// The version this build writes.
    static var currentVersion: Int { migrations.count }

    /// Brings `database` to `currentVersion` in one transaction. Throws `newerSchema` for a file written by
    /// a newer trackwatch rather than guessing at its shape.
    ///
    /// A current file is only read: `trackwatch status` opens the store while the daemon writes, and the write
    /// lock of a migration's transaction made it wait for the daemon's commit (up to the busy timeout, then fail
    /// with "database is locked") where a reader of a WAL database never waits.
    static func migrate(_ database: Database) throws {
        let seen = try version(of: database)
        guard seen != currentVersion else { return }
        try database.transaction {
            let found = try version(of: database)
            guard found <= currentVersion else { throw NewerSchema(found: found) }
            for step in migrations[found...] { try database.exec(step) }
            if found < currentVersion { try database.exec("PRAGMA user_version = \(currentVersion)") }
        }
    }

    static func version(of database: Database) throws -> Int {
        try database.queryFirst("PRAGMA user_version") { $0.int(at: 0) } ?? 0
    }

    struct NewerSchema: Error {
        let found: Int
    }

    // Notes on the shape:
    // - `watch_state` has a row exactly when the watch has a baseline, so "no baseline" is not confused
    //   with "baseline of zero records".
    // - `snapshot.fields` is a JSON object with sorted keys (FieldsJSON): one row per record keeps a
    //   100,000-record baseline at 100,000 inserts, and equal records are equal bytes.
    // - Tables keyed by text are WITHOUT ROWID: the primary key is the only lookup, so a separate rowid
    //   b-tree would double the writes.
    // - `changes_undelivered` is a partial index: it holds only the outbox, which is usually empty.
    // - `changes.poll_id` references the poll that detected it, so deleting poll log rows takes their
    //   changes along (foreign keys are switched on per connection).
    // Version 2: muted records (`trackwatch mute`, the bubble's "Mute" button), and changes whose bubble waits
    // for the end of quiet hours (journaled and delivered, `held` = 1 until the summary bubble is shown). `held` = 2
    // marks a change a mute kept off the desktop (the page of recent changes says so): what became of its bubble.
    // Version 3: `seen_history.occurrence` tells identical history entries apart (the same person doing the same
    // action on one record within a second: `HistoryEntry.keys(of:)`). SQLite cannot change a primary key, so the
    // table is copied; every key stored before counts as the first of its kind, so nothing seen is seen anew.
    // Version 4: `seen_history.stored_at` (local seconds since 1970; 0 for keys stored before) says when a key was
    // stored, so that keys a server dates in the future are pruned too, by when they were stored.
    private static let version4 = """
        ALTER TABLE seen_history ADD COLUMN stored_at REAL NOT NULL DEFAULT 0;
        """

    private static let version3 = """
        CREATE TABLE seen_history_numbered (
            watch TEXT NOT NULL,
            record_id TEXT NOT NULL,
            action TEXT NOT NULL,
            timestamp TEXT NOT NULL,
            user TEXT NOT NULL,
            occurrence INTEGER NOT NULL DEFAULT 1,
            PRIMARY KEY (watch, record_id, action, timestamp, user, occurrence)
        ) WITHOUT ROWID;
        INSERT INTO seen_history_numbered (watch, record_id, action, timestamp, user, occurrence)
            SELECT watch, record_id, action, timestamp, user, 1 FROM seen_history;
        DROP TABLE seen_history;
        ALTER TABLE seen_history_numbered RENAME TO seen_history;
        CREATE INDEX seen_history_by_time ON seen_history (watch, timestamp);
        """

    private static let version2 = """
        CREATE TABLE mutes (
            record_id TEXT PRIMARY KEY NOT NULL,
            muted_at REAL NOT NULL
        ) WITHOUT ROWID;
        ALTER TABLE changes ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX changes_held ON changes (id) WHERE held = 1;
        """

    private static let version1 = """
        CREATE TABLE meta (
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE watch_state (
            watch TEXT PRIMARY KEY NOT NULL,
            baseline_at REAL NOT NULL,
            checkpoint TEXT
        ) WITHOUT ROWID;
        CREATE TABLE snapshot (
            watch TEXT NOT NULL,
            record_id TEXT NOT NULL,
            fields TEXT NOT NULL,
            PRIMARY KEY (watch, record_id)
        ) WITHOUT ROWID;
        CREATE TABLE seen_history (
            watch TEXT NOT NULL,
            record_id TEXT NOT NULL,
            action TEXT NOT NULL,
            timestamp TEXT NOT NULL,
            user TEXT NOT NULL,
            PRIMARY KEY (watch, record_id, action, timestamp, user)
        ) WITHOUT ROWID;
        CREATE INDEX seen_history_by_time ON seen_history (watch, timestamp);
        CREATE TABLE polls (
            id INTEGER PRIMARY KEY,
            watch TEXT NOT NULL,
            started_at REAL NOT NULL,
            duration_ms INTEGER NOT NULL,
            record_count INTEGER NOT NULL,
            change_count INTEGER NOT NULL,
            error TEXT
        );
        CREATE INDEX polls_by_watch ON polls (watch);
        CREATE TABLE changes (
            id INTEGER PRIMARY KEY,
            watch TEXT NOT NULL,
            poll_id INTEGER NOT NULL REFERENCES polls (id) ON DELETE CASCADE,
            detected_at REAL NOT NULL,
            record_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            change TEXT NOT NULL,
            delivered_at REAL
        );
        CREATE INDEX changes_undelivered ON changes (id) WHERE delivered_at IS NULL;
        CREATE INDEX changes_by_record ON changes (record_id);
        CREATE INDEX changes_by_time ON changes (detected_at);
        CREATE INDEX changes_by_poll ON changes (poll_id);
        """
}
