import Foundation
import XCTest

/// A hostile Azure DevOps's answers over real HTTP against ado-sim: one work item it sends with an unusable id is
/// skipped and named, never the whole source, and never taken for gone.
final class AzureDevOpsHostileAnswerTests: XCTestCase {
    private static func skipLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.contains("Azure DevOps sent an item") }
    }

    func test_oneWorkItemWithAnUnusableId_isSkippedAndNamed_theRestAreWatched_andItIsNeverTakenForGone() throws {
        // Web#1 and Web#5 are assigned to engineer (docs/azure-devops-sim.md, "Work items").
        let sim = try AzureDevOpsSim()
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useAzureDevOps(sim)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
        try sim.later()
        try sim.fault("item", on: "", count: 10_000, item: 1, field: "id", value: "1e30")
        try sim.act("lead", "comment", workItem: 1, ["text": "Said while the server could not say it"])
        try sim.act("alice", "set", workItem: 5, ["field": "State", "value": "Active"])
        try sim.later()
        let broken = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(broken.status, 0, broken.stderr)
        XCTAssertEqual(changeSummaries(broken.objects), ["Web#5 modified"], broken.stderr)
        let lines = Self.skipLines(broken.stderr)
        XCTAssertEqual(lines.count, 1, "named once: \(broken.stderr)")
        XCTAssertTrue(
            lines.first?.contains("Azure DevOps sent an item with an unusable id; it is skipped") == true, "\(lines)")
        XCTAssertTrue(lines.first?.lowercased().contains("/workitems/1") == true, "which one: \(lines)")
        // A full read asks for every stored item it did not list: the answer is unusable too, and the item is kept,
        // not unassigned, not gone.
        let full = try workspace.trackwatch(["check", "--full", "--json"])
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertEqual(changeSummaries(full.objects), [], full.stdout)
        XCTAssertFalse(full.stderr.contains("no longer visible"), full.stderr)
        // The server mends it: the comment made meanwhile is told once, on an item still watched.
        try sim.control(.delete, "faults")
        try sim.later()
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["Web#1 modified"])
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    func test_aColleaguesVoteWhoseThreadIsUnreadable_besideMyOwnReadableComment_isStillToldWithoutAName() throws {
        // Web!1 is engineer's, reviewed by alice and lead: its threads are read every poll.
        let sim = try AzureDevOpsSim()
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useAzureDevOps(sim)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
        try sim.later()
        try sim.act("engineer", "comment", pullRequest: 1, ["text": "My own note, readable"])
        let vote = try sim.act("lead", "vote", pullRequest: 1, ["vote": -5])
        let thread = try XCTUnwrap(vote["thread"] as? Int, "\(vote)")
        try sim.fault("item", on: "GET threads", count: 10_000, item: thread, field: "id", value: "1e30")
        try sim.later()
        let result = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(changeSummaries(result.objects), ["Web/Web!1 modified"], "not my own doing: \(result.stderr)")
        let fields = (result.objects.first?["changes"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
        XCTAssertEqual(fields, ["Votes"], "\(result.objects)")
        XCTAssertNil(result.objects.first?["by"] as? String, "no readable thread says who")
        XCTAssertEqual(Self.skipLines(result.stderr).count, 1, "named once: \(result.stderr)")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "nothing told twice")
    }
}
