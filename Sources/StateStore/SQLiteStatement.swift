import CSQLite

/// A value bound to a statement parameter.
enum SQLValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    /// `.text(value)`, or `.null` for `nil`.
    static func optionalText(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
    /// `.real(value)`, or `.null` for `nil`.
    static func optionalReal(_ value: Double?) -> SQLValue { value.map(SQLValue.real) ?? .null }
}

/// One prepared statement. Finalised in `deinit`; the owning `Database` outlives it or closes lazily
/// (`sqlite3_close_v2`), so a statement never refers to a closed connection.
final class Statement {
    private let handle: OpaquePointer
    private let sql: String

    init(connection: OpaquePointer, sql: String) throws {
        var pointer: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard rc == SQLITE_OK, let pointer else {
            sqlite3_finalize(pointer)
            throw SQLiteError(
                extendedCode: sqlite3_extended_errcode(connection),
                message: String(cString: sqlite3_errmsg(connection)), context: sql,
                systemErrno: sqlite3_system_errno(connection)
            )
        }
        handle = pointer
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: Binding (parameter indexes start at 1, as in SQLite)

    func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds text, or NULL for `nil`. SQLite copies the bytes (SQLITE_TRANSIENT), so the Swift string's
    /// storage need not outlive the call.
    func bind(_ value: String?, at index: Int32) throws {
        guard var value else { return try bindNull(at: index) }
        try value.withUTF8 { try bind(utf8: $0, at: index) }
    }

    /// Binds UTF-8 bytes as text, copied by SQLite.
    func bind(utf8 bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            // An empty buffer may have no base address, and a NULL pointer would bind SQL NULL, not ''.
            return try check(sqlite3_bind_text(handle, index, "", 0, csqlite_transient()))
        }
        let text = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
        try check(sqlite3_bind_text(handle, index, text, Int32(bytes.count), csqlite_transient()))
    }

    func bindNull(at index: Int32) throws {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Binds `values` to parameters 1, 2, … in order.
    func bind(_ values: [SQLValue]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .integer(let number): try bind(number, at: index)
            case .real(let number): try bind(number, at: index)
            case .text(let text): try bind(text, at: index)
            case .null: try bindNull(at: index)
            }
        }
    }

    // MARK: Stepping

    /// Advances to the next row: `true` when a row is available, `false` when the statement is done.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw error(rc)
        }
    }

    /// Makes the statement ready to run again with new bindings, and ends its read of the database.
    func reset() {
        // reset returns the last step's error again; that error was already thrown by `step`.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Columns (indexes start at 0, as in SQLite)

    func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func int(at column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column as text; `nil` for NULL.
    func string(at column: Int32) -> String? {
        isNull(at: column) ? nil : withUTF8(at: column) { String(decoding: $0, as: UTF8.self) }
    }

    /// The column's text bytes without copying them into a `String`; valid only inside `body`.
    func withUTF8<T>(at column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        // column_text before column_bytes, as SQLite documents, so the length matches the UTF-8 form.
        let text = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeBufferPointer(start: text, count: text == nil ? 0 : count))
    }

    private func check(_ rc: Int32) throws {
        guard rc != SQLITE_OK else { return }
        throw error(rc)
    }

    private func error(_ rc: Int32) -> SQLiteError {
        let connection = sqlite3_db_handle(handle)
        return SQLiteError(
            extendedCode: connection.map { sqlite3_extended_errcode($0) } ?? rc,
            message: connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc)),
            context: sql, systemErrno: connection.map { sqlite3_system_errno($0) } ?? 0
        )
    }
}
