@testable import CompassClient
import Foundation
import XCTest

final class ResultPageParserTests: XCTestCase {
    private func rows(_ text: String, columns: Int = 8, maxRows: Int = 100) throws -> [[String]] {
        try ResultPageParser.rows(in: Array(text.utf8), columns: columns, maxRows: maxRows)
    }

    func test_readsValues_skipsEverythingElse() throws {
        let page = """
            { "resultSetId": "rs1", "rows": [
                {"displayName": "SAMPL00000001", "values": ["SAMPL00000001", "Crash <b>&", null, 3, true], "dbId": "33554433"},
                {"values": [], "extra": {"nested": [1, {"deep": [null, "x"]}], "s": "\\"q\\""}}
              ], "pageNumber": 1, "more": [false, -1.5e3]
            }
            """
        XCTAssertEqual(try rows(page), [["SAMPL00000001", "Crash <b>&", "", "3", "true"], []])
        XCTAssertEqual(try rows(#"{"rows":[]}"#), [])
    }

    func test_unescapesStrings_likeJSONDecoder() throws {
        let values = ["tab\there", "quote\" backslash\\ slash/", "é ü 漢字", "emoji 😀", "line\nbreak", "\u{0001}ctl"]
        let body = try JSONEncoder().encode(["rows": [["values": values]]])
        XCTAssertEqual(try ResultPageParser.rows(in: [UInt8](body), columns: 8, maxRows: 1), [values])
        XCTAssertEqual(try rows(#"{"rows":[{"values":["\ud83d\ude00 \u00e9 \/"]}]}"#), [["😀 é /"]])
        XCTAssertEqual(try rows(#"{"rows":[{"values":["\ud83d alone"]}]}"#).first?.first?.unicodeScalars.first, "\u{FFFD}",
                       "a lone surrogate becomes U+FFFD, the same every time")
    }

    func test_rejectsWhatIsNotAPage() {
        for bad in ["", "<html><body>Proxy error</body></html>", #"{"rows": [{"values": ["SAMPL"#, #"{"rows": 5}"#,
                    #"{"rowz": []}"#, #"{"rows": [{"vals": []}]}"#, #"{"rows": []} trailing"#, "[]", #"{"rows": [{"values": [nul]}]}"#,
                    #"{"rows": [{"values": ["a\x"]}]}"#, "{\"rows\": [{\"values\": [\"raw\u{0001}control\"]}]}",
                    String(repeating: "[", count: 10_000)] {
            XCTAssertThrowsError(try rows(bad), bad.prefix(40).description)
        }
        let deep = #"{"x": "# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + #", "rows": []}"#
        XCTAssertThrowsError(try rows(deep), "nesting is bounded")
    }

    /// Issue 12 item 3: bytes repaired to U+FFFD made `\u{FFFD}lose` a new history key, an old entry reported as new.
    /// Invalid UTF-8 is refused wherever the reader takes a value from.
    func test_invalidUTF8_isRefused_neverRepaired() {
        let close = Array(#"{"rows":[{"values":["SAMPL00000013","Close"]}]}"#.utf8)
        XCTAssertEqual(try ResultPageParser.rows(in: close, columns: 8, maxRows: 1), [["SAMPL00000013", "Close"]])
        let broken = close.map { $0 == UInt8(ascii: "C") ? 0xFF : $0 }  // compass-sim's bad-utf8 fault
        XCTAssertThrowsError(try ResultPageParser.rows(in: broken, columns: 8, maxRows: 1)) { error in
            XCTAssertTrue("\(error)".contains("not valid UTF-8"), "\(error)")
        }
        for bytes: [UInt8] in [[0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF8, 0x88, 0x80, 0x80, 0x80]] {
            let escaped = Array(#"{"rows":[{"values":["a\n"#.utf8) + bytes + Array(#""]}]}"#.utf8)  // the escape path too
            XCTAssertThrowsError(try ResultPageParser.rows(in: escaped, columns: 8, maxRows: 1), "\(bytes)")
        }
    }

    /// Issue 12 item 5: the reader stops at the first row beyond the page size and the first value beyond the
    /// columns, instead of building millions of them from a 63 MB answer.
    func test_rowsBeyondThePageSize_andValuesBeyondTheColumns_stopTheReader() {
        XCTAssertEqual(try rows(#"{"rows":[{"values":["a","b"]},{"values":["c"]}]}"#, columns: 2, maxRows: 2).count, 2)
        XCTAssertThrowsError(try rows(#"{"rows":[{"values":["a"]},{"values":["b"]},{"values":["c"]}]}"#, columns: 2, maxRows: 2)) {
            XCTAssertTrue("\($0)".contains("more than the 2 rows asked for"), "\($0)")
        }
        XCTAssertThrowsError(try rows(#"{"rows":[{"values":["a","b","c"]}]}"#, columns: 2, maxRows: 2)) {
            XCTAssertTrue("\($0)".contains("more than the query's 2 columns"), "\($0)")
        }
        // Where it stops: at the offending row or value, not at the end of the body.
        let flood = #"{"rows":["# + String(repeating: #"{"values":[""]},"#, count: 100_000) + #"{"values":[""]}]}"#
        XCTAssertThrowsError(try rows(flood, columns: 1, maxRows: 10)) { error in
            XCTAssertLessThan((error as? ResultPageParser.Failure)?.offset ?? .max, 200, "\(error)")
        }
    }
}
