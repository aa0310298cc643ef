import Foundation
import XCTest

/// `trackwatch check` against github-sim over real HTTP (issue 25, "What it reports"): assignments and review
/// requests, who did what on my issues and pull requests, my own actions silent, each once — and what it costs.
class GitHubCheckTests: XCTestCase {
    var sim: GitHubSim!
    var workspace: Workspace!
    var enterprise: Bool { false }

    override func setUpWithError() throws {
        sim = try GitHubSim(enterprise: enterprise)
        workspace = try Workspace(serverURL: sim.url)
        try workspace.useGitHub(sim)
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    func record(_ changes: [[String: Any]], _ key: String) -> [String: Any]? {
        changes.first { $0["record"] as? String == key }
    }

    func fields(_ change: [String: Any]?) -> [String] {
        (change?["changes"] as? [[String: Any]] ?? []).map { field in
            let name = field["field"] as? String ?? "?"
            let old = field["old"] as? String, new = field["new"] as? String
            return old == nil ? "\(name): \(new ?? "")" : "\(name): \(old ?? "") → \(new ?? "")"
        }
    }

    func test_firstCheck_isASilentBaseline() throws {
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.count, 1, result.stdout)
        XCTAssertTrue(result.stdout.hasPrefix("Baseline: watching "), result.stdout)
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    func test_colleaguesActions_areEachReportedOnce_withWhoAndWhat() throws {
        _ = try workspace.checkChanges()
        try sim.act("alice", "assign", "acme/web#2", "engineer")  // mine (opened by me), now assigned to me too
        try sim.act("lead", "comment", "acme/web#1", "Can you look at this?\nDetails follow.")
        try sim.act("lead", "rename", "acme/web#5", "Login fails on Safari")
        try sim.act("alice", "review", "acme/web#9", "request-changes", "Please add a test")  // my pull request
        try sim.act("lead", "label", "acme/web#4", "urgent")
        try sim.act("lead", "close", "acme/web#1")
        try sim.act("engineer", "comment", "acme/web#4", "My own comment")  // silent
        let changes = try workspace.checkChanges()
        XCTAssertEqual(
            Set(changeSummaries(changes)),
            ["acme/web#2 assigned", "acme/web#1 modified", "acme/web#5 modified", "acme/web#9 modified",
             "acme/web#4 modified"])
        XCTAssertEqual(record(changes, "acme/web#2")?["by"] as? String, "alice")
        XCTAssertEqual(fields(record(changes, "acme/web#2")), ["Assignees: added engineer"])
        XCTAssertEqual(fields(record(changes, "acme/web#1")), ["Comment: Can you look at this?", "State: open → closed"])
        XCTAssertEqual(fields(record(changes, "acme/web#5")), ["Title: Issue 5 of acme/web → Login fails on Safari"])
        XCTAssertEqual(fields(record(changes, "acme/web#9")), ["Review: changes requested: Please add a test"])
        XCTAssertEqual(fields(record(changes, "acme/web#4")), ["Labels: added urgent"], "my own comment is not there")
        XCTAssertEqual(Set(changes.compactMap { $0["source"] as? String }), ["github"])
        XCTAssertEqual(try workspace.checkChanges().count, 0, "each reported once")
    }

    func test_reviewRequests_directOrThroughATeam_removedAndRequested_andMyOwnReviewIsSilent() throws {
        _ = try workspace.checkChanges()
        try sim.act("lead", "remove-review-request", "acme/web#3", "engineer")
        try sim.act("lead", "remove-review-request", "acme/web#6", "acme/reviewers")
        var changes = try workspace.checkChanges()
        XCTAssertEqual(Set(changeSummaries(changes)), ["acme/web#3 unassigned", "acme/web#6 unassigned"], "\(changes)")
        XCTAssertEqual(record(changes, "acme/web#3")?["by"] as? String, "lead")
        try later()
        try sim.act("lead", "request-review", "acme/web#3", "engineer")
        try sim.act("lead", "request-review", "acme/web#6", "acme/reviewers")
        changes = try workspace.checkChanges()
        XCTAssertEqual(Set(changeSummaries(changes)), ["acme/web#3 assigned", "acme/web#6 assigned"], "\(changes)")
        XCTAssertEqual(fields(record(changes, "acme/web#3")), ["Review request: added engineer"])
        XCTAssertEqual(fields(record(changes, "acme/web#6")), ["Review request: added team Reviewers"])
        XCTAssertEqual(record(changes, "acme/web#6")?["by"] as? String, "lead")
        try later()
        try sim.act("engineer", "review", "acme/web#3", "approve")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "my own review: silent, and not 'unassigned'")
    }

