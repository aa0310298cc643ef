import Foundation
@testable import GitHubClient
import SourceKit
import TrackwatchCore
import XCTest

/// Issue 36 item 5: a force-push after a rebase is told by the timeline's `head_ref_force_pushed` event, who pushed
/// and when, since the rebased commits carry their older committer dates.
final class GitHubForcePushTests: XCTestCase {
    private let me = ActivityIdentity(id: "2", login: "engineer", name: "Eve Engineer", email: "eve@example.com")

    private func events(_ json: String) throws -> [ActivityEvent] {
        let mapping = GitHubMapping(me: me, web: "https://github.com")
        return try JSONDecoder().decode([GitHubTimelineItem].self, from: Data(json.utf8))
            .compactMap { mapping.event($0, issue: "9") }
    }

    func test_headRefForcePushed_isAnEventByWhoPushed_atWhenItWasPushed() throws {
        let events = try events(
            """
            [{"event":"committed","sha":"0123456789abcdef0123456789abcdef01234567","message":"Rebased",
              "committer":{"name":"Alice Example","email":"alice@example.com","date":"2026-01-17T10:20:00Z"}},
             {"id":7,"event":"head_ref_force_pushed","actor":{"id":3,"login":"alice","type":"User"},
              "commit_id":null,"commit_url":null,"created_at":"2026-01-17T10:40:00Z"},
             {"id":8,"event":"head_ref_force_pushed","actor":{"id":4,"login":"lead","type":"User"},
              "commit_id":"fedcba9876543210fedcba9876543210fedcba98","created_at":"2026-01-17T10:41:00Z"},
             {"id":9,"event":"head_ref_force_pushed","actor":{"id":4,"login":"lead"},
              "commit_id":"\\u001b[31m; rm -rf","created_at":"2026-01-17T10:42:00Z"}]
            """)
        XCTAssertEqual(events.map(\.id), ["e7", "e8", "e9"], "a commit is no event of the timeline's own")
        XCTAssertEqual(events[0].at, Timestamp("2026-01-17 10:40:00"), "when it was pushed, not the commits' date")
        XCTAssertEqual(events[0].actor?.id, "3")
        XCTAssertEqual(events[0].actor?.name, "alice")
        XCTAssertEqual(events[0].changes, [FieldChange(field: "Commit", old: nil, new: "force-pushed")])
        XCTAssertEqual(events[1].changes, [FieldChange(field: "Commit", old: nil, new: "force-pushed fedcba9")])
        XCTAssertEqual(events[2].changes, [FieldChange(field: "Commit", old: nil, new: "force-pushed")], "no sha: none")
    }

    func test_myOwnForcePush_isMine() throws {
        let events = try events(
            """
            [{"id":7,"event":"head_ref_force_pushed","actor":{"id":2,"login":"engineer"},
              "created_at":"2026-01-17T10:40:00Z"}]
            """)
        XCTAssertEqual(events.first?.actor?.id, "2")
    }
}
