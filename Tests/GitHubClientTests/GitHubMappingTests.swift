import Foundation
@testable import GitHubClient
import SourceKit
import TrackerHTTP
import TrackwatchCore
import XCTest

/// `[[github]]` tables, and GitHub's answers as the activity shape: references, timeline events in people's words,
/// commits named by their author, hostile values bounded.
final class GitHubMappingTests: XCTestCase {
    private let me = ActivityIdentity(id: "2", login: "engineer", name: "Eve Engineer", email: "eve@example.com")

    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    private func parse(_ text: String) throws(ConfigError) -> Config {
        try Config.parse(text, file: "/home/me/.config/trackwatch/config.toml", kinds: [GitHubSourceKind()])
    }

    func test_config_defaultsToGitHubCom_andNamesLineAndKeyOfEachError() throws {
        let settings = try XCTUnwrap(try parse("[[github]]\ntoken_file = \"t\"\n").sources.first as? GitHubSettings)
        XCTAssertEqual(settings.url, "https://api.github.com")
        XCTAssertEqual(settings.webBase, "https://github.com")
        XCTAssertEqual(
            settings.link(for: Change(record: RecordID("acme/web#42"), kind: .modified, headline: "")),
            "https://github.com/acme/web/issues/42")
        let ghes = try XCTUnwrap(
            try parse("[[github]]\nurl = \"https://ghe.example.com/api/v3/\"\ntoken_file = \"t\"\nrepos = [\"Acme/Web\"]\n")
                .sources.first as? GitHubSettings)
        XCTAssertEqual(ghes.webBase, "https://ghe.example.com")
        XCTAssertEqual(ghes.repos, ["acme/web"])
        for (text, key) in [
            ("[[github]]\n", "github.token_file"), ("[[github]]\ntoken_file = \"t\"\nrepos = [\"web\"]\n", "github.repos"),
            ("[[github]]\ntoken_file = \"t\"\nurl = \"ftp://x\"\n", "github.url"),
        ] {
            do {
                _ = try parse(text)
                XCTFail("parsed: \(text)")
            } catch {
                XCTAssertEqual(error.key, key, text)
                XCTAssertNotNil(error.line, text)
            }
        }
    }

    func test_references_areCheckedBeforeTheyNameAnything() {
        XCTAssertEqual(GitHubReference("acme/web#42")?.key, "acme/web#42")
        for bad in ["acme#1", "acme/web#0", "acme/../web#1", "acme/web#1x", "a/b/c#1", "acme/we b#1"] {
            XCTAssertNil(GitHubReference(bad), bad)
        }
    }

    func test_timelineEvents_inPeoplesWords() throws {
        let mapping = GitHubMapping(me: me, web: "https://github.com")
        let items = try decode(
            [GitHubTimelineItem].self,
            """
            [{"id":1,"event":"assigned","actor":{"id":3,"login":"alice","type":"User"},"assignee":{"id":2,"login":"engineer"},
              "created_at":"2026-01-17T12:00:00Z"},
             {"id":2,"event":"renamed","actor":{"id":3,"login":"alice"},"rename":{"from":"Old","to":"New"},
              "created_at":"2026-01-17T12:01:00Z"},
             {"id":3,"event":"reviewed","user":{"id":4,"login":"lead"},"state":"changes_requested","body":"Fix\\nthis",
              "submitted_at":"2026-01-17T12:02:00Z"},
             {"id":4,"event":"commented","user":{"id":5,"login":"dependabot[bot]","type":"Bot"},"body":"Bump",
              "created_at":"2026-01-17T12:03:00Z"},
             {"id":5,"event":"review_requested","actor":{"id":3,"login":"alice"},
              "requested_team":{"name":"Reviewers","slug":"reviewers"},"created_at":"2026-01-17T12:04:00Z"},
             {"id":6,"event":"cross-referenced","created_at":"2026-01-17T12:05:00Z"}]
            """)
        let events = items.compactMap { mapping.event($0, issue: "9") }
        XCTAssertEqual(events.map(\.id), ["e1", "e2", "r3", "c4", "e5"], "unknown kinds are skipped")
        XCTAssertEqual(events[0].changes, [FieldChange(field: "Assignees", old: nil, new: "added engineer")])
        XCTAssertEqual(events[1].changes, [FieldChange(field: "Title", old: "Old", new: "New")])
        XCTAssertEqual(events[2].changes, [FieldChange(field: "Review", old: nil, new: "changes requested: Fix")])
        XCTAssertEqual(events[2].actor?.name, "lead")
        XCTAssertEqual(events[3].actor?.isApp, true, "a bot")
        XCTAssertEqual(events[4].changes, [FieldChange(field: "Review request", old: nil, new: "added team Reviewers")])
    }

    func test_commits_areNamedByTheirAuthor_andMineAreMine() throws {
        let mapping = GitHubMapping(me: me, web: "https://github.com")
        let commits = try decode(
            [GitHubTimelineItem].self,
            """
            [{"event":"committed","sha":"0123456789abcdef0123456789abcdef01234567","message":"Fix the totals\\n\\nlong",
              "author":{"name":"Alice Example","email":"alice@example.com","date":"2026-01-17T12:00:00Z"}},
             {"event":"committed","sha":"fedcba9876543210fedcba9876543210fedcba98","message":"Mine",
              "author":{"name":"Someone","email":"EVE@example.com"}},
             {"event":"committed","sha":"not-a-sha; rm -rf","message":"x"}]
            """)
        let at = Timestamp("2026-01-17 12:00:00")
        let events = commits.compactMap { mapping.commit($0, issue: "9", at: at) }
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(events[0].changes.first?.new, "0123456 Fix the totals")
        XCTAssertEqual(events[0].actor?.name, "Alice Example")
        XCTAssertEqual(events[1].actor?.id, "2", "my own commit, by e-mail")
    }

    func test_errors_limitsAndScopes() {
        let limited = GitHubAPI.failure(
            HTTPResponse(status: 403, headers: [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "1768653300"),
                                                ("Date", "Sat, 17 Jan 2026 12:34:00 GMT")]),
            endpoint: .user)
        guard case .rateLimited(nil, let wait?, "the hourly limit") = limited else { return XCTFail("\(limited)") }
        XCTAssertTrue((66...78).contains(wait), "60 s to the reset, with jitter: \(wait)")
        let secondary = GitHubAPI.failure(HTTPResponse(status: 429, headers: [("Retry-After", "30")]), endpoint: .user)
        XCTAssertTrue(secondary.isRateLimited)
        let scope = GitHubAPI.failure(
            HTTPResponse(status: 403, headers: [("X-OAuth-Scopes", "read:user")],
                         body: Array(#"{"message":"Resource not accessible by personal access token"}"#.utf8)),
            endpoint: .issues(filter: "assigned"))
        XCTAssertEqual(scope.failureKind, .credentials)
        XCTAssertTrue(scope.description.contains("read:user"), scope.description)
        XCTAssertEqual(LinkHeader.target("next", in: HTTPResponse(status: 200, headers: [
            ("Link", #"<https://api.github.com/issues?page=2>; rel="next", <https://api.github.com/issues?page=5>; rel="last""#),
        ])), "https://api.github.com/issues?page=2")
    }
}