    /// GitHub's times have whole seconds: what a colleague does in the second of the last poll waits for the next
    /// change. Tests let a minute pass between rounds, as polls do.
    func later() throws { try sim.control(.post, "clock", #"{"advance": 60}"#) }

    func test_unassignedByAColleague_isNamed_andCommitsByOthersAreNamedByTheirAuthor() throws {
        _ = try workspace.checkChanges()
        try sim.act("lead", "unassign", "acme/web#8", "engineer")
        try sim.act("alice", "push", "acme/web#9", "Fix the totals")
        try sim.act("engineer", "push", "acme/web#9", "My own commit")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(Set(changeSummaries(changes)), ["acme/web#8 unassigned", "acme/web#9 modified"])
        XCTAssertEqual(record(changes, "acme/web#8")?["by"] as? String, "lead")
        let commits = fields(record(changes, "acme/web#9"))
        XCTAssertEqual(commits.count, 1, "\(commits)")
        XCTAssertTrue(commits.first?.hasSuffix(" Fix the totals") == true, "\(commits)")
        XCTAssertEqual(record(changes, "acme/web#9")?["by"] as? String, "Alice Example")
        try later()
        try sim.act("alice", "push", "acme/web#9", "Second fix")
        let next = fields(record(try workspace.checkChanges(), "acme/web#9"))
        XCTAssertEqual(next.count, 1, "each commit once: \(next)")
        XCTAssertTrue(next.first?.hasSuffix(" Second fix") == true, "\(next)")
    }

    func test_aTransferredIssue_isOneChangeUnderItsNewReference_andADeletedOneIsDropped() throws {
        _ = try workspace.checkChanges()
        try sim.act("lead", "transfer", "acme/web#1", "acme/api")
        try sim.act("lead", "delete", "acme/web#4")
        let changes = try workspace.checkChanges()
        XCTAssertFalse(changes.contains { $0["kind"] as? String == "unassigned" }, "\(changes)")
        XCTAssertLessThanOrEqual(changes.count, 1, "moved once at most: \(changes)")
        if let moved = changes.first {
            XCTAssertTrue((moved["record"] as? String ?? "").hasPrefix("acme/api#"), "\(moved)")
        }
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    /// `check -v` shows each request, as it does for Compass (issue 32.14): one line each, by route, never the token.
    func test_checkVerbose_showsEachRequest_byItsRoute_withoutTheToken() throws {
        _ = try workspace.checkChanges()
        try sim.act("lead", "comment", "acme/web#1", "Can you look at this?")
        try sim.resetStats()
        let result = try workspace.trackwatch(["check", "-v"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let requests = result.stderr.split(separator: "\n").filter { $0.hasSuffix("[SourceKit] request") }
        XCTAssertEqual(requests.count, try sim.stats()["requests"] as? Int, result.stderr)
        XCTAssertTrue(requests.contains { $0.contains("route=\(enterprise ? "/api/v3" : "")/repos/{owner}/{repo}/issues/{number}/timeline") && $0.contains("status=200") },
                      result.stderr)
        XCTAssertTrue(requests.allSatisfy { $0.contains("method=GET") && $0.contains(" ms=") && $0.contains("source=github") }, result.stderr)
        XCTAssertFalse(result.stderr.contains("ghp_sim_engineer"), "the token is never logged")
    }

    func test_aSteadyPoll_isThreeRequests_andNoneOfTheHourlyQuota() throws {
        _ = try workspace.checkChanges()
        _ = try workspace.checkChanges()
        try sim.resetStats()
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        let stats = try sim.stats()
        XCTAssertLessThanOrEqual(stats["requests"] as? Int ?? 99, 3, "\(stats)")
        XCTAssertEqual(stats["notModified"] as? Int, 2, "\(stats)")
        let core = (stats["coreQuotaUsed"] as? [String: Int])?["ghp_sim_engineer"] ?? 0
        XCTAssertEqual(core, 0, "304s are free: \(stats)")
    }
}

/// The same against an Enterprise Server's `/api/v3`.
final class GitHubEnterpriseCheckTests: GitHubCheckTests {
    override var enterprise: Bool { true }

    func test_aFineGrainedToken_works_withoutNotifications() throws {
        try workspace.useGitHub(sim, token: "github_pat_sim_engineer")
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try sim.act("lead", "comment", "acme/web#1", "Hello")
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["acme/web#1 modified"])
    }

    /// Issue 32 item 15: a url without /api/v3 is a 404; the error says where the API lives, not only "HTTP 404".
    func test_aURLWithoutAPIv3_isToldWhereTheAPILives() throws {
        let root = String(sim.url.dropLast("/api/v3".count))
        try workspace.useGitHub(sim)
        try Data(try String(contentsOfFile: workspace.configPath, encoding: .utf8)
            .replacingOccurrences(of: "url = \"\(sim.url)\"", with: "url = \"\(root)\"").utf8)
            .write(to: URL(fileURLWithPath: workspace.configPath))
        let result = try workspace.trackwatch(["check"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("ends in /api/v3 (\(root)/api/v3)"), result.stderr)
    }
}
