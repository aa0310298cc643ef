import CSQLite

/// A state-store failure, with what to do about it. Nothing is half-written: every write is one transaction.
public struct StoreError: Error, CustomStringConvertible {
    public let path: String
    public let operation: String
    public let underlying: SQLiteError?
    public let detail: String

    init(path: String, operation: String, _ error: any Error) {
        self.path = path
        self.operation = operation
        underlying = error as? SQLiteError
        detail = "\(error)"
    }

    /// The file is not a database or is damaged: the caller may move it aside and start a new baseline.
    public var isCorrupt: Bool {
        guard let code = underlying?.code else { return false }
        return code == SQLITE_CORRUPT || code == SQLITE_NOTADB
    }

    public var isDiskFull: Bool { underlying?.code == SQLITE_FULL }

    public var description: String {
        var text = "cannot \(operation) the state database \(path): \(detail)"
        switch underlying?.code {
        case SQLITE_FULL:
            text += ". The disk is full: free some space. Nothing was lost; the poll will be repeated."
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN, SQLITE_AUTH:
            text += ". Check that the directory exists and is writable by you."
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            text += ". The file is damaged: move it aside and trackwatch takes a new baseline."
        case SQLITE_BUSY, SQLITE_LOCKED:
            text += ". Another process holds the database: is a second trackwatch running?"
        default:
            break
        }
        return text
    }
}
