import Foundation
@testable import StateStore
import TrackwatchCore
import XCTest

/// The idle daemon hands back what SQLite holds for a store after a poll (`StateStore.releaseMemory` closes the
/// connection), and the next call opens the same file again.
final class MemoryTests: StoreTestCase {
    func test_releaseMemory_emptiesThePageCache_andTheNextReadFillsItAgain() throws {
        let store = try makeStore()
        let records = (1...5_000).map { record($0, extra: ["Description": String(repeating: "text ", count: 40)]) }
        try store.commit(baseline(records))
        XCTAssertEqual(try store.snapshot(watch: "assigned")?.count, 5_000)
        let filled = store.cacheBytes
        XCTAssertGreaterThan(filled, 500_000, "a snapshot of 5,000 records read through the cache")
        store.releaseMemory()
        XCTAssertLessThan(store.cacheBytes, filled / 10, "released: \(store.cacheBytes) of \(filled) bytes left")
        XCTAssertEqual(try store.snapshot(watch: "assigned"), Snapshot(records), "nothing lost")
        XCTAssertGreaterThan(store.cacheBytes, 500_000)
    }

    func test_releaseMemory_finalizesThePreparedStatements_andTheNextPollPreparesThemAgain() throws {
        let store = try makeStore()
        try store.commit(baseline((1...10).map { record($0) }))
        _ = try store.snapshot(watch: "assigned")
        let prepared = store.statementBytes
        XCTAssertGreaterThan(prepared, 0, "a poll's statements, kept for reuse")
        store.releaseMemory()
        XCTAssertEqual(store.statementBytes, 0, "none kept while idle (\(prepared) bytes before)")
        try store.commit(poll(upserts: [record(11), record(12)]))
        XCTAssertEqual(try store.snapshot(watch: "assigned")?.count, 12, "prepared again")
    }

    func test_releaseMemory_closesTheConnection_andTheNextCallOpensItAgainSeeingEverythingCommitted() throws {
        let store = try makeStore()
        try store.commit(baseline([record(1), record(2)]))
        let stored = try store.commit(poll(upserts: [record(2, state: "Resolved")], changes: [change(2)]))
        store.releaseMemory()
        XCTAssertFalse(store.isOpen)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: databasePath + "-wal"), "the WAL checkpointed into the file on close")
        XCTAssertEqual(try store.undeliveredChanges(), stored, "opened again")
        XCTAssertTrue(store.isOpen)
        XCTAssertEqual(try store.snapshot(watch: "assigned"), Snapshot([record(1), record(2, state: "Resolved")]))
        let reopened = try makeStore()
        XCTAssertEqual(reopened.identity, store.identity)
        XCTAssertEqual(try reopened.snapshot(watch: "assigned")?.count, 2)
    }

    /// A state file deleted or replaced while the daemon waited is not taken for its own: the next call fails with
    /// `.replaced` (restart trackwatch), and nothing is written into the file now there.
    func test_aStateFileReplacedWhileClosed_isRefused_andNotWritten() throws {
        let store = try makeStore()
        try store.commit(baseline([record(1)]))
        store.releaseMemory()
        let other = directory + "/other"
        XCTAssertEqual(mkdir(other, 0o700), 0)
        do {
            let stranger = try StateStore(directory: other)
            try stranger.commit(baseline([record(7)]))
        }
        XCTAssertEqual(rename(other + "/" + StateStore.fileName, databasePath), 0)
        XCTAssertThrowsError(try store.commit(poll(upserts: [record(2)]))) { error in
            XCTAssertEqual((error as? StoreError)?.reason, .replaced, "\(error)")
            XCTAssertTrue("\(error)".contains("restart"), "says what to do: \(error)")
        }
        XCTAssertEqual(try StateStore(directory: directory).snapshot(watch: "assigned"), Snapshot([record(7)]))

        XCTAssertEqual(unlink(databasePath), 0)
        XCTAssertThrowsError(try store.snapshot(watch: "assigned")) { error in
            XCTAssertEqual((error as? StoreError)?.reason, .replaced, "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: databasePath), "not created again")
    }
}
