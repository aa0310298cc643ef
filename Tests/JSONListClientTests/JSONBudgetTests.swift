@testable import JSONListClient
import TrackerHTTP
import XCTest

/// The count every decoded answer passes first (issue 27, item 6): values as a decoder would build them, arrays
/// and objects weighted, text inside strings never counted.
final class JSONBudgetTests: XCTestCase {
    private func count(_ text: String, upTo limit: Int = .max) -> Int {
        Array(text.utf8).withUnsafeBufferPointer { JSONBudget.count($0, upTo: limit).values }
    }

    func test_count_isTheValuesADecoderBuilds() {
        let weight = JSONBudget.containerWeight
        let cases: [(String, Int)] = [
            ("0", 1), ("[0,0,0]", weight + 3), (#"{"a":1,"b":[true,null]}"#, 2 * weight + 5),
            (#"[[[0]],[[0]]]"#, 5 * weight + 2), (#""a\"b[[[{{,""#, 1), (#"["x\\", -1.5e3 ,false]"#, weight + 3),
            ("1\n2\n3\n", 3), (" \n\t ", 0), (#"{"é":"日本"}"#, weight + 2),
        ]
        for (text, expected) in cases { XCTAssertEqual(count(text), expected, text) }
    }

    func test_count_stopsOnceOverTheLimit() {
        let zeros = "[" + Array(repeating: "0", count: 1_000).joined(separator: ",") + "]"
        XCTAssertEqual(count(zeros, upTo: 10), 11)
    }

    /// Nesting too deep is the parser's to name (`the answer nests deeper than 100 levels`), however dense.
    func test_excess_leavesNestingDeeperThanTheDecodersLimitToIt() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
            + [UInt8](repeating: UInt8(ascii: "]"), count: 100_000)
        XCTAssertNotNil(JSONBudget.excess(in: deep))
        XCTAssertNil(JSONBudget.excess(in: deep, maximumDepth: 100))
        let wide = Array("[\(Array(repeating: "[0]", count: 100_000).joined(separator: ","))]".utf8)
        XCTAssertNotNil(JSONBudget.excess(in: wide, maximumDepth: 100), "dense but shallow")
    }

    func test_excess_refusesOnlyWhatIsDenserThanItsSizeAllows() throws {
        func zeros(_ count: Int) -> [UInt8] {
            Array(("[" + Array(repeating: "0", count: count).joined(separator: ",") + "]").utf8)
        }
        XCTAssertNil(JSONBudget.excess(in: zeros(JSONBudget.baseValues - JSONBudget.containerWeight)), "the floor")
        let dense = zeros(200_000)
        let excess = try XCTUnwrap(JSONBudget.excess(in: dense))
        XCTAssertTrue(excess.hasPrefix("the answer has more than \(JSONBudget.values(allowedFor: dense.count)) values"))
        XCTAssertTrue(excess.contains("(\(dense.count) bytes"), excess)
        let padded = zeros(200_000) + Array(repeating: UInt8(ascii: " "), count: 4 * 200_000)
        XCTAssertNil(JSONBudget.excess(in: padded), "the same values in a larger answer")
        let items = "[" + Array(repeating: #"{"id":12345,"title":"A readable title","status":"open"}"#, count: 20_000)
            .joined(separator: ",") + "]"
        XCTAssertNil(JSONBudget.excess(in: Array(items.utf8)), "an ordinary list of \(items.utf8.count) bytes")
    }
}
