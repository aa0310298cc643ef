import SourceKit
import TrackerHTTP
import XCTest

/// Issue 36 item 12: Foundation's decoder maps every value of an answer before it decodes any (about 25 bytes a
/// string, 50 a number), so an answer of Jira, GitHub or GitLab is held to what that map may cost for its size —
/// three times it, 3 MB for small answers — and refused unread past it; ordinary text of the same size is read.
/// Peak memory is measured by `scripts/bench-dense-answers.py` (docs/guarantees.md), not here.
final class JSONAnswerBudgetTests: XCTestCase {
    private struct Problem: Error { let detail: String }
    private struct Ignored: Decodable {}
    private struct ErrorBody: Decodable { var message: String? }

    /// `{"labels":["l0","l1",…]}`: `count` two-letter labels, 5 bytes a value.
    private func labels(_ count: Int, prefix: String = "{", suffix: String = "}") -> [UInt8] {
        var body = Array((prefix + #""labels":["#).utf8)
        body.reserveCapacity(count * 5 + 64)
        for index in 0..<count {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += [UInt8(ascii: "\""), UInt8(ascii: "l"), UInt8(ascii: "0") + UInt8(index % 10), UInt8(ascii: "\"")]
        }
        return body + Array(("]" + suffix).utf8)
    }

    func test_aDenseAnswer_isRefusedBeforeFoundationMapsIt_sayingWhy() throws {
        let dense = labels(3_000_000)
        XCTAssertGreaterThan(dense.count, 14_000_000)
        XCTAssertNil(JSONBudget.excess(in: dense), "the value count alone lets it through")
        XCTAssertThrowsError(try JSONAnswer.decode(Ignored.self, HTTPResponse(status: 200, body: dense)) { Problem(detail: $0) }) {
            let detail = ($0 as? Problem)?.detail ?? ""
            XCTAssertTrue(detail.hasPrefix("the answer holds too many values for its size (\(dense.count) bytes)"), detail)
            XCTAssertTrue(detail.contains("tell its owner"), detail)
        }
    }

    func test_theSameSizeOfOrdinaryValues_isRead() throws {
        // 15 MB of 100-character labels: 150,000 values, as sparse as real text.
        let text = String(repeating: "a", count: 100)
        let body = Array(("{\"labels\":[" + Array(repeating: "\"\(text)\"", count: 150_000).joined(separator: ",") + "]}").utf8)
        struct Labels: Decodable { var labels: [String] }
        let decoded = try JSONAnswer.decode(Labels.self, HTTPResponse(status: 200, body: body)) { Problem(detail: $0) }
        XCTAssertEqual(decoded.labels.count, 150_000)
    }

    /// An error answer's message is read from a small body only: the HTTP status still names the failure.
    func test_aLargeErrorAnswer_isNotDecodedForItsMessage() {
        let entries = (0..<40_000).map { #""key\#($0)":"value \#($0)""# }.joined(separator: ",")
        let large = Array(#"{"message":"boom","errors":{\#(entries)}}"#.utf8)
        XCTAssertGreaterThan(large.count, JSONAnswer.largestMessage)
        XCTAssertNil(JSONBudget.foundationExcess(in: large), "not dense: only its size keeps it unread")
        XCTAssertNil(JSONAnswer.message(ErrorBody.self, HTTPResponse(status: 400, body: large)))
        let plain = Array(#"{"message":"boom"}"#.utf8)
        XCTAssertEqual(JSONAnswer.message(ErrorBody.self, HTTPResponse(status: 400, body: plain))?.message, "boom")
    }
}
