@testable import CompassClient
@testable import TrackwatchCore
import XCTest

/// The compact record: fields kept as canonical JSON, read back exactly.
final class RecordTests: XCTestCase {
    private let awkward: [String: String] = [
        "Headline": "Crash on save & exit <b>now</b> \"quoted\" \\ back\nline\ttab\r\u{1}\u{8}\u{C}\u{1F}\u{7F}",
        "Owner": "Jürgen 🚀 日本", "": "empty key", "Note": "", "key \"with\" quotes\n": "v", "é": "accented key",
    ]

    func test_fieldsSubscriptAndHeadline_returnWhatWasGiven() {
        let record = Record(id: RecordID("SAMPL00000001"), fields: awkward)
        XCTAssertEqual(record.fields, awkward)
        for (key, value) in awkward { XCTAssertEqual(record[key], value, key) }
        XCTAssertNil(record["Missing"])
        XCTAssertEqual(record.headline, awkward["Headline"])
        XCTAssertEqual(Record(id: RecordID("X"), fields: [:]).headline, "")
        XCTAssertEqual(Record(id: RecordID("X"), fields: [:]).fields, [:])
    }

    /// Issue 20, item 14: a long value is cut where it arrives, its length and a fingerprint of the whole kept, so
    /// that a change anywhere in it is still a change, and no snapshot or change carries megabytes.
    func test_longValues_areCutWithTheirLengthAndAFingerprint() {
        let long = String(repeating: "x", count: 1_000_000)
        let record = Record(id: RecordID("A"), fields: ["Headline": long])
        let stored = try! XCTUnwrap(record["Headline"])
        XCTAssertLessThan(stored.utf8.count, 1_100)
        XCTAssertTrue(stored.hasSuffix("(1000000 characters, #\(Record.fingerprint(long)))"), String(stored.suffix(60)))
        XCTAssertLessThanOrEqual(stored.count, Record.valueLimit)
        XCTAssertEqual(Record.stored(stored), stored, "stored again, it stays itself: no change on the next poll")
        XCTAssertEqual(Record(id: RecordID("A"), fields: ["Headline": stored]), record)
        let changedAtTheEnd = Record(id: RecordID("A"), fields: ["Headline": long.dropLast() + "y"])
        XCTAssertFalse(record.hasSameFields(as: changedAtTheEnd), "a change past the cut is a change")
        let short = "Crash on save ✔"
        XCTAssertEqual(Record(id: RecordID("A"), fields: ["Headline": short])["Headline"], short)
        let layout = RecordLayout(columns: ["id", "Headline"], skipping: [0])
        var buffer: [UInt8] = []
        XCTAssertTrue(layout.record(id: RecordID("A"), values: ["A", long], buffer: &buffer).hasSameFields(as: record),
                      "rows are cut the same way")
    }

