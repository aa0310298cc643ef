import Foundation
@testable import StateStore
import TrackwatchCore
import XCTest

final class OpeningTests: StoreTestCase {
    func test_reopening_seesEverythingCommitted() throws {
        let stored: [StoredChange]
        do {
            let store = try makeStore()
            try store.commit(baseline([record(1), record(2)], checkpoint: "2025-03-01 09:00:00"))
            stored = try store.commit(poll(seen: [key(1, at: "2025-03-01 08:00:00")], changes: [change(1)]))
            try store.recordFailure(watch: "assigned", log: log(at: 900, error: "timeout"))
            try store.setValue("1", forKey: "k")
        }
        let reopened = try makeStore()
        XCTAssertEqual(try reopened.snapshot(watch: "assigned"), Snapshot([record(1), record(2)]))
        XCTAssertEqual(try reopened.checkpoint(watch: "assigned"), Timestamp("2025-03-01 09:00:00"))
        XCTAssertEqual(try reopened.seenHistoryKeys(watch: "assigned"), [key(1, at: "2025-03-01 08:00:00")])
        XCTAssertEqual(try reopened.undeliveredChanges(), stored)
        XCTAssertEqual(try reopened.status().consecutiveFailures, 1)
        XCTAssertEqual(try reopened.value(forKey: "k"), "1")
    }

    func test_open_setsSchemaVersionWALAndFullSync() throws {
        _ = try makeStore()
        let database = try Database(path: databasePath)
        XCTAssertEqual(try Schema.version(of: database), Schema.currentVersion)
        XCTAssertEqual(try database.queryFirst("PRAGMA journal_mode") { $0.string(at: 0) }, "wal")
        // A new connection starts at the default; the store's own connection is checked through its pragma.
        let store = try makeStore()
        XCTAssertEqual(try store.withDatabase("test") { try $0.queryFirst("PRAGMA synchronous") { $0.int(at: 0) } }, 2)
        XCTAssertEqual(try store.withDatabase("test") { try $0.queryFirst("PRAGMA foreign_keys") { $0.int(at: 0) } }, 1)
    }

    /// `trackwatch status` opens the store while the daemon commits a poll: a reader of a WAL database never
    /// waits, yet opening took the write lock (the migration's transaction) and failed after the busy timeout
    /// with "database is locked" while a long commit (a large baseline, a slow disk) held it.
    func test_opening_whileAnotherConnectionWrites_neitherWaitsNorFails() throws {
        do {
            let store = try makeStore()
            try store.commit(baseline([record(1)]))
        }
        let writer = try Database(path: databasePath)
        try writer.setBusyTimeout(milliseconds: 0)
        try writer.exec("BEGIN IMMEDIATE")
        try writer.exec("DELETE FROM snapshot")
        let started = Date()
        let reader = try makeStore()
        XCTAssertEqual(try reader.snapshot(watch: "assigned"), Snapshot([record(1)]), "the last commit, not the write")
        XCTAssertNotNil(try reader.status().lastPoll)
        XCTAssertLessThan(Date().timeIntervalSince(started), 1, "opened without waiting for the writer")
        try writer.exec("ROLLBACK")
    }

    /// A database of schema version 2 (seen keys without an occurrence): every key it had seen is still seen, as
    /// the first of its kind, and a second identical entry can be stored beside it.
    func test_openingVersion2_keepsEverySeenKeyAsTheFirstOfItsKind() throws {
        let first = key(1, at: "2025-03-01 08:00:00"), other = key(2, at: "2025-03-01 08:30:00", user: "lead")
        do {
            let store = try makeStore()
            try store.commit(baseline([record(1), record(2)]))
        }
        // Back to version 2's shape, with its keys.
        let database = try Database(path: databasePath)
        try database.exec("""
            DROP TABLE seen_history;
            CREATE TABLE seen_history (
                watch TEXT NOT NULL, record_id TEXT NOT NULL, action TEXT NOT NULL, timestamp TEXT NOT NULL,
                user TEXT NOT NULL, PRIMARY KEY (watch, record_id, action, timestamp, user)
            ) WITHOUT ROWID;
            CREATE INDEX seen_history_by_time ON seen_history (watch, timestamp);
            INSERT INTO seen_history VALUES ('assigned', 'SAMPL00000001', 'Modify', '2025-03-01 08:00:00', 'alice');
            INSERT INTO seen_history VALUES ('assigned', 'SAMPL00000002', 'Modify', '2025-03-01 08:30:00', 'lead');
            PRAGMA user_version = 2;
            """)
        let store = try makeStore()
        XCTAssertEqual(try Schema.version(of: database), Schema.currentVersion, "through versions 3 and 4")
        XCTAssertEqual(try store.seenHistoryKeys(watch: "assigned"), [first, other])
        try store.commit(poll(seen: [first, first.occurrence(2)], pruneBefore: "2025-03-01 08:10:00"))
        XCTAssertEqual(try store.seenHistoryKeys(watch: "assigned"), [other], "pruned by time, every occurrence")
        try store.commit(poll(seen: [other.occurrence(2)]))
        XCTAssertEqual(try store.seenHistoryKeys(watch: "assigned"), [other, other.occurrence(2)])
    }

