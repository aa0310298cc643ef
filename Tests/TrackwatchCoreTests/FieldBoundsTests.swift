import TrackwatchCore
import XCTest

/// Issue 27, item 2: what one record and one change may hold (`FieldBounds.swift`), and `ListDiff` keeping to it.
final class FieldBoundsTests: XCTestCase {
    private func fields(_ count: Int, value: String = "v") -> [String: String] {
        Dictionary(uniqueKeysWithValues: (1...count).map { (String(format: "f%06d", $0), value) })
    }

    func test_fewFieldsWithShortNames_areKeptAsTheyAre() {
        let few = ["State": "Opened", "Priority": "2-High"]
        XCTAssertEqual(Record.bounded(fields: few), few)
        XCTAssertEqual(Record.bounded(fields: fields(Record.fieldLimit)).count, Record.fieldLimit)
    }

    /// Past the limit the first names are kept and the rest is one field: their count and a fingerprint, so a change
    /// in any of them is still a change; bounding again changes nothing.
    func test_manyFields_keepTheFirstByName_andFoldTheRest() {
        let bounded = Record.bounded(fields: fields(100_000))
        XCTAssertEqual(bounded.count, Record.fieldLimit)
        XCTAssertEqual(bounded["f000199"], "v")
        XCTAssertNil(bounded["f000200"])
        let other = try? XCTUnwrap(bounded[Record.otherFields])
        XCTAssertTrue(other?.hasPrefix("99801 fields, #") == true, other ?? "")
        XCTAssertEqual(Record.bounded(fields: bounded), bounded, "idempotent")

        var changed = fields(100_000)
        changed["f099999"] = "w"
        XCTAssertNotEqual(Record.bounded(fields: changed)[Record.otherFields], other, "a change far down still counts")
        XCTAssertEqual(Record.bounded(fields: changed)["f000001"], "v")
    }

    /// A long name is cut as a long value is: bounded, its length and fingerprint kept, the same name every time.
    func test_aLongName_isCut_keepingItsLengthAndFingerprint() {
        let name = String(repeating: "n", count: 5_000_000)
        let stored = Record.storedName(name)
        XCTAssertLessThanOrEqual(stored.count, Record.nameLimit)
        XCTAssertTrue(stored.hasPrefix("nnnn") && stored.contains("(5000000 characters, #"), stored)
        XCTAssertEqual(Record.storedName(stored), stored, "idempotent")
        XCTAssertNotEqual(Record.storedName(name + "m"), stored)
        XCTAssertEqual(Record.bounded(fields: [name: "1"]), [stored: "1"])
        XCTAssertEqual(Record.storedName("lastCheckedOutBy"), "lastCheckedOutBy")
    }

    func test_aChangeOfManyFields_keepsTheFirst_andCountsTheRest() {
        let many = (1...1_000).map { FieldChange(field: "f\($0)", old: "a", new: "b") }
        let bounded = Change.bounded(many)
        XCTAssertEqual(bounded.count, Change.fieldLimit)
        XCTAssertEqual(bounded.first, many.first)
        XCTAssertEqual(bounded.last, FieldChange(field: "and 951 more fields", old: nil, new: nil))
        XCTAssertEqual(bounded.last?.count, 951)
        XCTAssertTrue(bounded.last?.isMore == true)
        XCTAssertEqual(bounded.reduce(0) { $0 + $1.count }, 1_000, "every field change counted")
        XCTAssertEqual(Change.bounded(bounded), bounded, "idempotent")
        XCTAssertEqual(Change.bounded(Array(many.prefix(Change.fieldLimit))).count, Change.fieldLimit, "no cut")
        XCTAssertFalse(FieldChange(field: "and 3 more fields", old: "x", new: nil).isMore, "a field with a value")
    }

    /// Long values count too: a change keeps about `fieldBytesLimit` bytes of them, and always its first field.
    func test_aChangeOfLongValues_isBoundedInBytes() {
        let long = String(repeating: "x", count: Record.valueLimit)
        let changes = (1...40).map { FieldChange(field: "f\($0)", old: long, new: long + "!") }
        let bounded = Change.bounded(changes)
        let bytes = bounded.reduce(0) { $0 + $1.field.utf8.count + ($1.old?.utf8.count ?? 0) + ($1.new?.utf8.count ?? 0) }
        XCTAssertLessThanOrEqual(bytes, Change.fieldBytesLimit + 100)
        XCTAssertEqual(bounded.count, 16)
        XCTAssertEqual(bounded.last?.count, 25)
        let huge = String(repeating: "y", count: 40_000)
        let one = Change.bounded([FieldChange(field: huge, old: huge, new: huge + "!")])
        XCTAssertEqual(one.count, 1, "the first is kept")
        XCTAssertEqual(one.first?.field, Record.storedName(huge), "its name cut as a record cuts it")
        XCTAssertEqual(one.first?.old, Record.stored(huge))
        XCTAssertEqual(one.first?.new, Record.stored(huge + "!"))
        XCTAssertNotEqual(one.first?.old, one.first?.new, "still a change")
    }

    /// `ListDiff` reports a change of 100,000 fields as `Change.fieldLimit` field changes, the last counting the rest.
    func test_listDiff_boundsTheFieldsOfOneChange() {
        let before = Record(id: RecordID("1"), fields: fields(1_000, value: "0"))
        let after = Record(id: RecordID("1"), fields: fields(1_000, value: "1"))
        let outcome = ListDiff.compare(
            previous: Snapshot([before]), records: [after], rule: .changes, isCompared: { _ in true }, watch: "items",
            facts: { ItemFacts(headline: $0.id.rawValue) })
        let change = try? XCTUnwrap(outcome.changes.first)
        XCTAssertEqual(change?.changes.count, Change.fieldLimit)
        XCTAssertEqual(change?.changes.last?.field, "and 951 more fields")
        XCTAssertEqual(outcome.delta.upserts, [after], "the snapshot keeps the record whole")
    }
}
