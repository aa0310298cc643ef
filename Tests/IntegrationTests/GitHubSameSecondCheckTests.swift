import Foundation
import XCTest

/// GitHub's `updated_at` and `created_at` are whole seconds: a colleague's change made in the same second as the one
/// the last poll told, after the server answered it, leaves `updated_at` where it was. github-sim's clock is frozen
/// so that both changes land in one second, over real HTTP.
final class GitHubSameSecondCheckTests: XCTestCase {
    var sim: GitHubSim!
    var workspace: Workspace!

    override func setUpWithError() throws {
        sim = try GitHubSim()
        workspace = try Workspace(serverURL: sim.url)
        try workspace.useGitHub(sim)
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    func test_aChangeInTheSecondOfTheOneTold_isReportedOnce() throws {
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
        // The server's clock stops a little ahead of ours: its second is not over when the next check begins,
        // however slowly this machine runs.
        try sim.control(.post, "clock", #"{"advance": 30, "freeze": 1}"#)
        try sim.act("alice", "comment", "acme/web#1", "First look")
        var changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["acme/web#1 modified"])
        XCTAssertEqual(comments(changes), ["First look"])
        try sim.act("lead", "comment", "acme/web#1", "Second thought")
        changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["acme/web#1 modified"], "the change in the same second")
        XCTAssertEqual(comments(changes), ["Second thought"], "the first comment is not told again")
        XCTAssertEqual(changes.first?["by"] as? String, "lead")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "once")
    }

    /// The same with the server's clock behind ours: whether its second is over is judged by the server's own
    /// `Date`, not by this machine's clock, which had already left that second behind.
    func test_aChangeInTheSecondOfTheOneTold_isReportedOnce_whenOurClockIsAhead() throws {
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
        try sim.control(.post, "clock", #"{"advance": -30, "freeze": 1}"#)
        try sim.act("alice", "comment", "acme/web#1", "First look")
        XCTAssertEqual(comments(try workspace.checkChanges()), ["First look"])
        try sim.act("lead", "comment", "acme/web#1", "Second thought")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(comments(changes), ["Second thought"], "the change in the same second of the server's clock")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "once")
    }

    private func comments(_ changes: [[String: Any]]) -> [String] {
        changes.flatMap { ($0["changes"] as? [[String: Any]] ?? []).compactMap { $0["new"] as? String } }
    }
}