    func test_open_createsDirectory0700AndFiles0600() throws {
        let nested = directory + "/state/trackwatch"
        let store = try StateStore(directory: nested)
        try store.commit(baseline([record(1)]))
        XCTAssertEqual(try mode(of: nested), 0o700)
        XCTAssertEqual(try mode(of: nested + "/state.sqlite"), 0o600)
        XCTAssertEqual(try mode(of: nested + "/state.sqlite-wal"), 0o600)
    }

    func test_open_fileWrittenByNewerVersion_isRefused() throws {
        _ = try makeStore()
        try Database(path: databasePath).exec("PRAGMA user_version = 99")
        let error = storeError { _ = try makeStore() }
        XCTAssertEqual(error?.reason, .newerSchema(found: 99, supported: Schema.currentVersion))
    }

    func test_open_whereParentIsARegularFile_failsWithUsefulError() throws {
        let file = directory + "/not-a-directory"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let viaDirectory = storeError { _ = try StateStore(directory: file + "/trackwatch") }
        XCTAssertEqual(viaDirectory?.reason, .cannotOpen)
        XCTAssertTrue(viaDirectory?.description.contains("not-a-directory") ?? false)
        XCTAssertTrue(viaDirectory?.description.contains("Check that") ?? false)
        let viaPath = storeError { _ = try StateStore(path: file + "/state.sqlite") }
        XCTAssertEqual(viaPath?.reason, .cannotOpen)
    }

    func test_open_readOnlyDirectory_failsWithPermissionAdvice() throws {
        try XCTSkipIf(geteuid() == 0, "root ignores file permissions")
        XCTAssertEqual(chmod(directory, 0o500), 0)
        let error = storeError { _ = try makeStore() }
        XCTAssertEqual(error?.reason, .readOnly)
        XCTAssertTrue(error?.description.contains("permissions") ?? false)
    }

    func test_open_garbageFile_isReportedAsCorrupt() throws {
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        XCTAssertTrue(FileManager.default.createFile(atPath: databasePath, contents: garbage))
        let error = storeError { _ = try makeStore() }
        XCTAssertEqual(error?.isCorrupt, true)
        XCTAssertTrue(error?.description.contains("move it aside") ?? false, "\(String(describing: error))")
    }

    func test_errorReasons_mapFromSQLiteCodes() {
        let cases: [(Int32, StoreError.Reason, String)] = [
            (13, .diskFull, "Free some space"),  // SQLITE_FULL
            (8, .readOnly, "permissions"),  // SQLITE_READONLY
            (11, .corrupt, "move it aside"),  // SQLITE_CORRUPT
            (26, .corrupt, "move it aside"),  // SQLITE_NOTADB
            (5, .locked, "only one trackwatch"),  // SQLITE_BUSY
            (14, .cannotOpen, "Check that"),  // SQLITE_CANTOPEN
            (778, .ioError, "I/O error"),  // SQLITE_IOERR_WRITE
            (1, .other, "bug"),  // SQLITE_ERROR
        ]
        for (code, reason, advice) in cases {
            let error = StoreError(
                SQLiteError(extendedCode: code, message: "m", context: "c"), operation: "commit", path: "/s/state.sqlite"
            )
            XCTAssertEqual(error.reason, reason, "code \(code)")
            XCTAssertTrue(error.description.contains(advice), "code \(code): \(error)")
            XCTAssertTrue(error.description.contains("/s"), "code \(code): \(error)")
        }
    }

    private func mode(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
    }
}

final class PermissionTests: StoreTestCase {
    func test_reopen_afterFileBecameReadOnly_failsNamingTheDirectory() throws {
        try XCTSkipIf(geteuid() == 0, "root ignores file permissions")
        do { _ = try makeStore() }
        XCTAssertEqual(chmod(databasePath, 0o400), 0)
        let error = storeError { _ = try makeStore() }
        XCTAssertEqual(error?.reason, .readOnly)
        XCTAssertTrue(error?.description.contains(directory) ?? false, "\(String(describing: error))")
    }

    func test_reopen_afterDirectoryBecameReadOnly_failsWithAdvice() throws {
        try XCTSkipIf(geteuid() == 0, "root ignores file permissions")
        do { _ = try makeStore() }
        XCTAssertEqual(chmod(directory, 0o500), 0)
        let error = storeError { _ = try makeStore() }
        XCTAssertEqual(error?.reason, .readOnly, "\(String(describing: error))")
    }
}
