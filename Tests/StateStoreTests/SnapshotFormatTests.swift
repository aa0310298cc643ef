@testable import StateStore
import TrackwatchCore
import XCTest

/// Stored fields are read back as records whether trackwatch wrote them (canonical, copied as is) or
/// another writer did (any flat JSON object of strings, encoded canonically again).
final class SnapshotFormatTests: StoreTestCase {
    func test_fieldsStoredInAnotherShape_loadAsTheSameRecords() throws {
        let store = try makeStore()
        let records = [record(1), record(2, extra: ["Owner": "Jürgen", "é": "x"]), record(3), record(4)]
        try store.commit(baseline(records))
        let other = try Database(path: databasePath)
        try other.exec(#"UPDATE snapshot SET fields = '{ "State" : "Opened", "Priority":"2-High", "Headline":"Defect number 1" }' WHERE record_id = 'SAMPL00000001'"#)
        try other.exec(#"UPDATE snapshot SET fields = '{"Headline":"Defect number 3","Priority":"2\/High","State":"\u004fpened"}' WHERE record_id = 'SAMPL00000003'"#)
        let loaded = try XCTUnwrap(try store.snapshot(watch: "assigned"))
        XCTAssertEqual(loaded, Snapshot(records.map { $0.id == recordID(3) ? record(3, extra: ["Priority": "2/High"]) : $0 }))
        XCTAssertEqual(loaded.sortedRecords.map(\.canonicalFields), loaded.sortedRecords.map { Record(id: $0.id, fields: $0.fields).canonicalFields })
    }

    func test_unreadableFields_failTheRead() throws {
        let store = try makeStore()
        try store.commit(baseline([record(1)]))
        try Database(path: databasePath).exec("UPDATE snapshot SET fields = '[1]'")
        XCTAssertThrowsError(try store.snapshot(watch: "assigned"))
    }
}
