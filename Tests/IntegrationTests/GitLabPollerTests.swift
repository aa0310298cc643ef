import Foundation
import TrackerHTTP
import TestSupport
import XCTest

/// The shared poller's rules as GitLab meets them (issue 37 items 9–11, issue 36 item 7): a bulk of new
/// assignments is read at once, a closed item of mine stays known so that its reopening is a change and not a new
/// assignment, each unavailable project is named, and one missing log route costs one item one poll.
final class GitLabPollerTests: XCTestCase {
    private let http = try! AsyncHTTPTransport()

    /// `PUT /api/v4/projects/:id/issues/:iid` as `username`, straight over HTTP (faster than `act` for many).
    private func put(_ sim: GitLabSim, as username: String, project: Int, iid: Int, _ body: String) throws {
        let response = try http.sendWaiting(
            HTTPRequest(
                method: .put, url: "\(sim.url)/api/v4/projects/\(project)/issues/\(iid)",
                headers: [("PRIVATE-TOKEN", "glpat-sim-\(username)"), ("Content-Type", "application/json")],
                body: Array(body.utf8), timeout: 10))
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
    }

    func test_moreThanAHundredNewAssignmentsBetweenPolls_areAllReportedAtTheNextPoll() throws {
        let sim = try GitLabSim(["--issues", "700", "--merge-requests", "4"])
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useGitLab(sim)
        _ = try workspace.checkChanges()
        try sim.later()
        // A bulk import: 130 open unassigned issues of platform/web (iid n with (n-1) % 4 = 2; n % 7 = 0 is closed)
        // given to engineer.
        let iids = stride(from: 3, through: 700, by: 4).filter { $0 % 7 != 0 }.prefix(130)
        XCTAssertEqual(iids.count, 130)
        for iid in iids { try put(sim, as: "alice", project: 11, iid: iid, #"{"assignee_ids": [101]}"#) }
        let changes = try workspace.checkChanges()
        let assigned = Set(changes.filter { $0["kind"] as? String == "assigned" }.compactMap { $0["record"] as? String })
        XCTAssertEqual(assigned.count, 130, "every one at once, not the first page now and the rest at the full read")
        XCTAssertEqual(Set(changes.compactMap { $0["by"] as? String }), ["Alice Example"])
    }

    func test_aClosedIssueOfMine_reopenedByAColleague_isAChange_notANewAssignment() throws {
        let sim = try GitLabSim()
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useGitLab(sim)
        _ = try workspace.checkChanges()
        try sim.act("lead", "close", "platform/web#1")  // assigned to engineer, authored by alice
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["platform/web#1 modified"])
        try sim.later()
        try sim.act("alice", "reopen", "platform/web#1")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["platform/web#1 modified"], "\(changes)")
        XCTAssertEqual(changes.first?["by"] as? String, "Alice Example")
    }

    func test_everyUnavailableProject_isNamed_andTheRestIsWatched() throws {
        let sim = try GitLabSim()
        try sim.control(.post, "access", #"{"username": "engineer", "project": "platform/api", "level": "forbidden"}"#)
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useGitLab(sim, ["projects = [\"platform/web\", \"platform/api\", \"platform/nowhere\"]"])
        let first = try workspace.trackwatch(["check"])
        XCTAssertEqual(first.status, 78, first.stderr)
        XCTAssertTrue(first.stderr.contains("platform/api"), first.stderr)
        XCTAssertTrue(first.stderr.contains("platform/nowhere"), first.stderr)
        try sim.act("lead", "comment", "platform/web#1", "Still watched")
        let second = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(changeSummaries(second.objects), ["platform/web#1 modified"], second.stderr)
        XCTAssertTrue(second.stderr.contains("platform/api") && second.stderr.contains("platform/nowhere"), second.stderr)
    }

    func test_oneItemsMissingResourceEvents_costsThatItemOnePoll_notEveryLaterPoll() throws {
        let sim = try GitLabSim()
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useGitLab(sim)
        _ = try workspace.checkChanges()
        try sim.act("lead", "label", "platform/web#1", "urgent")
        try sim.fault("status", on: "GET /projects/:id/issues/:issue_iid/resource_label_events", status: 404)
        _ = try workspace.checkChanges()
        try sim.later()
        try sim.act("lead", "label", "platform/web#5", "blocked")
        try sim.resetStats()
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changes.first?["changes"].map { "\($0)" }?.contains("added blocked"), true, "\(changes)")
        let routes = try sim.stats()["requestsByRoute"] as? [String: Int] ?? [:]
        XCTAssertNotNil(routes["GET /projects/:id/issues/:issue_iid/resource_label_events"], "resource events still asked: \(routes)")
    }
}
