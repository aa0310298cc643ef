import Foundation
import XCTest

/// `trackwatch check` against jira-sim over real HTTP (issue 24, "What it reports"): the baseline, each kind of
/// colleague's action once with who and old → new, my own edits silent — on Jira Cloud and on Data Center.
class JiraCheckTests: XCTestCase {
    var sim: JiraSim!
    var workspace: Workspace!
    /// The flavour these tests run against (the Data Center subclass says so).
    var dataCenter: Bool { false }

    override func setUpWithError() throws {
        sim = try JiraSim(dataCenter: dataCenter)
        workspace = try Workspace(serverURL: sim.url)
        try workspace.useJira(sim)
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    func byRecord(_ changes: [[String: Any]]) -> [String: [String: Any]] {
        Dictionary(changes.map { ($0["record"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    func fields(_ change: [String: Any]?) -> [String] {
        (change?["changes"] as? [[String: Any]] ?? []).map { field in
            let name = field["field"] as? String ?? "?"
            let old = field["old"] as? String, new = field["new"] as? String
            return old == nil ? "\(name): \(new ?? "")" : "\(name): \(old ?? "") → \(new ?? "")"
        }
    }

    func test_firstCheck_isASilentBaselineWithOneLine() throws {
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.count, 1, result.stdout)
        XCTAssertTrue(result.lines.first?.hasPrefix("Baseline: watching 6 Jira issues assigned to you") == true, result.stdout)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "nothing changed since")
    }

    func test_colleaguesActions_areEachReportedOnce_withWhoAndOldToNew() throws {
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try sim.act("alice", "assign", "WEB-2", "engineer")  // given to me
        try sim.act("lead", "transition", "WEB-1", "In Progress")  // mine, by lead
        try sim.act("alice", "comment", "WEB-5", "Please look at the logs\nsecond line")  // mine, a comment
        try sim.act("engineer", "edit", "WEB-9", "summary=My own edit")  // mine, by me: silent
        try sim.act("engineer", "comment", "WEB-9", "my own comment")  // silent
        let changes = try workspace.checkChanges()
        XCTAssertEqual(Set(changeSummaries(changes)), ["WEB-2 assigned", "WEB-1 modified", "WEB-5 modified"])
        XCTAssertEqual(changes.count, 3, "\(changes)")
        let byRecord = byRecord(changes)
        XCTAssertEqual(byRecord["WEB-2"]?["by"] as? String, "Alice Example")
        XCTAssertEqual(fields(byRecord["WEB-2"]), ["Assignee: Alice Example → Eve Engineer"])
        XCTAssertEqual(byRecord["WEB-1"]?["by"] as? String, "Lena Lead")
        XCTAssertEqual(fields(byRecord["WEB-1"]), ["Status: To Do → In Progress"])
        XCTAssertEqual(fields(byRecord["WEB-5"]), ["Comment: Please look at the logs"])
        XCTAssertEqual(Set(changes.compactMap { $0["source"] as? String }), ["jira"])
        XCTAssertEqual(try workspace.checkChanges().count, 0, "each reported once")
    }

    func test_reassignedAway_isUnassigned_namingWhoAndToWhom() throws {
        _ = try workspace.checkChanges()
        try sim.act("lead", "assign", "WEB-1", "alice")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["WEB-1 unassigned"])
        XCTAssertEqual(changes.first?["by"] as? String, "Lena Lead")
        XCTAssertEqual(fields(changes.first), ["Assignee: Eve Engineer → Alice Example"])
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    func test_anIssueCreatedAssignedToMe_isAssignedByItsCreator() throws {
        _ = try workspace.checkChanges()
        try sim.act("lead", "create", "OPS", "Rotate the certificates", "--assignee", "engineer")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changes.count, 1, "\(changes)")
        XCTAssertEqual(changes.first?["kind"] as? String, "assigned")
        XCTAssertEqual(changes.first?["by"] as? String, "Lena Lead")
        XCTAssertEqual(changes.first?["headline"] as? String, "Rotate the certificates")
    }

    func test_aMovedIssue_isOneChangeUnderItsNewKey() throws {
        _ = try workspace.checkChanges()
        try sim.act("alice", "move", "WEB-1", "OPS")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changes.count, 1, "never unassigned plus assigned: \(changes)")
        let record = changes.first?["record"] as? String ?? ""
        XCTAssertTrue(record.hasPrefix("OPS-"), record)
        XCTAssertEqual(changes.first?["kind"] as? String, "modified")
        XCTAssertTrue(fields(changes.first).contains("Key: WEB-1 → \(record)"), "\(fields(changes.first))")
        try sim.act("lead", "transition", record, "Done")
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["\(record) modified"], "followed under its new key")
    }

    func test_aSteadyPoll_costsOneRequest_andNeverTheRemovedSearch() throws {
        _ = try workspace.checkChanges()
        _ = try workspace.checkChanges()
        try sim.resetStats()
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        let routes = try sim.requestsByRoute()
        XCTAssertLessThanOrEqual(routes.values.reduce(0, +), 2, "\(routes)")
        if sim.isCloud { XCTAssertNil(routes["GET /search"] ?? routes["POST /search"], "Cloud's /search is gone") }
    }
}

/// The same, against the Data Center flavour (personal access token, `/rest/api/2/search`, expanded changelog).
final class JiraDataCenterCheckTests: JiraCheckTests {
    override var dataCenter: Bool { true }

    func test_aPasswordSignsInToo() throws {
        try workspace.useJira(sim, password: true)
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try sim.act("lead", "transition", "WEB-1", "Done")
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["WEB-1 modified"])
    }
}
