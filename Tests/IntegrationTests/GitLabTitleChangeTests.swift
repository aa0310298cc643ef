import Foundation
import XCTest

/// Issue 37 item 12 and issue 32 item 9 against gitlab-sim over real HTTP: a title change is reported whatever the
/// titles hold, without GitLab's inline diff marks.
final class GitLabTitleChangeTests: XCTestCase {
    private var sim: GitLabSim!
    private var workspace: Workspace!

    override func setUpWithError() throws {
        sim = try GitLabSim()
        workspace = try Workspace(serverURL: sim.url)
        workspace.timeout = "2s"
        try workspace.useGitLab(sim)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    private func fields(_ changes: [[String: Any]]) -> [String] {
        changes.flatMap { $0["changes"] as? [[String: Any]] ?? [] }.map {
            "\($0["field"] as? String ?? "?"): \($0["old"] as? String ?? "") → \($0["new"] as? String ?? "")"
        }
    }

    func test_renamesOfTitlesHoldingTo_areEachReported_withoutDiffMarks() throws {
        try sim.act("lead", "rename", "platform/web#8", "Bump terraform to 1.9")
        let first = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(first), ["platform/web#8 modified"])
        XCTAssertEqual(fields(first), ["Title: Issue 8 of platform/web → Bump terraform to 1.9"])
        try sim.later()
        try sim.act("alice", "rename", "platform/web#8", "Bump terraform to 1.9 · bob 46")
        let second = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(second), ["platform/web#8 modified"])
        XCTAssertEqual(fields(second), ["Title: Bump terraform to 1.9 → Bump terraform to 1.9 · bob 46"])
        XCTAssertEqual(second.first?["by"] as? String, "Alice Example")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "once")
    }
}
