import Foundation
@testable import GitHubClient
import SourceKit
import TrackwatchCore
import XCTest

/// Issue 32, item 5: a comment and a review are their anchors on the item's page, made of GitHub's numeric id.
final class GitHubEventLinkTests: XCTestCase {
    func test_commentAndReview_carryTheirAnchor_otherEventsNone() throws {
        let mapping = GitHubMapping(me: ActivityIdentity(id: "2", login: "engineer"), web: "https://github.com")
        let items = try JSONDecoder().decode([GitHubTimelineItem].self, from: Data("""
            [{"id":11,"event":"commented","user":{"id":3,"login":"bob"},"body":"Hi","created_at":"2026-01-17T12:00:00Z",
              "html_url":"javascript:alert(1)"},
             {"id":12,"event":"reviewed","user":{"id":4,"login":"dave"},"state":"approved",
              "submitted_at":"2026-01-17T12:01:00Z"},
             {"id":13,"event":"labeled","actor":{"id":3,"login":"bob"},"label":{"name":"bug"},
              "created_at":"2026-01-17T12:02:00Z"}]
            """.utf8))
        let events = items.compactMap { mapping.event($0, issue: "9") }
        XCTAssertEqual(events.map(\.link), ["#issuecomment-11", "#pullrequestreview-12", nil])
    }
}
