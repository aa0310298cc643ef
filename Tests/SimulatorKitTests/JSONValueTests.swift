import SimulatorKit
import XCTest

final class JSONValueTests: XCTestCase {
    func test_parseThenWrite_keepsMemberOrderAndNumberSpelling() throws {
        let text = #"{"z":1.0,"a":[2.50,-3e2,0],"m":{"b":null,"a":true},"s":"é\"\\\n"}"#
        XCTAssertEqual(String(decoding: try JSONValue.parse(Array(text.utf8)).bytes, as: UTF8.self), text)
    }

    func test_write_escapesQuotesBackslashesAndControlCharacters_theCommonOnesShort() {
        let value = JSONValue.string("q\"b\\n\nr\rt\tbell\u{07}esc\u{1B}é/\u{7F}")
        XCTAssertEqual(String(decoding: value.bytes, as: UTF8.self), #""q\"b\\n\nr\rt\tbell\u0007esc\u001bé/\#u{7F}""#)
    }

    func test_parse_decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONValue.parse(Array(#"["\u00e9\ud83d\ude80\t\/"]"#.utf8))
        XCTAssertEqual(value.array?.first?.string, "é🚀\t/")
    }

    func test_parse_refusesWhatIsNotJSON() {
        for text in ["", "[1,]", "{\"a\" 1}", "01x", "\"open", "[1] 2", "tru", "1.", "\"tab\there\""] {
            XCTAssertThrowsError(try JSONValue.parse(Array(text.utf8)), text)
        }
    }

    func test_parse_refusesNestingBeyondItsLimit_withoutRecursingIntoIt() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONValue.parse(Array(deep.utf8)))
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        XCTAssertNoThrow(try JSONValue.parse(Array(fine.utf8)))
    }

    func test_objectSubscript_replacesInPlace_appendsNew_andRemovesOnNil() {
        var value: JSONValue = ["a": 1, "b": 2]
        value["a"] = "x"
        value["c"] = 3
        value["b"] = nil
        XCTAssertEqual(String(decoding: value.bytes, as: UTF8.self), #"{"a":"x","c":3}"#)
    }

    func test_builders_keepOrder_spellAbsentAsNull_andWithSetsInPlaceOrLast() {
        let head: [(key: String, value: JSONValue)] = [("id", .int(7))]
        let value = JSONValue.object(head + [("milestone_id", .int(nil)), ("description", .text(nil)), ("time", 0.0)])
            .with("id", "7").with("deleted", .null)
        XCTAssertEqual(
            String(decoding: value.bytes, as: UTF8.self),
            #"{"id":"7","milestone_id":null,"description":null,"time":0.0,"deleted":null}"#)
        XCTAssertEqual(JSONValue.array([1]).with("id", 1), [1], "only an object takes a member")
    }

    func test_int_readsEverySpellingOfAnInteger() {
        XCTAssertEqual(JSONValue.number("42").int, 42)
        XCTAssertEqual(JSONValue.number("42.0").int, 42)
        XCTAssertEqual(JSONValue.string("42").int, 42)
        XCTAssertNil(JSONValue.number("4.2").int)
    }
}
