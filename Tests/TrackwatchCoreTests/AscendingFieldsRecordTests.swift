import TrackwatchCore
import XCTest

/// `Record(id:ascendingFields:buffer:)`: fields already in name order become the record that a dictionary of them
/// makes, byte for byte, or nothing, so that a source can skip the dictionary without ever storing another form.
final class AscendingFieldsRecordTests: XCTestCase {
    private let awkward: [String: String] = [
        "Headline": "Crash on save & exit <b>now</b> \"quoted\" \\ back\nline\ttab\r\u{1}\u{8}\u{C}\u{1F}\u{7F}",
        "Owner": "Jürgen 🚀 日本", "": "empty key", "Note": "", "key \"with\" quotes\n": "v", "é": "accented key",
        "e\u{301}x": "decomposed", "Long": String(repeating: "ü", count: 3_000), "Z": "upper after lower?",
    ]

    func test_ascendingFields_makeTheSameRecordAsTheirDictionary() {
        var buffer: [UInt8] = []
        let ascending = awkward.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        let record = try! XCTUnwrap(Record(id: RecordID("A-1"), ascendingFields: ascending, buffer: &buffer))
        let expected = Record(id: RecordID("A-1"), fields: awkward)
        XCTAssertEqual(record.canonicalFields, expected.canonicalFields)
        XCTAssertEqual(record, expected)
        XCTAssertEqual(record["Long"], Record.stored(awkward["Long"]!), "a long value is stored cut, as always")
        let empty = try! XCTUnwrap(Record(id: RecordID("B"), ascendingFields: [], buffer: &buffer))
        XCTAssertEqual(empty, Record(id: RecordID("B"), fields: [:]))
        let reused = try! XCTUnwrap(Record(id: RecordID("C"), ascendingFields: [("a", "1")], buffer: &buffer))
        XCTAssertEqual(reused.canonicalFields, #"{"a":"1"}"#, "the scratch buffer starts afresh")
    }

    func test_fieldsNotStrictlyAscending_makeNoRecord() {
        var buffer: [UInt8] = []
        XCTAssertNil(Record(id: RecordID("A"), ascendingFields: [("b", "1"), ("a", "2")], buffer: &buffer))
        XCTAssertNil(Record(id: RecordID("A"), ascendingFields: [("a", "1"), ("a", "2")], buffer: &buffer),
                     "a name twice")
        XCTAssertNil(Record(id: RecordID("A"), ascendingFields: [("\u{E9}", "1"), ("e\u{301}", "2")], buffer: &buffer),
                     "two spellings of one name are one dictionary key: not ascending either")
    }

    /// Records compare by their stored bytes, eight at a time: a difference at any position, a length that differs
    /// by one, and equal bytes of every length up to a few words.
    func test_sameFields_isTheSameBytes_atEveryLengthAndPosition() {
        for length in 0..<40 {
            let value = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            let record = Record(id: RecordID("A"), fields: ["f": value])
            XCTAssertTrue(record.hasSameFields(as: Record(id: RecordID("B"), fields: ["f": value])), "\(length)")
            XCTAssertFalse(record.hasSameFields(as: Record(id: RecordID("A"), fields: ["f": value + "a"])), "\(length)")
            for position in 0..<length {
                var changed = Array(value.utf8)
                changed[position] = UInt8(ascii: "Z")
                let other = Record(id: RecordID("A"), fields: ["f": String(decoding: changed, as: UTF8.self)])
                XCTAssertFalse(record.hasSameFields(as: other), "\(length) at \(position)")
                XCTAssertNotEqual(record, other)
            }
        }
    }
}
