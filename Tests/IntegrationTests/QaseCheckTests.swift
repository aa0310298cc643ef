import Foundation
import XCTest

/// `trackwatch check` against qase-sim over real HTTP (issue 18, "What it reports"): the baseline, each kind of
/// colleague's action once, my own edits silent, who did it where Qase says.
final class QaseCheckTests: XCTestCase {
    private var sim: QaseSim!
    private var workspace: Workspace!

    override func setUpWithError() throws {
        sim = try QaseSim()
        workspace = try Workspace(serverURL: sim.apiURL)
        try workspace.useQase(sim)
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    func test_firstCheck_isASilentBaselineWithOneLine() throws {
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.lines,
            [
                "Baseline: watching 14 open items assigned to you in Qase and your own test cases, "
                    + "defects and reviews; changes are reported from the next check on."
            ])
        XCTAssertEqual(try workspace.checkChanges().count, 0, "nothing changed since")
    }

    func test_colleaguesActions_areEachReportedOnce_withWhoWhereQaseSays() throws {
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try sim.act("alice", "edit-case", "DEMO", "4", "title=Checkout totals")  // my case, by alice
        try sim.act("engineer", "edit-case", "DEMO", "7", "title=My own edit")  // my case, by me: silent
        try sim.act("lead", "assign-defect", "DEMO", "3", "engineer")  // a defect given to me
        try sim.act("lead", "defect-status", "DEMO", "2", "in_progress")  // my defect (not assigned to me)
        try sim.act("lead", "assign-plan-case", "DEMO", "2", "5", "engineer")  // another case of a plan of mine
        try sim.act("alice", "approve", "DEMO", "2")  // a reviewer on my review
        try sim.act("lead", "remove-reviewer", "DEMO", "1", "engineer")  // a review no longer waits on me
        let changes = try workspace.checkChanges()
        XCTAssertEqual(
            Set(changeSummaries(changes)),
            [
                "DEMO-4 modified", "DEMO/defect/3 assigned", "DEMO/defect/2 modified", "DEMO/plan/2 assigned",
                "DEMO/review/2 modified", "DEMO/review/1 unassigned",
            ])
        XCTAssertEqual(changes.count, 6, "\(changes)")
        let byRecord = Dictionary(
            changes.map { ($0["record"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(byRecord["DEMO-4"]?["by"] as? String, "Alice Example", "QQL's updated_by, named")
        XCTAssertEqual(byRecord["DEMO-4"]?["action"] as? String, "edit")
        XCTAssertEqual(byRecord["DEMO/review/2"]?["by"] as? String, "Alice Example", "the reviewer, named")
        XCTAssertEqual(byRecord["DEMO/review/2"]?["action"] as? String, "approve")
        XCTAssertTrue(byRecord["DEMO/defect/2"]?["by"] is NSNull, "Qase does not say who changed a defect")
        XCTAssertTrue(byRecord["DEMO/defect/3"]?["by"] is NSNull)
        XCTAssertEqual(Set(changes.compactMap { $0["source"] as? String }), ["qase"])
        let plan = byRecord["DEMO/plan/2"]?["changes"] as? [[String: Any]] ?? []
        XCTAssertEqual(plan.first?["field"] as? String, "Your cases")
        XCTAssertEqual(plan.first?["new"] as? String, "DEMO-2, DEMO-5")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "each reported once")
    }

    /// A plan that holds one of my cases already, and a colleague assigns me another of its cases: the case
    /// became mine, so the plan is assigned to me, named by its title, its cases shown, by nobody (Qase does not
    /// say who assigns) — never "changed" (issue 27, item 10). Losing one of two is a change.
    func test_aCaseNewlyMineInAPlanHoldingOneOfMine_isAnAssignment() throws {
        _ = try workspace.checkChanges()
        try sim.act("lead", "assign-plan-case", "DEMO", "1", "7", "engineer")
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.lines, ["DEMO/plan/1 assigned to you: Release 2.0 regression (Your cases: DEMO-1 → DEMO-1, DEMO-7)"])
        // A minute on, so that the plan's `updated_at` (whole seconds) moves past the last read.
        try sim.control(.post, "clock", #"{"advance": 60}"#)
        try sim.act("lead", "assign-plan-case", "DEMO", "1", "4", "engineer")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["DEMO/plan/1 assigned"])
        XCTAssertTrue(changes.first?["by"] is NSNull, "Qase does not say who assigned a case of a plan")
        XCTAssertEqual(changes.first?["headline"] as? String, "Release 2.0 regression")
        try sim.control(.post, "clock", #"{"advance": 60}"#)
        try sim.act("lead", "assign-plan-case", "DEMO", "1", "7", "none")
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["DEMO/plan/1 modified"])
    }

    /// The terminal's sentences read as English, and the severity carries the level the rules judge by.
    func test_sentences_readNaturally() throws {
        _ = try workspace.checkChanges()
        try sim.act("alice", "request-changes", "DEMO", "5")
        try sim.act("lead", "resolve-defect", "DEMO", "1")
        try sim.act("lead", "assign-defect", "DEMO", "7", "engineer")
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.lines.contains {
                $0.hasPrefix("DEMO/defect/1 resolved: ") && $0.hasSuffix("(Status: Open → Resolved)")
            },
            result.stdout)
        XCTAssertTrue(result.lines.contains { $0.hasPrefix("DEMO/defect/7 assigned to you: ") }, result.stdout)
        XCTAssertTrue(
            result.lines.contains {
                $0.hasPrefix("DEMO/review/5 sent back for changes by Alice Example: ")
                    && $0.hasSuffix("(Verdict: Approved → Changes requested)")
            }, result.stdout)
        XCTAssertEqual(result.lines.count, 3, result.stdout)
    }

    /// After the baseline only recently updated items of mine are read: one that is not in that window is
    /// unchanged, not gone, and its later change is reported.
    func test_aCaseChangedAfterSeveralQuietPolls_isReported() throws {
        _ = try workspace.checkChanges()
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try sim.act("lead", "edit-case", "WEB", "10", "title=Edited later")
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["WEB-10 modified"])
    }

    /// A defect assigned to me that is also mine is one change, not two.
    func test_aDefectBothAssignedToMeAndMine_isOneChange() throws {
        _ = try workspace.checkChanges()
        try sim.act("lead", "defect-status", "DEMO", "5", "resolved")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["DEMO/defect/5 modified"])
    }

    func test_reassignedAway_isUnassigned_andEveryAssignedKind() throws {
        _ = try workspace.checkChanges()
        try sim.act("lead", "assign-defect", "DEMO", "1", "alice")
        try sim.act("lead", "assign-plan-case", "DEMO", "3", "3", "none")
        try sim.act("lead", "add-reviewer", "WEB", "2", "engineer")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(
            Set(changeSummaries(changes)),
            [
                "DEMO/defect/1 unassigned", "DEMO/plan/3 unassigned",
                "WEB/review/2 assigned",
            ])
    }
}
