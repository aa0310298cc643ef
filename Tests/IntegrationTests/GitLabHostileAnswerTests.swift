import Foundation
import XCTest

/// A hostile GitLab's numbers over real HTTP against gitlab-sim: one item it sends with an unusable number is skipped
/// and named once, the rest watched; a stored one stays as stored, never taken for gone.
final class GitLabHostileAnswerTests: XCTestCase {
    /// platform/web#1 and #5, both assigned to engineer (docs/gitlab-sim.md, "Seeded issues and merge requests").
    private static let webOne = 11_000_001

    func test_aStoredIssueThatTurnsUnusable_staysAsStored_theRestWatched() throws {
        let sim = try GitLabSim()
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useGitLab(sim)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
        try sim.fault("item", on: "", count: 10_000, item: Self.webOne, field: "iid", value: "9223372036854775808")
        try sim.later()
        try sim.act("lead", "comment", "platform/web#1", "Said while the server could not say it")
        try sim.act("lead", "comment", "platform/web#5", "Said plainly")
        let broken = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(broken.status, 0, broken.stderr)
        XCTAssertEqual(changeSummaries(broken.objects), ["platform/web#5 modified"], broken.stderr)
        let lines = broken.stderr.split(separator: "\n").filter { $0.contains("GitLab sent an item") }
        XCTAssertEqual(lines.count, 1, broken.stderr)
        XCTAssertTrue(lines.first?.contains("an unusable iid; it is skipped") == true, "\(lines)")
        let full = try workspace.trackwatch(["check", "--full", "--json"])
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertEqual(changeSummaries(full.objects), [], "kept, not unassigned: \(full.stdout)")
        try sim.control(.delete, "faults")
        try sim.later()
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["platform/web#1 modified"])
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }
}
