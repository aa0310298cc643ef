@testable import JSONListClient
import XCTest

final class JSONValueTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    func test_numbers_thatMeanTheSame_areSpelledTheSame() {
        let cases: [(String, String)] = [
            ("1", "1"), ("1.0", "1"), ("1.00", "1"), ("10e-1", "1"), ("0.1e1", "1"), ("1.50", "1.5"), ("-0", "0"),
            ("-0.0", "0"), ("100", "100"), ("1e2", "100"), ("0.001", "0.001"), ("1E+3", "1000"), ("-2.5e-3", "-0.0025"),
            ("12345678901234567890", "12345678901234567890"), ("1e50", "1e50"), ("1.5e-60", "1.5e-60"), ("0e5", "0"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(JSONNumber.canonical(Array(text.utf8)), expected, text)
        }
        XCTAssertNil(JSONNumber.canonical(Array("1e9999999".utf8)), "an exponent beyond the bound is refused")
    }

    func test_parsedNumbers_areSpelledAsJSONNumberSpellsThem() throws {
        let forty = String(repeating: "9", count: 40)
        for text in [
            "0", "-0", "007", "-5", "10", "100", "12345678901234567890", forty, forty + "1", "-" + forty + "0",
            "1e2", "1.0", "0.5", "-0.0", "5E1",
        ] {
            XCTAssertEqual(try parse("[\(text)]"), .array([.number(JSONNumber.canonical(Array(text.utf8))!)]), text)
            XCTAssertEqual(try parse(text), .number(JSONNumber.canonical(Array(text.utf8))!), text)
        }
    }

    func test_parser_readsEveryKindOfValue_escapesAndSurrogates() throws {
        let value = try parse(
            #" {"a": [1, 2.50, -3e1], "b": {"c": null, "d": true, "e": false}, "s": "x\"\\\/\n\u00e9\ud83d\ude80"} "#)
        XCTAssertEqual(value[member: "a"], .array([.number("1"), .number("2.5"), .number("-30")]))
        XCTAssertEqual(value[member: "b"]?[member: "c"], .null)
        XCTAssertEqual(value[member: "s"], .string("x\"\\/\né🚀"))
    }

    func test_parser_refusesWhatIsNotJSON_sayingWhere() {
        for (text, says) in [
            ("[1, 2", "ends early"), ("{\"a\" 1}", "expected :"), ("[1] x", "more text"),
            ("\"a\u{01}b\"", "control character"), ("[01x]", "expected , or ]"), ("", "ends early"),
            ("tru", "expected true"), ("[\"\\q\"]", "unknown escape"),
        ] {
            XCTAssertThrowsError(try parse(text), text) { error in
                XCTAssertTrue("\(error)".contains(says), "\(text): \(error)")
            }
        }
    }

    func test_parser_boundsTheNesting_beforeTheStack() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try parse(deep)) { error in
            XCTAssertEqual((error as? JSONParser.Failure)?.tooDeep, true)
            XCTAssertTrue("\(error)".contains("deeper than 100 levels"), "\(error)")
        }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        XCTAssertNoThrow(try parse(fine))
    }

    func test_parser_repairsBytesThatAreNotUTF8_andLoneSurrogates() throws {
        let bytes: [UInt8] = Array(#"["a"#.utf8) + [0xC3, 0x28] + Array(#"b", "\ud800x"]"#.utf8)
        XCTAssertEqual(try JSONParser.parse(bytes), .array([.string("a\u{FFFD}(b"), .string("\u{FFFD}x")]))
    }

    func test_ndjson_isAList_oneDocumentIsNot() throws {
        let lines = try JSONParser.parseDocumentOrLines(Array("{\"id\":1}\n{\"id\":2}\r\n\n{\"id\":3}\n".utf8))
        XCTAssertTrue(lines.lines)
        XCTAssertEqual(
            lines.value, .array([1, 2, 3].map { .object([JSONMember(name: "id", value: .number("\($0)"))]) }))
        let one = try JSONParser.parseDocumentOrLines(Array("[1,\n2]\n".utf8))
        XCTAssertFalse(one.lines)
        XCTAssertThrowsError(try JSONParser.parseDocumentOrLines(Array("{\"id\":1} {\"id\":2}".utf8)))
    }

    func test_fieldText_sameMeaningSameText() throws {
        let one = try parse(#"{"meta": {"b": [1.0, "x"], "a": null}, "n": 1.50, "s": "42", "t": true}"#)
        let other = try parse(#"{"t": true, "s": "42", "n": 1.5, "meta": {"a": null, "b": [1, "x"]}}"#)
        for name in ["meta", "n", "s", "t"] {
            XCTAssertEqual(one[member: name]?.fieldText, other[member: name]?.fieldText, name)
        }
        XCTAssertEqual(one[member: "meta"]?.fieldText, #"{"a":null,"b":[1,"x"]}"#)
        XCTAssertNil(JSONValue.null.fieldText, "null counts as absent")
    }

    func test_removing_aNestedPointer() throws {
        let item = try parse(#"{"id": 1, "meta": {"updated": "now", "color": "red"}, "list": [1, 2]}"#)
        XCTAssertEqual(
            item.removing(JSONPointer("/meta/updated")!).canonicalJSON, #"{"id":1,"list":[1,2],"meta":{"color":"red"}}"#
        )
        XCTAssertEqual(item.removing(JSONPointer("/list/0")!)[member: "list"], .array([.number("2")]))
        XCTAssertEqual(item.removing(JSONPointer("/nothing/here")!), item)
    }

    /// Member names read again at the same depth and position are the name before only when their bytes are the
    /// same: escapes, other names, long names, bytes that are not UTF-8 and nested objects read as they are.
    func test_memberNames_readAgain_areTheNamesTheirBytesSpell() throws {
        let long = String(repeating: "n", count: 70)
        let text = #"[{"a": 1, "b": {"a": 2, "c": 3}}, {"a": 4, "b": {"c": 5, "a": 6}}, {"\u0061": 7, "b\n": 8}, "#
            + #"{"ab": 9, "\#(long)": 10}, {"a": 11, "\#(long)": 12}, {"é": 13}, {"e\u0301": 14}, {"a": 15}]"#
        let list = try JSONParser.parse(Array(text.utf8))
        func object(_ members: [(String, JSONValue)]) -> JSONValue {
            .object(members.map { JSONMember(name: $0.0, value: $0.1) })
        }
        XCTAssertEqual(list, .array([
            object([("a", .number("1")), ("b", object([("a", .number("2")), ("c", .number("3"))]))]),
            object([("a", .number("4")), ("b", object([("c", .number("5")), ("a", .number("6"))]))]),
            object([("a", .number("7")), ("b\n", .number("8"))]),
            object([("ab", .number("9")), (long, .number("10"))]), object([("a", .number("11")), (long, .number("12"))]),
            object([("é", .number("13"))]), object([("e\u{301}", .number("14"))]), object([("a", .number("15"))]),
        ]))
        let invalid = try JSONParser.parse(Array("[{\"x".utf8) + [0xFF] + Array("\": 1}, {\"x".utf8) + [0xFF] + Array("\": 2}]".utf8))
        XCTAssertEqual(invalid, .array([object([("x\u{FFFD}", .number("1"))]), object([("x\u{FFFD}", .number("2"))])]))
    }
}
