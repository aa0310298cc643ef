import CSQLite

/// A failed SQLite call: the result code, the extended code and SQLite's own message.
public struct SQLiteError: Error, CustomStringConvertible {
    public let code: Int32
    public let extendedCode: Int32
    public let message: String
    public var description: String { "\(message) (SQLite error \(extendedCode))" }
}

/// One SQLite connection. The wrapper owns the C handle and closes it in `deinit`.
final class Database {
    private(set) var handle: OpaquePointer?

    init(path: String) throws {
        let status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil)
        guard status == SQLITE_OK else {
            let error = SQLiteError(code: status, extendedCode: handle.map(sqlite3_extended_errcode) ?? status,
                                    message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open")
            sqlite3_close_v2(handle)
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 5_000)
    }

    deinit { sqlite3_close_v2(handle) }

    func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code & 0xFF, extendedCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
    }

    func execute(_ sql: String) throws {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
    }

    func prepare(_ sql: String) throws -> Statement { try Statement(database: self, sql: sql) }

    /// Runs `body` in an immediate transaction: committed if it returns, rolled back if it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    func intPragma(_ name: String) throws -> Int64 {
        let statement = try prepare("PRAGMA \(name)")
        return try statement.step() ? statement.int(0) : 0
    }
}

/// A prepared statement, finalized in `deinit`. Bind, step, read columns, reset, repeat.
final class Statement {
    private let database: Database
    private var handle: OpaquePointer?

    init(database: Database, sql: String) throws {
        self.database = database
        let status = sqlite3_prepare_v2(database.handle, sql, -1, &handle, nil)
        guard status == SQLITE_OK else { throw database.error(status) }
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to parameters 1…n after resetting the statement.
    @discardableResult
    func bind(_ values: [SQLiteValue]) throws -> Statement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(handle, index)
            case .int(let number): status = sqlite3_bind_int64(handle, index, number)
            case .double(let number): status = sqlite3_bind_double(handle, index, number)
            case .text(let text): status = sqlite3_bind_text(handle, index, text, -1, csqlite_transient())
            }
            guard status == SQLITE_OK else { throw database.error(status) }
        }
        return self
    }

    /// True while a row is available; false when done.
    func step() throws -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(status)
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ values: [SQLiteValue] = []) throws {
        try bind(values)
        while try step() {}
    }

    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: pointer)
    }

    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
}

enum SQLiteValue {
    case null
    case int(Int64)
    case double(Double)
    case text(String)

    static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
}
