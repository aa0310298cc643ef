import Foundation
import XCTest

/// The shared poller's rules as GitHub meets them (issue 37 items 2 and 13, issue 36 item 3): one repository that
/// became unreadable never silences the others, review requests are searched across every configured repository,
/// a token without the repo scope is told so, and `check --full` reads everything again.
final class GitHubPollerTests: XCTestCase {
    var sim: GitHubSim!
    var workspace: Workspace!

    override func setUpWithError() throws {
        sim = try GitHubSim()
        workspace = try Workspace(serverURL: sim.url)
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    func later() throws { try sim.control(.post, "clock", #"{"advance": 60}"#) }

    func test_reviewRequests_areSearchedAcrossEveryConfiguredRepository() throws {
        try workspace.useGitHub(sim, ["repos = [\"acme/web\", \"acme/api\"]"])
        _ = try workspace.checkChanges()
        try sim.act("lead", "remove-review-request", "acme/web#3", "engineer")
        try sim.act("lead", "remove-review-request", "acme/api#3", "engineer")
        var changes = try workspace.checkChanges()
        XCTAssertEqual(Set(changeSummaries(changes)), ["acme/web#3 unassigned", "acme/api#3 unassigned"], "\(changes)")
        try later()
        try sim.act("lead", "request-review", "acme/web#3", "engineer")
        try sim.act("lead", "request-review", "acme/api#3", "engineer")
        changes = try workspace.checkChanges()
        XCTAssertEqual(Set(changeSummaries(changes)), ["acme/web#3 assigned", "acme/api#3 assigned"], "\(changes)")
    }

    func test_aRepositoryThatBecameUnreadable_isNamed_andTheOthersAreStillWatched() throws {
        try workspace.useGitHub(sim, ["repos = [\"acme/web\", \"acme/api\"]"])
        _ = try workspace.checkChanges()
        // The organization starts enforcing SSO for acme/api: every read of it is a 403.
        try sim.control(.post, "access", #"{"handle": "engineer", "repo": "acme/api", "allowed": false, "sso": true}"#)
        try sim.act("lead", "comment", "acme/web#1", "Still watched")
        let first = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(first.status, 78, first.stderr)
        XCTAssertTrue(first.stderr.contains("GitHub repository acme/api"), first.stderr)
        XCTAssertEqual(changeSummaries(first.objects), ["acme/web#1 modified"], first.stderr)
        try later()
        try sim.act("lead", "comment", "acme/web#5", "And this one")
        try sim.resetStats()
        let second = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(try lookups(), 0, "acme/api's items are kept as they are, not asked for every poll")
        XCTAssertEqual(changeSummaries(second.objects), ["acme/web#5 modified"], "each once; " + second.stderr)
        XCTAssertTrue(second.stderr.contains("acme/api"), "still named: \(second.stderr)")
        // Access comes back: nothing of acme/api was taken as unassigned meanwhile.
        try sim.control(.post, "access", #"{"handle": "engineer", "repo": "acme/api", "allowed": true}"#)
        try later()
        let back = try workspace.trackwatch(["check", "--full", "--json"])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(changeSummaries(back.objects), [], back.stdout)
    }

    func test_aClassicTokenWithoutTheRepoScope_isToldWhichScopeItLacks() throws {
        try workspace.useGitHub(sim, token: "ghp_sim_engineer_noscope", ["repos = [\"acme/web\", \"acme/api\"]"])
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 77, result.stderr)
        XCTAssertTrue(result.stderr.contains("read:user"), result.stderr)
        XCTAssertTrue(result.stderr.contains("repo scope"), result.stderr)
    }

    func test_checkFull_readsEverythingAgain_andFindsWhatASteadyPollCannot() throws {
        try workspace.useGitHub(sim)
        _ = try workspace.checkChanges()
        // An item only I opened (not assigned), deleted: a steady poll does not ask for it; a full read does.
        try sim.control(.post, "delete", #"{"repo": "acme/web", "number": 2}"#)
        try sim.resetStats()
        _ = try workspace.checkChanges()
        XCTAssertEqual(try lookups(), 0, "a steady poll asks for no item")
        let full = try workspace.trackwatch(["check", "--full", "--json"])
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertEqual(full.objects.count, 0, "a deleted item is dropped silently")
        XCTAssertGreaterThan(try lookups(), 0, "the full read asked for the items it did not find")
        try sim.resetStats()
        _ = try workspace.trackwatch(["check", "--full"])
        XCTAssertEqual(try lookups(), 0, "the deleted item was dropped: not asked again")
    }

    /// Requests for single issues since the stats were cleared.
    private func lookups() throws -> Int {
        let routes = try sim.stats()["requestsByRoute"] as? [String: Int] ?? [:]
        return routes["GET /repos/{owner}/{repo}/issues/{issue_number}"] ?? 0
    }
}
