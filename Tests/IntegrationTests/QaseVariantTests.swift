import Foundation
import XCTest

/// Servers that differ (issue 18, "Servers that differ, and bad answers"), each a qase-sim switch, through
/// `trackwatch check` over real HTTP. Each failed against the client before its handling was built.
final class QaseVariantTests: XCTestCase {
    private func start(
        _ arguments: [String] = [], basePath: String = "/v1", _ lines: [String] = [],
        poll: [String] = []
    ) throws -> (QaseSim, Workspace) {
        let sim = try QaseSim(arguments, basePath: basePath)
        let workspace = try Workspace(serverURL: sim.apiURL)
        workspace.extraPollLines = poll
        try workspace.useQase(sim, lines)
        return (sim, workspace)
    }

    /// Without QQL (402 or 403 on /search) plan assignments, reviews and my defects are still watched; what
    /// only QQL can say keeps its last state — never a false "no longer assigned to you" — and what happened
    /// to it meanwhile is reported once QQL answers again.
    func test_noQQL_fallsBackToREST_andNothingLooksUnassigned() throws {
        for status in [402, 403] {
            let (sim, workspace) = try start()
            XCTAssertEqual(try workspace.checkChanges().count, 0)
            try sim.switches(#"{"searchRefusal": \#(status)}"#)
            try sim.act("lead", "assign-defect", "DEMO", "3", "engineer")  // only QQL can see this
            try sim.act("lead", "assign-plan-case", "DEMO", "1", "7", "engineer")
            try sim.act("lead", "defect-status", "DEMO", "2", "in_progress")  // my defect, from the REST list
            try sim.act("alice", "approve", "DEMO", "2")
            let without = try workspace.trackwatch(["check", "--json"])
            XCTAssertEqual(without.status, 0, without.stderr)
            XCTAssertEqual(
                Set(changeSummaries(without.objects)),
                ["DEMO/plan/1 assigned", "DEMO/defect/2 modified", "DEMO/review/2 modified"], "\(status)")
            XCTAssertTrue(without.stderr.contains("Qase refuses QQL search"), without.stderr)
            XCTAssertEqual(try workspace.checkChanges().count, 0, "\(status): steady without QQL")
            let probe = try workspace.trackwatch(["probe"])
            XCTAssertTrue(probe.stdout.contains("⚠ QQL search is refused (HTTP \(status)"), probe.stdout)
            XCTAssertTrue(probe.stdout.contains("not watched: defects assigned to you"), probe.stdout)
            let doctor = try workspace.trackwatch(["doctor"])
            XCTAssertTrue(doctor.stdout.contains("⚠ QQL search is refused (HTTP \(status)"), doctor.stdout)
            try sim.switches(#"{"searchRefusal": 0}"#)
            XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["DEMO/defect/3 assigned"], "\(status): once")
            XCTAssertEqual(try workspace.checkChanges().count, 0)
        }
    }

    /// A server whose QQL has no `assignee` on defects (400 "Query is invalid"): that part is off, said once, and
    /// everything else is watched — also when the server changes its mind between polls.
    func test_qqlWithoutDefectAssignee_turnsThatPartOff_andTheRestWorks() throws {
        let (sim, workspace) = try start()
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try sim.switches(#"{"qqlDefectAssignee": false}"#)
        try sim.act("alice", "edit-case", "DEMO", "4", "title=Checkout totals")
        try sim.act("lead", "assign-plan-case", "WEB", "2", "5", "engineer")
        try sim.act("lead", "assign-defect", "DEMO", "1", "alice")
        let result = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(Set(changeSummaries(result.objects)), ["DEMO-4 modified", "WEB/plan/2 assigned"])
        XCTAssertEqual(
            result.stderr.components(separatedBy: "does not accept assignee on defects").count - 1, 1,
            "said once: \(result.stderr)")
        let probe = try workspace.trackwatch(["probe"])
        XCTAssertTrue(probe.stdout.contains("⚠ QQL rejects assignee on defects"), probe.stdout)
        try sim.switches(#"{"qqlDefectAssignee": true}"#)
        XCTAssertEqual(
            changeSummaries(try workspace.checkChanges()), ["DEMO/defect/1 unassigned"], "what happened meanwhile")
    }

    /// 429 with `Retry-After` and no body: the check fails as "try later" with nothing printed or stored, and the
    /// next check reports the change once.
    func test_rateLimited_failsThePollQuietly_andTheNextReportsOnce() throws {
        let (sim, workspace) = try start()
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try sim.act("alice", "edit-case", "DEMO", "4", "title=Checkout totals")
        try sim.act("lead", "assign-defect", "DEMO", "3", "engineer")
        try sim.switches(#"{"rateLimit": 4, "rateLimitTimeout": 30}"#)
        let limited = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(limited.status, 69, limited.stderr)
        XCTAssertEqual(limited.stdout, "", "nothing reported")
        XCTAssertTrue(limited.stderr.contains("HTTP 429") && limited.stderr.contains("asked to wait"), limited.stderr)
        XCTAssertGreaterThan(try sim.stats()["rateLimited"] as? Int ?? 0, 0)
        try sim.switches(#"{"rateLimit": 0}"#)
        XCTAssertEqual(Set(changeSummaries(try workspace.checkChanges())), ["DEMO-4 modified", "DEMO/defect/3 assigned"])
    }

    /// Paging with `limit` ≤ 100 and `offset` past the first page, on a server that refuses larger pages and on one
    /// that clamps them: an item far down a list is watched either way.
    func test_paging_onStrictAndClampingServers() throws {
        for clamp in [false, true] {
            let (sim, workspace) = try start(
                ["--cases", "400"] + (clamp ? ["--clamp-limit"] : []),
                poll: ["page_size = 250"])
            XCTAssertEqual(try workspace.checkChanges().count, 0, "clamp \(clamp)")
            try sim.act("alice", "edit-case", "WEB", "397", "title=Far down the list")
            XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["WEB-397 modified"], "clamp \(clamp)")
            let limits = (try sim.stats()["requestsByRoute"] as? [String: Int]) ?? [:]
            XCTAssertGreaterThan(limits["GET /search"] ?? 0, 0)
        }
    }

    /// Ids and enums as strings, then mixed, defect enums as integers, unknown extra fields everywhere, and back:
    /// the same items, no change reported; a real change among them reported as usual.
    func test_numbersAsStringsAndBack_andExtraFields_changeNothing() throws {
        let (sim, workspace) = try start()
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        for switches in [
            #"{"numbers": "string"}"#, #"{"numbers": "mixed", "defectEnumsAsInts": true}"#,
            #"{"extraFields": true}"#, #"{"numbers": "int", "defectEnumsAsInts": false, "extraFields": false}"#,
        ] {
            try sim.switches(switches)
            XCTAssertEqual(try workspace.checkChanges().count, 0, "no change from \(switches)")
        }
        try sim.switches(#"{"numbers": "string", "extraFields": true, "defectEnumsAsInts": true}"#)
        try sim.act("alice", "edit-case", "DEMO", "4", "severity=1")
        try sim.act("lead", "defect-status", "DEMO", "1", "in_progress")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(Set(changeSummaries(changes)), ["DEMO-4 modified", "DEMO/defect/1 modified"])
        let severity = changes.first { $0["record"] as? String == "DEMO-4" }?["changes"] as? [[String: Any]]
        XCTAssertEqual(severity?.first?["new"] as? String, "1-Blocker")
    }

    /// A server that reads only `filters[name]=`: it answers every review to a flat `reviewer_uuid=`, and only the
    /// client's own check keeps others' reviews out of mine.
    func test_bracketedFilterNamesOnly_areCheckedOnTheClient() throws {
        let (sim, workspace) = try start(["--filter-names", "bracketed"])
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try sim.act("alice", "approve", "DEMO", "1")  // lead's review: not mine
        try sim.act("lead", "remove-reviewer", "DEMO", "3", "engineer")
        try sim.act("alice", "approve", "DEMO", "2")  // my review
        XCTAssertEqual(
            Set(changeSummaries(try workspace.checkChanges())), ["DEMO/review/3 unassigned", "DEMO/review/2 modified"])
    }

    /// A dedicated host whose API lives under another path.
    func test_aDedicatedHostUnderAnotherBasePath() throws {
        let (sim, workspace) = try start(basePath: "/api/v1")
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try sim.act("alice", "edit-case", "DEMO", "4", "title=Checkout totals")
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["DEMO-4 modified"])
        XCTAssertEqual(
            (try sim.stats()["requestsByRoute"] as? [String: Int])?["unknown"], nil, "no request off the path")
    }
}
