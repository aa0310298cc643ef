@testable import StateStore
import TrackwatchCore
import XCTest

/// The idle daemon hands back what SQLite's page cache holds after a poll (`StateStore.releaseMemory`).
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
}
