import Foundation
import XCTest

/// Issue 36 item 5 against github-sim over real HTTP: a rebase force-pushed to my pull request is reported, by who
/// pushed, although its commits carry dates from before the last poll.
final class GitHubForcePushCheckTests: XCTestCase {
    var sim: GitHubSim!
    var workspace: Workspace!

    override func setUpWithError() throws {
        sim = try GitHubSim(enterprise: false)
        workspace = try Workspace(serverURL: sim.url)
        try workspace.useGitHub(sim)
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    func test_aForcePushAfterARebase_isReported_byWhoPushed_once() throws {
        try sim.act("alice", "push", "acme/web#9", "Fix the totals")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
        try sim.control(.post, "clock", #"{"advance": 60}"#)
        try sim.act("lead", "force-push", "acme/web#9")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["acme/web#9 modified"])
        let fields = (changes.first?["changes"] as? [[String: Any]] ?? []).map {
            "\($0["field"] as? String ?? "?"): \($0["new"] as? String ?? "")"
        }
        XCTAssertEqual(fields, ["Commit: force-pushed"], "the rebased commits are not new: \(changes)")
        XCTAssertEqual(changes.first?["by"] as? String, "lead")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "once")
    }
}
