@testable import CompassClient
import Foundation
import XCTest

final class ResultPageParserTests: XCTestCase {
    private func rows(_ text: String) throws -> [[String]] { try ResultPageParser.rows(in: Array(text.utf8)) }

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
        XCTAssertEqual(try ResultPageParser.rows(in: [UInt8](body)), [values])
        XCTAssertEqual(try rows(#"{"rows":[{"values":["\ud83d\ude00 \u00e9 \/"]}]}"#), [["😀 é /"]])
        XCTAssertEqual(try rows(#"{"rows":[{"values":["\ud83d alone"]}]}"#).first?.first?.unicodeScalars.first, "\u{FFFD}",
                       "a lone surrogate becomes U+FFFD")
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
}
