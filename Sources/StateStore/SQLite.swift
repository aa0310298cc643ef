import CSQLite

// The only place besides SQLiteStatement.swift that touches the C API. Every `sqlite3*` pointer is owned by
// a `Database` and released in its `deinit`; nothing else calls `sqlite3_close`.

/// A failed SQLite call: the primary and extended result codes and SQLite's own message.
struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// Primary result code (`SQLITE_FULL`, `SQLITE_CORRUPT`, …): the low byte of `extendedCode`.
    var code: Int32 { extendedCode & 0xFF }
    /// Extended result code (`SQLITE_IOERR_WRITE`, `SQLITE_READONLY_DIRECTORY`, …).
    let extendedCode: Int32
    /// `sqlite3_errmsg` at the time of the failure, or `sqlite3_errstr` when there was no connection.
    let message: String
    /// The statement or operation that failed, for the log.
    let context: String
    /// The operating system's errno behind an I/O failure (`sqlite3_system_errno`), 0 when none.
    var systemErrno: Int32 = 0

    var description: String { "\(message) (SQLite code \(extendedCode), during \(context))" }
}

/// How to open a database file.
struct OpenOptions: OptionSet, Sendable {
    let rawValue: Int32

    static let readOnly = OpenOptions(rawValue: SQLITE_OPEN_READONLY)
    static let readWrite = OpenOptions(rawValue: SQLITE_OPEN_READWRITE)
    static let create = OpenOptions(rawValue: SQLITE_OPEN_CREATE)
    /// The connection is used by one thread at a time (the store serialises access), so SQLite's own
    /// per-call mutex is unnecessary.
    static let noMutex = OpenOptions(rawValue: SQLITE_OPEN_NOMUTEX)
    /// A database path that is a symbolic link is refused (SQLITE_CANTOPEN_SYMLINK), so a link planted in the
    /// state directory cannot redirect the database to another of your files.
    static let noFollow = OpenOptions(rawValue: SQLITE_OPEN_NOFOLLOW)
}

/// One SQLite connection. Not thread-safe: callers serialise access (see `StateStore`).
final class Database {
    private let handle: OpaquePointer
    /// Statements reused across calls, keyed by SQL text: a poll runs the same few statements once per row.
    private var cache: [String: Statement] = [:]
    let path: String

    /// Opens `path`. Fails with the SQLite error when the file cannot be opened.
    init(path: String, options: OpenOptions = [.readWrite, .create, .noMutex, .noFollow]) throws {
        var pointer: OpaquePointer?
        let rc = sqlite3_open_v2(path, &pointer, options.rawValue, nil)
        guard rc == SQLITE_OK, let pointer else {
            // Even a failed open may allocate a handle; it must still be closed.
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            let extended = pointer.map { sqlite3_extended_errcode($0) } ?? rc
            let systemErrno = pointer.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(pointer)
            throw SQLiteError(extendedCode: extended, message: message, context: "open", systemErrno: systemErrno)
        }
        handle = pointer
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        // Statements are finalised first; `close_v2` would otherwise defer the close until they are.
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Bytes the connection's page cache holds now (`SQLITE_DBSTATUS_CACHE_USED`).
    var cacheBytes: Int {
        var current: Int32 = 0, highest: Int32 = 0
        _ = sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }

    /// Bytes the connection's prepared statements hold now (`SQLITE_DBSTATUS_STMT_USED`).
    var statementBytes: Int {
        var current: Int32 = 0, highest: Int32 = 0
        _ = sqlite3_db_status(handle, SQLITE_DBSTATUS_STMT_USED, &current, &highest, 0)
        return Int(current)
    }

    /// Waits up to `milliseconds` for another connection's lock before failing with `SQLITE_BUSY`.
    func setBusyTimeout(milliseconds: Int32) throws {
        try check(sqlite3_busy_timeout(handle, milliseconds), "busy_timeout")
    }

    /// Runs one or more SQL statements that take no parameters; result rows are discarded.
    func exec(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql)
    }

    /// A fresh prepared statement owned by the caller.
    func prepare(_ sql: String) throws -> Statement {
        try Statement(connection: handle, sql: sql)
    }

    /// The prepared statement for `sql`, reset and with no bindings; prepared on first use and then reused.
    func cached(_ sql: String) throws -> Statement {
        if let statement = cache[sql] { return statement }
        let statement = try prepare(sql)
        cache[sql] = statement
        return statement
    }

    /// Runs `sql` once with `values` bound in order.
    func execute(_ sql: String, _ values: [SQLValue] = []) throws {
        let statement = try cached(sql)
        defer { statement.reset() }
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Runs `sql` with `values` and calls `body` for every result row.
    func forEachRow(_ sql: String, _ values: [SQLValue] = [], _ body: (Statement) throws -> Void) throws {
        let statement = try cached(sql)
        // Resetting releases the read snapshot the statement holds, so WAL checkpoints are not held back.
        defer { statement.reset() }
        try statement.bind(values)
        while try statement.step() { try body(statement) }
    }

    /// Runs `sql` with `values` and maps every result row.
    func query<T>(_ sql: String, _ values: [SQLValue] = [], row: (Statement) throws -> T) throws -> [T] {
        var rows: [T] = []
        try forEachRow(sql, values) { rows.append(try row($0)) }
        return rows
    }

    /// The first row of `sql` mapped by `row`, or `nil` when there is none.
    func queryFirst<T>(_ sql: String, _ values: [SQLValue] = [], row: (Statement) throws -> T) throws -> T? {
        let statement = try cached(sql)
        defer { statement.reset() }
        try statement.bind(values)
        return try statement.step() ? row(statement) : nil
    }

    /// How a transaction takes its locks.
    enum TransactionMode: String {
        /// Takes the write lock at `BEGIN`, so a second writer waits (busy timeout) there rather than
        /// failing halfway through with a lock upgrade error. For every transaction that writes.
        case immediate = "BEGIN IMMEDIATE"
        /// Reads from one consistent snapshot of the database without blocking writers.
        case deferred = "BEGIN DEFERRED"
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    func transaction<T>(_ mode: TransactionMode = .immediate, _ body: () throws -> T) throws -> T {
        try exec(mode.rawValue)
        do {
            let result = try body()
            try exec("COMMIT")
            return result
        } catch {
            rollback()
            throw error
        }
    }

    /// The rowid of the last successful INSERT on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changeCount: Int { Int(sqlite3_changes(handle)) }

    private func rollback() {
        for statement in cache.values { statement.reset() }
        // SQLite already rolls back by itself after some errors (SQLITE_FULL, SQLITE_IOERR, …); a second
        // ROLLBACK would then fail with "no transaction is active".
        guard sqlite3_get_autocommit(handle) == 0 else { return }
        // A failing ROLLBACK leaves nothing better to do: the original error is the one worth reporting.
        _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }

    private func check(_ rc: Int32, _ context: String) throws {
        guard rc != SQLITE_OK else { return }
        throw SQLiteError(
            extendedCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)),
            context: context, systemErrno: sqlite3_system_errno(handle)
        )
    }
}
