import Foundation
@testable import JiraClient
import TrackwatchCore
import XCTest

/// Issue 32, item 5: a comment is its place on the issue's page (`?focusedCommentId=`), made of Jira's numeric id.
final class JiraCommentLinkTests: XCTestCase {
    func test_aComment_carriesItsFocusedCommentQuery() throws {
        let mapping = JiraMapping(me: "acc-me", url: "https://jira.example.com")
        let comment = try JSONDecoder().decode(JiraComment.self, from: Data("""
            {"id":"10200","author":{"accountId":"acc-bob","displayName":"Bob Brown"},"body":"Done",
             "created":"2026-01-17T12:00:00.000+0000"}
            """.utf8))
        XCTAssertEqual(mapping.event(comment, issue: "10001")?.link, "?focusedCommentId=10200")
    }
}