    func test_canonicalJSON_isSortedMinimallyEscapedAndEqualForEqualFields() {
        let record = Record(id: RecordID("A"), fields: ["b": "2", "a": "x\"y\\z\n\u{1}"])
        XCTAssertEqual(record.canonicalFields, #"{"a":"x\"y\\z\n\u0001","b":"2"}"#)
        var copy = awkward
        copy["Note"] = "changed"
        copy["Note"] = ""
        XCTAssertEqual(Record(id: RecordID("A"), fields: copy), Record(id: RecordID("A"), fields: awkward))
        XCTAssertNotEqual(Record(id: RecordID("A"), fields: ["a": "1"]), Record(id: RecordID("A"), fields: ["a": "2"]))
        XCTAssertNotEqual(Record(id: RecordID("A"), fields: ["a": "1"]), Record(id: RecordID("B"), fields: ["a": "1"]))
    }

    func test_settingFields_reencodes() {
        var record = Record(id: RecordID("A"), fields: ["State": "Opened"])
        record.fields["State"] = "Resolved"
        XCTAssertEqual(record, Record(id: RecordID("A"), fields: ["State": "Resolved"]))
    }

    func test_storedJSON_isTakenAsIsOnlyWhenCanonical() {
        func stored(_ json: String) -> Record? {
            Array(json.utf8).withUnsafeBufferPointer { Record(id: RecordID("A"), canonicalJSON: $0) }
        }
        let canonical = Record(id: RecordID("A"), fields: awkward)
        let asciiKeys = Record(id: RecordID("A"), fields: awkward.filter { $0.key.allSatisfy(\.isASCII) && !$0.key.contains("\"") && !$0.key.contains("\n") })
        XCTAssertEqual(stored(asciiKeys.canonicalFields), asciiKeys)
        XCTAssertEqual(stored("{}"), Record(id: RecordID("A"), fields: [:]))
        XCTAssertEqual(stored(#"{"a":"1","b":"2"}"#)?["b"], "2")
        // Non-ASCII or escaped keys may sort differently: never taken as is (the store re-encodes them).
        XCTAssertNil(stored(canonical.canonicalFields))
        for other in [
            #"{"b":"2","a":"1"}"#, #"{"a":"1","a":"1"}"#, #"{ "a":"1"}"#, #"{"a":"1"} "#, #"{"a":"\/"}"#,
            #"{"a":"\u00e9"}"#, #"{"a":"\u000a"}"#, #"{"a":"\u001F"}"#, #"{"a":"\b"}"#, "{\"a\":\"\n\"}", #"{"a":1}"#,
            #"{"a":"1""#, #"["a"]"#, "",
        ] {
            XCTAssertNil(stored(other), other)
        }
        XCTAssertNil(Array(#"{"a":""#.utf8 + [0xFF] + #""}"#.utf8).withUnsafeBufferPointer { Record(id: RecordID("A"), canonicalJSON: $0) })
    }

    /// Strings are checked and read eight bytes at a time where nothing needs attention: a special byte at any
    /// position of a long value must still be seen.
    func test_storedJSON_longValues_areCheckedAndReadWhereverTheSpecialByteFalls() {
        func stored(_ bytes: [UInt8]) -> Record? {
            bytes.withUnsafeBufferPointer { Record(id: RecordID("A"), canonicalJSON: $0) }
        }
        let plain = Array(repeating: UInt8(ascii: "x"), count: 23)
        func json(_ value: [UInt8]) -> [UInt8] { Array(#"{"Aa long field name":"#.utf8) + [0x22] + value + [0x22, 0x7D] }
        for position in 0...plain.count {
            func with(_ special: [UInt8]) -> [UInt8] { Array(plain[..<position]) + special + plain[position...] }
            for bad: [UInt8] in [[0x22], [0x01], [0x0A], [0xFF], [0x5C, 0x2F], [0xC3]] {
                XCTAssertNil(stored(json(with(bad))), "\(bad) at \(position)")
            }
            let quote = stored(json(with([0x5C, 0x22])))
            XCTAssertEqual(quote?["Aa long field name"], String(repeating: "x", count: position) + "\""
                + String(repeating: "x", count: plain.count - position), "an escaped quote at \(position)")
            let accent = stored(json(with(Array("é".utf8))))
            XCTAssertEqual(accent?["Aa long field name"]?.count, plain.count + 1, "é at \(position)")
            XCTAssertNil(accent?["Aa long field nam"], "a key is matched whole")
        }
    }

    func test_snapshot_keepsTheLastOfEqualIdsAndFindsByID() {
        let first = Record(id: RecordID("B"), fields: ["n": "1"]), last = Record(id: RecordID("B"), fields: ["n": "2"])
        let other = Record(id: RecordID("A"), fields: [:])
        let snapshot = Snapshot([first, other, last])
        XCTAssertEqual(snapshot.sortedRecords, [other, last])
        XCTAssertEqual(snapshot.record(RecordID("B")), last)
        XCTAssertNil(snapshot.record(RecordID("C")))
        XCTAssertEqual(snapshot.records, [RecordID("A"): other, RecordID("B"): last])
        XCTAssertEqual(Snapshot(records: snapshot.records), snapshot)
    }

    func test_rowsBecomeTheSameRecordsAsFromADictionary() throws {
        let values = ["SAMPL00000007", "33554439", "a \"b\" é", "Opened", "2-High", "3-Average", "alice", "engineer"]
        let records = try WatchQueries.records(fromRows: [values])
        var fields: [String: String] = [:]
        for (column, value) in zip(WatchQueries.assignedColumns, values).dropFirst() { fields[column] = value }
        XCTAssertEqual(records, [Record(id: RecordID("SAMPL00000007"), fields: fields)])
        XCTAssertEqual(records[0].canonicalFields, Record(id: RecordID("SAMPL00000007"), fields: fields).canonicalFields)
        XCTAssertThrowsError(try WatchQueries.records(fromRows: [Array(values.dropLast())]))
        XCTAssertThrowsError(try WatchQueries.records(fromRows: [[""] + values.dropFirst()]))
    }
}
