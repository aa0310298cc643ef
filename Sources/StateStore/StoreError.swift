import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A state-store operation failed. The description says what failed, why, and what to do next.
///
/// Every write runs in one transaction, so after any `StoreError` from a write the stored state is exactly
/// what it was before the call.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    /// What kind of trouble this is, for callers that branch on it.
    public enum Reason: Equatable, Sendable {
        /// The disk (or quota) is full.
        case diskFull
        /// The file or its directory is not writable.
        case readOnly
        /// The file is not a SQLite database or is damaged; moving it aside starts a fresh baseline.
        case corrupt
        /// Another process holds the database locked for longer than the busy timeout.
        case locked
        /// The file or directory cannot be opened or created at all.
        case cannotOpen
        /// The operating system reported an I/O error.
        case ioError
        /// The file was written by a newer trackwatch with a schema this version does not know.
        case newerSchema(found: Int, supported: Int)
        /// The file the running daemon opened was deleted or another put in its place (it opens it again after
        /// each idle wait).
        case replaced
        /// Anything else: most likely a bug in trackwatch.
        case other
    }

    public let reason: Reason
    /// What the store was doing, e.g. `commit the poll of watch "assigned"`.
    public let operation: String
    /// The database file (or the directory, when creating it failed).
    public let path: String
    /// SQLite's or the operating system's own message.
    public let detail: String
    /// SQLite's extended result code, or `nil` when the failure did not come from SQLite.
    public let sqliteCode: Int32?

    /// True when the file is damaged or not a database: the caller may move it aside and start over.
    public var isCorrupt: Bool { reason == .corrupt }

    public var description: String {
        "Could not \(operation) (\(path)): \(detail). \(advice)"
    }

    init(reason: Reason, operation: String, path: String, detail: String, sqliteCode: Int32? = nil) {
        self.reason = reason
        self.operation = operation
        self.path = path
        self.detail = detail
        self.sqliteCode = sqliteCode
    }

    init(_ error: SQLiteError, operation: String, path: String) {
        // An I/O error's errno says more than SQLite's code: a full disk while growing the WAL or the
        // shared-memory file is reported as SQLITE_IOERR_WRITE / _SHMSIZE, not SQLITE_FULL.
        let fromErrno = Self.reason(forErrno: error.systemErrno)
        let reason = [SQLITE_IOERR, SQLITE_CANTOPEN].contains(error.code) && [.diskFull, .readOnly].contains(fromErrno)
            ? fromErrno : Self.reason(forSQLiteCode: error.code)
        let system = error.systemErrno != 0 ? ": \(systemMessage(error.systemErrno))" : ""
        self.init(
            reason: reason, operation: operation, path: path,
            detail: "\(error.message)\(system) (SQLite code \(error.extendedCode))", sqliteCode: error.extendedCode
        )
    }

    init(errno code: Int32, operation: String, path: String) {
        self.init(reason: Self.reason(forErrno: code), operation: operation, path: path, detail: systemMessage(code))
    }

    private var directory: String { parentDirectory(of: path) }

    private var advice: String {
        switch reason {
        case .diskFull:
            "Free some space on the disk holding \(directory); nothing was lost, and the poll will be retried."
        case .readOnly:
            "Check the permissions of \(directory) and the files in it: trackwatch must be able to write them."
        case .corrupt:
            "The state file is damaged or is not a trackwatch database; move it aside (trackwatch then takes "
                + "a fresh baseline without notifying) and keep the copy if you want to report the problem."
        case .locked:
            "Another process is using this state file; make sure only one trackwatch runs per state directory."
        case .cannotOpen:
            "Check that \(directory) exists, or can be created, and is a directory trackwatch can write."
        case .ioError:
            "The disk reported an I/O error; check the system log for disk trouble. The poll will be retried."
        case .newerSchema(let found, let supported):
            "The file has schema version \(found) but this trackwatch knows only up to \(supported); "
                + "run the newer trackwatch, or move the file aside to start over."
        case .replaced:
            "The state file was deleted or replaced while trackwatch ran; nothing more is stored until it is "
                + "restarted (systemctl --user restart trackwatch), which then uses the file now there."
        case .other:
            "This looks like a bug in trackwatch; please report it with this message."
        }
    }

    private static func reason(forSQLiteCode code: Int32) -> Reason {
        switch code {
        case SQLITE_FULL: .diskFull
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH: .readOnly
        case SQLITE_CORRUPT, SQLITE_NOTADB: .corrupt
        case SQLITE_BUSY, SQLITE_LOCKED: .locked
        case SQLITE_CANTOPEN: .cannotOpen
        case SQLITE_IOERR: .ioError
        default: .other
        }
    }

    private static func reason(forErrno code: Int32) -> Reason {
        switch code {
        case ENOSPC, EDQUOT: .diskFull
        case EACCES, EPERM, EROFS: .readOnly
        case EIO: .ioError
        default: .cannotOpen
        }
    }
}
