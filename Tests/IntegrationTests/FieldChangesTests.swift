import Foundation
import XCTest

/// Issue 20, item 4: "modified by alice" says what changed — Description, Keywords, a note's first line — and a
/// user can add compared fields to the built-in watch (`extra_fields`). Before, a change outside the six compared
/// fields came with an empty list of changes, and a Keywords change made with a Priority change was left out.
final class FieldChangesTests: XCTestCase {
    private func check(_ workspace: Workspace, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let run = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        return run.objects
    }

    private func fields(_ objects: [[String: Any]]) -> [String] {
        objects.flatMap { ($0["changes"] as? [[String: Any]] ?? []).map { change in
            "\(change["field"] as? String ?? "?"): \(change["old"] as? String ?? "∅") → \(change["new"] as? String ?? "∅")"
        } }
    }

    func test_colleaguesEditsOutsideTheSixFields_sayWhatChanged() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try check(workspace).count, 0, "baseline")

        try sim.act("alice", "SAMPL00000001", "Modify", set: ["Description=Crashes on Linux too."])
        let description = try check(workspace)
        XCTAssertEqual(description.map { $0["by"] as? String }, ["alice"])
        XCTAssertEqual(fields(description), ["Description: Steps to reproduce 1. → Crashes on Linux too."])

        try sim.act("lead", "SAMPL00000001", "Modify", set: ["Note_Entry=Please retest on Linux.\nThe fix is in 4.2."])
        let note = try check(workspace)
        XCTAssertEqual(note.map { $0["by"] as? String }, ["lead"])
        XCTAssertEqual(fields(note), ["Note: ∅ → Please retest on Linux."])

        try sim.act("lead", "SAMPL00000001", "Modify", set: ["Priority=4-Low Priority", "Keywords=linux, crash"])
        let both = fields(try check(workspace))
        XCTAssertEqual(both.count, 2, "\(both)")
        XCTAssertTrue(both.first?.hasPrefix("Priority: ") == true && both.first?.hasSuffix(" → 4-Low Priority") == true, "\(both)")
        XCTAssertEqual(both.last, "Keywords:  → linux, crash", "the Keywords change is not left out")
        XCTAssertEqual(try check(workspace).count, 0, "nothing twice")
    }

    func test_extraFields_chooseWhatIsCompared_andAFieldTheRecordTypeLacksIsAConfigurationError() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        workspace.extraServerLines = ["extra_fields = []"]
        try workspace.writeConfig()
        XCTAssertEqual(try check(workspace).count, 0, "baseline with the six fields")
        // Upgrading to the defaults (or adding a field) adopts the new fields silently.
        workspace.extraServerLines = []
        try workspace.writeConfig()
        XCTAssertEqual(try check(workspace).count, 0, "new fields are adopted, not reported")

        workspace.extraServerLines = ["extra_fields = [\"Resolution\"]"]
        try workspace.writeConfig()
        XCTAssertEqual(try check(workspace).count, 0)
        try sim.act("alice", "SAMPL00000001", "Modify", set: ["Resolution=Fixed", "Description=not compared now"])
        XCTAssertEqual(fields(try check(workspace)), ["Resolution:  → Fixed"])

        workspace.extraServerLines = ["extra_fields = [\"Resolution\", \"Root_Cause\"]"]
        try workspace.writeConfig()
        let wrong = try workspace.trackwatch(["check"])
        XCTAssertEqual(wrong.status, 78, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("extra_fields lists \"Root_Cause\", which the record type Defect does not have; it has "),
                      wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("\"Keywords\""), wrong.stderr)
    }
}
