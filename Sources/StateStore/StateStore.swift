#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TrackwatchCore

/// trackwatch's persistent state in one SQLite file: per watch the snapshot, the baseline mark, the history
/// checkpoint and the history entries already seen; the poll log; and the change log, whose undelivered rows
/// are the notification outbox.
///
/// Every write is one transaction in WAL mode with `synchronous=FULL`: once a method returns, its effect
/// survives a killed process or a power loss, and a method that throws has changed nothing.
///
/// The store is `Sendable` because every call takes a mutex around the one SQLite connection, so calls
/// from different threads are serialised rather than racing on the connection or its statement cache. The
/// daemon calls it from one serial queue anyway, so the lock is never contended there; it exists so that
/// the compiler, not a comment, guarantees the store is never used from two threads at once.
///
/// The idle daemon closes the connection (`releaseMemory`) and the next call opens it again: every transaction
/// is one call, so none spans a close.
public final class StateStore: Sendable {
    /// The database file name inside a state directory.
    public static let fileName = "state.sqlite"

    /// How long a call waits for another process's lock before failing with `StoreError.Reason.locked`.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    /// The database file.
    public let path: String
    /// Random, made when the file is created: tells this database's change ids from those of a database
    /// that was moved aside and replaced.
    public let identity: String
    /// `nil` while the idle daemon has it closed (`releaseMemory`).
    private let database: Mutex<Database?>

    /// Opens (creating if needed) `<directory>/state.sqlite`. A missing directory is created with mode 0700,
    /// the file with mode 0600; an existing directory must be yours, no symbolic link, and is made private
    /// (see `prepareStateDirectory`).
    public convenience init(directory: String) throws {
        try prepareStateDirectory(directory)
        try self.init(path: directory.hasSuffix("/") ? directory + Self.fileName : directory + "/" + Self.fileName)
    }

    /// Opens (creating if needed, mode 0600) the database file at `path`; its directory must exist.
    public init(path: String) throws {
        self.path = path
        try createPrivateFile(path)
        let database = try Self.open(path)
        identity = try Self.identity(of: database, path: path)
        self.database = Mutex(database)
    }

    private static func identity(of database: Database, path: String) throws -> String {
        do {
            if let known = try database.queryFirst("SELECT value FROM meta WHERE key = 'identity'", row: { $0.string(at: 0) }) ?? nil {
                return known
            }
            var generator = SystemRandomNumberGenerator()
            let made = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "-")
            try database.execute("INSERT INTO meta (key, value) VALUES ('identity', ?)", [.text(made)])
            return made
        } catch let error as SQLiteError {
            throw StoreError(error, operation: "open the state database", path: path)
        }
    }

    /// The id of a stored change that is unique across state databases (journal entries carry it).
    public func globalID(of change: StoredChange) -> String { "\(identity)-\(change.id)" }

    private static func open(_ path: String) throws -> Database {
        let database: Database
        do { database = try Database(path: path) } catch let error as SQLiteError {
            throw StoreError(error, operation: "open the state database", path: path)
        }
        try prepare(database, path: path)
        return database
    }

    /// Configures a connection just opened and brings its schema up to date.
    private static func prepare(_ database: Database, path: String) throws {
        do {
            try configure(database)
            try Schema.migrate(database)
        } catch let error as SQLiteError {
            throw StoreError(error, operation: "open the state database", path: path)
        } catch let error as Schema.NewerSchema {
            throw StoreError(
                reason: .newerSchema(found: error.found, supported: Schema.currentVersion),
                operation: "open the state database", path: path, detail: "unknown schema version \(error.found)"
            )
        }
    }

    private static func configure(_ database: Database) throws {
        try database.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        // The first statement reads the file header, so a file that is not a database fails here (NOTADB).
        // WAL lets `trackwatch status` read while the daemon writes; FULL syncs the WAL on every commit,
        // which is what makes an acknowledged poll survive a power loss (NORMAL would not).
        try database.exec("PRAGMA journal_mode = WAL")
        try database.exec("PRAGMA synchronous = FULL")
        // A baseline writes the whole snapshot through the WAL (~18 MB for 100,000 records); truncate the
        // file after checkpoints instead of keeping that size on disk for good.
        try database.exec("PRAGMA journal_size_limit = 4194304")
        try database.exec("PRAGMA foreign_keys = ON")
    }

    /// Closes the connection, for the idle daemon: its page cache (up to 2 MB of the heap after a poll of many
    /// records), prepared statements, schema and lookaside slots (~0.15 MB a source, which
    /// `sqlite3_db_release_memory` keeps) are handed back. The next call opens it again (`reopened`): the schema is
    /// read again and the pages come from the operating system's cache. Closing the last connection checkpoints the
    /// WAL into the database file, which a commit already made durable.
    public func releaseMemory() {
        database.withLock { $0 = nil }
    }

    /// Whether the connection is open now.
    var isOpen: Bool { database.withLock { $0 != nil } }

    /// Bytes the connection's page cache holds now (0 while closed).
    var cacheBytes: Int { database.withLock { $0?.cacheBytes ?? 0 } }

    /// Bytes the connection's prepared statements hold now (0 while closed).
    var statementBytes: Int { database.withLock { $0?.statementBytes ?? 0 } }

    /// The file opened again after `releaseMemory`: not created (a state database deleted while the daemon ran is
    /// an error, not a silent new baseline), and the one this store opened first (its `identity`), not a file put
    /// in its place.
    private func reopened() throws -> Database {
        let database: Database
        do {
            database = try Database(path: path, options: [.readWrite, .noMutex, .noFollow])
        } catch is SQLiteError where access(path, F_OK) != 0 {
            throw StoreError(reason: .replaced, operation: "open the state database again", path: path, detail: "it is gone")
        } catch let error as SQLiteError {
            throw StoreError(error, operation: "open the state database again", path: path)
        }
        try Self.prepare(database, path: path)
        let found = try Self.identity(of: database, path: path)
        guard found == identity else {
            throw StoreError(
                reason: .replaced, operation: "open the state database again", path: path,
                detail: "its identity is \(found), not \(identity)")
        }
        return database
    }

    /// Runs `body` on the connection under the lock, turning SQLite failures into `StoreError`s that name
    /// `operation`.
    func withDatabase<T: Sendable>(
        _ operation: @autoclosure () -> String, _ body: (Database) throws -> T
    ) throws -> T {
        try database.withLock { open in
            do {
                let database = try open ?? reopened()
                open = database
                return try body(database)
            } catch let error as SQLiteError {
                throw StoreError(error, operation: operation(), path: path)
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError(reason: .other, operation: operation(), path: path, detail: String(describing: error))
            }
        }
    }

    /// A `StoreError` for a stored value that cannot be read back.
    func unreadable(_ what: String, operation: String) -> StoreError {
        StoreError(reason: .corrupt, operation: operation, path: path, detail: "\(what) is unreadable")
    }
}

// MARK: Key-value settings

extension StateStore {
    /// The stored value for `key`, or `nil` if none.
    public func value(forKey key: String) throws -> String? {
        try withDatabase("read setting \"\(key)\"") { database in
            try database.queryFirst("SELECT value FROM meta WHERE key = ?", [.text(key)]) { $0.string(at: 0) } ?? nil
        }
    }

    /// Stores `value` for `key`; `nil` deletes the key.
    public func setValue(_ value: String?, forKey key: String) throws {
        try withDatabase("store setting \"\(key)\"") { database in
            guard let value else {
                return try database.execute("DELETE FROM meta WHERE key = ?", [.text(key)])
            }
            try database.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [.text(key), .text(value)]
            )
        }
    }
}
