import Foundation
@testable import GitLabClient
import SourceKit
import TrackerHTTP
import TrackwatchCore
import XCTest

/// `[[gitlab]]` tables, GitLab's references, and notes read for who did what (never shown raw).
final class GitLabMappingTests: XCTestCase {
    private func parse(_ text: String) throws(ConfigError) -> Config {
        try Config.parse(text, file: "/home/me/.config/trackwatch/config.toml", kinds: [GitLabSourceKind()])
    }

    func test_config_defaultsToGitLabCom_linksIssuesAndMergeRequests_andNamesErrors() throws {
        let settings = try XCTUnwrap(try parse("[[gitlab]]\ntoken_file = \"t\"\n").sources.first as? GitLabSettings)
        XCTAssertEqual(settings.url, "https://gitlab.com")
        XCTAssertEqual(
            settings.link(for: Change(record: RecordID("platform/web#42"), kind: .modified, headline: "")),
            "https://gitlab.com/platform/web/-/issues/42")
        XCTAssertEqual(
            settings.link(for: Change(record: RecordID("group/sub/web!7"), kind: .modified, headline: "")),
            "https://gitlab.com/group/sub/web/-/merge_requests/7")
        for (text, key) in [
            ("[[gitlab]]\n", "gitlab.token_file"),
            ("[[gitlab]]\ntoken_file = \"t\"\nurl = \"https://gitlab.example.com/api/v4\"\n", "gitlab.url"),
            ("[[gitlab]]\ntoken_file = \"t\"\nprojects = [\"web\"]\n", "gitlab.projects"),
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

    func test_aScopedPriorityLabel_isTheItemsPriority_rankedAsCompassAndJiraPriorities() {
        XCTAssertEqual(GitLabMapping.priority(["frontend", "priority::1", "priority::2"]), "1")
        XCTAssertEqual(GitLabMapping.priority(["Priority::High"]), "High")
        XCTAssertNil(GitLabMapping.priority(["priority", "severity::1", "priority:1"]))
        XCTAssertEqual(GitLabMapping.priority(["priority::\u{1B}[31m2"]), "[31m2")  // no control character reaches a line
    }

    func test_references_areCheckedBeforeTheyNameAnything() {
        XCTAssertEqual(GitLabReference("platform/web!7")?.isMergeRequest, true)
        XCTAssertEqual(GitLabReference("platform/web#42")?.iid, 42)
        for bad in ["web#1", "platform/web#0", "platform/../web#1", "platform/web#x", "platform/w b#1"] {
            XCTAssertNil(GitLabReference(bad), bad)
        }
    }

    func test_systemNotes_readAsFieldChanges_unknownOnesLeftOut() {
        let cases: [(String, [FieldChange])] = [
            ("assigned to @engineer", [FieldChange(field: "Assignees", old: nil, new: "added engineer")]),
            ("assigned to @alice and unassigned @engineer",
             [FieldChange(field: "Assignees", old: nil, new: "added alice"),
              FieldChange(field: "Assignees", old: nil, new: "removed engineer")]),
            ("requested review from @engineer", [FieldChange(field: "Review request", old: nil, new: "added engineer")]),
            ("removed review request for @engineer", [FieldChange(field: "Review request", old: nil, new: "removed engineer")]),
            ("changed title from **Old title** to **New title**", [FieldChange(field: "Title", old: "Old title", new: "New title")]),
            ("changed the description", [FieldChange(field: "Description", old: nil, new: nil)]),
            ("approved this merge request", [FieldChange(field: "Approval", old: nil, new: "approved")]),
            ("unapproved this merge request", [FieldChange(field: "Approval", old: nil, new: "revoked")]),
            ("added 2 commits\n\n* abc - Fix", [FieldChange(field: "Commits", old: nil, new: "added 2")]),
            ("moved from platform/web#1", [FieldChange(field: "Moved", old: nil, new: "from platform/web#1")]),
            ("mentioned in merge request platform/web!9", []),
            ("closed", []),
            ("<script>alert(1)</script>", []),
        ]
        for (body, expected) in cases {
            XCTAssertEqual(GitLabMapping.systemNote(body, stateInNotes: false), expected, body)
        }
        let old: [(String, [FieldChange])] = [
            ("closed", [FieldChange(field: "State", old: nil, new: "closed")]),
            ("added ~bug ~\"two words\" labels",
             [FieldChange(field: "Labels", old: nil, new: "added bug"), FieldChange(field: "Labels", old: nil, new: "added two words")]),
            ("removed ~bug label", [FieldChange(field: "Labels", old: nil, new: "removed bug")]),
            ("changed milestone to %\"v2.0\"", [FieldChange(field: "Milestone", old: nil, new: "v2.0")]),
        ]
        for (body, expected) in old {
            XCTAssertEqual(GitLabMapping.systemNote(body, stateInNotes: true), expected, "an old GitLab: \(body)")
        }
    }

    /// GitLab tells a milestone changed as two resource events, `remove` then `add`: one change, old → new.
    func test_aMilestoneChangedInOnePoll_readsOldToNew() throws {
        let me = GitLabUser(id: 1, username: "engineer")
        let mapping = GitLabMapping(me: ActivityIdentity(id: "1", login: "engineer"), web: "https://gitlab.example.com")
        func item(_ milestone: String, updated: String) throws -> ActivityItem {
            try XCTUnwrap(
                mapping.item(
                    GitLabItem(
                        id: 501, iid: 4, title: "Issue 4", state: "opened", milestone: .init(title: milestone),
                        assignees: [me], updated_at: updated, references: .init(full: "platform/web#4")),
                    mergeRequest: false, reviewRequested: false, isMine: true))
        }
        let lead = GitLabUser(id: 3, username: "lead", name: "Lead Example")
        let events = try [(10, "remove", "v1.0"), (11, "add", "v2.0")].map { id, action, title in
            try XCTUnwrap(
                mapping.event(
                    GitLabResourceEvent(
                        id: Int64(id), user: lead, created_at: "2026-01-17T12:00:00Z", milestone: .init(title: title),
                        action: action),
                    kind: "milestone", item: "i501"))
        }
        let rules = ActivityRules(me: "1", comparedFields: GitLabFields.compared, assignmentFields: [])
        let baseline = ActivityDiff.compare(
            previous: nil, seen: [], observation: ActivityObservation(items: [try item("v1.0", updated: "2026-01-17T11:00:00Z")], events: []),
            rules: rules, seenUpTo: { _ in nil }, checkpoint: nil)
        let outcome = ActivityDiff.compare(
            previous: Snapshot(baseline.delta.upserts), seen: [],
            observation: ActivityObservation(items: [try item("v2.0", updated: "2026-01-17T12:00:00Z")], events: events),
            rules: rules, seenUpTo: { _ in nil }, checkpoint: nil)
        XCTAssertEqual(outcome.changes.map(\.changes), [[FieldChange(field: "Milestone", old: "v1.0", new: "v2.0")]])
        XCTAssertEqual(outcome.newlySeen.count, 2, "both events are kept as seen")
    }

    func test_errors_429WithOrWithoutRetryAfter_isAQuietWait() {
        let told = GitLabAPI.failure(HTTPResponse(status: 429, headers: [("Retry-After", "10")]), endpoint: .issues)
        XCTAssertTrue(told.isRateLimited)
        XCTAssertTrue((11...13).contains(told.retryAfter ?? 0), "\(told)")
        let plain = GitLabAPI.failure(HTTPResponse(status: 429, body: Array("Retry later".utf8)), endpoint: .issues)
        XCTAssertTrue((66...78).contains(plain.retryAfter ?? 0), "a minute, with jitter: \(plain)")
        XCTAssertEqual(
            GitLabAPI.failure(HTTPResponse(status: 401, body: Array(#"{"message":"401 Unauthorized"}"#.utf8)), endpoint: .user)
                .failureKind, .credentials)
    }
}
