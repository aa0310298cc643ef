@testable import CompassClient
import TrackwatchCore
import XCTest

/// Issue 27, item 2, on Compass's path: a saved query's column names come from the server, and are cut as a
/// `[[json]]` item's member names are, the same in the records and in what is compared.
final class SavedQueryBoundsTests: XCTestCase {
    private let path = WorkspacePath("Public Queries/Team P1s")!

    func test_aLongColumnName_isCut_inTheRecordsAndInWhatIsCompared_andItsChangeIsSeen() throws {
        let long = String(repeating: "c", count: 5_000_000)
        let columns = ["id", "State", long]
        let watch = WatchConfig(name: "Team P1s", query: path, fields: nil, rule: .changes)
        let before = try SavedQueryRows.records(columns: columns, rows: [["SAMPL1", "Opened", "a"]], query: path)
        let after = try SavedQueryRows.records(columns: columns, rows: [["SAMPL1", "Opened", "b"]], query: path)
        let compared = try SavedQueryRows.comparedFields(watch, columns: columns)
        XCTAssertEqual(compared, ["State", Record.storedName(long)])
        XCTAssertEqual(before.first?.fields.keys.sorted(), ["State", Record.storedName(long)])
        let outcome = SavedQueryDiff.compare(previous: Snapshot(before), records: after, watch: watch,
                                             comparedFields: compared)
        XCTAssertEqual(outcome.changes.first?.changes, [FieldChange(field: Record.storedName(long), old: "a", new: "b")])
    }
}
