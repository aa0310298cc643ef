import Foundation
import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore
import TestSupport
import XCTest

@testable import JiraClient

/// Issue 36 item 12: an answer is refused when Foundation's decoder would take more than three times its size for
/// it. Issues with many short comments in Atlassian Document Format come close (about four times), so a page of 100
/// such issues can be refused where 50 are not: the search then asks again in halves, and every issue is read.
final class JiraDensePageTests: XCTestCase {
    /// Jira Cloud's `search/jql` over `count` issues, each with `comments` one-word ADF comments; it serves the
    /// `maxResults` asked and records them.
    private final class BusyJira: HTTPTransport, @unchecked Sendable {
        let count: Int, comments: Int
        private(set) var asked: [Int] = []

        init(count: Int, comments: Int) {
            self.count = count
            self.comments = comments
        }

        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            let body = try JSONSerialization.jsonObject(with: Data(request.body ?? [])) as? [String: Any] ?? [:]
            let size = body["maxResults"] as? Int ?? 100
            let start = Int(body["nextPageToken"] as? String ?? "0") ?? 0
            asked.append(size)
            let end = min(start + size, count)
            let issues = (start..<end).map(issue).joined(separator: ",")
            let next = end < count ? #""nextPageToken":"\#(end)""# : #""isLast":true"#
            return HTTPResponse(status: 200, body: Array(#"{"issues":[\#(issues)],\#(next)}"#.utf8))
        }

        func closeIdleConnections() {}

        private func issue(_ n: Int) -> String {
            let comment = #"{"id":"1","author":{"accountId":"a1","displayName":"Alice"},"created":"2026-11-29T09:00:00.000+0000","body":{"type":"doc","version":1,"content":[{"type":"paragraph","content":[{"type":"text","text":"LGTM"}]}]}}"#
            return #"{"id":"\#(10_000 + n)","key":"WEB-\#(n + 1)","fields":{"summary":"Issue \#(n)","comment":{"comments":["#
                + Array(repeating: comment, count: comments).joined(separator: ",") + #"],"total":\#(comments)}}}"#
        }
    }

    private func search(_ jira: BusyJira) async throws -> [JiraIssue] {
        let api = JiraAPI(
            APIAccess(
                url: "https://acme.atlassian.net", secret: Secret("x"), transport: jira, timeout: 30,
                logger: Logger(label: "test")),
            signIn: .personalToken)
        api.flavour = .cloud
        return try await JiraReader(api: api).search("assignee = currentUser()", fields: JiraFields.requested).elements
    }

    func test_aPageTooDenseToDecode_isAskedAgainInHalves_andEveryIssueIsRead() async throws {
        let jira = BusyJira(count: 100, comments: 60)
        let issues = try await search(jira)
        XCTAssertEqual(issues.map(\.key), (1...100).map { "WEB-\($0)" })
        XCTAssertEqual(issues.first?.fields?.comment?.comments?.elements.count, 60)
        XCTAssertEqual(jira.asked, [100, 50, 50], "the page of 100 refused, then two of 50")
    }

    func test_oneIssueTooDenseAlone_failsTheRead_sayingWhy_withoutAskingItAgainAndAgain() async {
        let jira = BusyJira(count: 1, comments: 15_000)
        await XCTAssertThrowsErrorAsync(try await search(jira)) {
            guard case JiraError.invalidResponse(_, let detail) = $0 else { return XCTFail("\($0)") }
            XCTAssertTrue(detail.hasPrefix(JSONBudget.tooDense), detail)
        }
        XCTAssertEqual(jira.asked, [100, 50], "halved once: the page did not shrink, so the issue alone is too dense")
    }
}
