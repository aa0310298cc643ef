import CompassClient
import XCTest

/// The CSV route's reader: hostile input, so strict and bounded (fuzzed too: `trackwatch-fuzz csv`).
final class CSVTableTests: XCTestCase {
    private func rows(_ text: String, columns: Int = 3, maxRows: Int = 10) throws -> [[String]] {
        try CSVTable.rows(in: Array(text.utf8), columns: columns, maxRows: maxRows)
    }

    func test_readsRFC4180_withQuotesCommasLineBreaksAndEitherLineEnd() throws {
        let text = "id,Headline,State\r\nSAMPL00000001,\"Crash, \"\"now\"\"\",Opened\r\nSAMPL00000002,\"two\r\nlines\",\r\n"
        XCTAssertEqual(try rows(text), [["id", "Headline", "State"], ["SAMPL00000001", "Crash, \"now\"", "Opened"],
                                        ["SAMPL00000002", "two\r\nlines", ""]])
        XCTAssertEqual(try rows("a,b,c\nd,e,f"), [["a", "b", "c"], ["d", "e", "f"]], "LF and no final line break")
        XCTAssertEqual(try rows("\u{FEFF}a,b,c\n"), [["a", "b", "c"]], "a byte-order mark is skipped")
        XCTAssertEqual(try rows(""), [])
        XCTAssertEqual(try rows("é,日本語,\"😀\"\n"), [["é", "日本語", "😀"]])
    }

    func test_header_isDroppedOnlyWhenItIsTheColumnNames() throws {
        let names = ["id", "Headline", "State"]
        XCTAssertEqual(CSVTable.dropHeader([["ID", "headline", "State"], ["1", "h", "s"]], columns: names), [["1", "h", "s"]])
        XCTAssertEqual(CSVTable.dropHeader([["1", "h", "s"]], columns: names), [["1", "h", "s"]])
    }

    func test_refusesWhatIsNotATable() {
        for bad in ["a,b\n", "a,b,c,d\n", "a,\"b,c\n", "a,\"b\"x,c\n", "a,b\"c,d\n", "a,b,c\rd,e,f\n", "a,b,c\n\nd,e,f\n"] {
            XCTAssertThrowsError(try rows(bad), bad.debugDescription)
        }
        XCTAssertThrowsError(try CSVTable.rows(in: Array("a,b,".utf8) + [0xFF] + Array("c\n".utf8), columns: 3, maxRows: 1)) {
            XCTAssertTrue("\($0)".contains("not valid UTF-8"), "\($0)")
        }
    }

    /// Bounded by what was asked for: it stops at the first record beyond `maxRows` and the first field beyond
    /// the columns, whatever the size of the body.
    func test_stopsAtTheFirstRecordOrFieldBeyondTheBounds() {
        XCTAssertThrowsError(try rows(String(repeating: "a,b,c\n", count: 100_000), maxRows: 10)) {
            XCTAssertEqual(($0 as? CSVTable.Failure)?.line, 11)
        }
        XCTAssertThrowsError(try rows(String(repeating: ",", count: 1_000_000) + "\n")) {
            XCTAssertTrue("\($0)".contains("more than the query's 3 columns"), "\($0)")
        }
    }
}
