import Foundation
import XCTest

/// A hostile Jira's answers over real HTTP against jira-sim: a changelog history or comment it sends unreadable is
/// skipped and named, never the poll, never the issue; a change only it told is still reported, without a name,
/// from the issue's fields; nothing is told twice.
class JiraHostileAnswerTests: XCTestCase {
    var sim: JiraSim!
    var workspace: Workspace!
    var dataCenter: Bool { false }

    /// With `--issues 3` the seed holds histories 10000–10003 and comments 10000–10001 (docs/jira-sim.md, "Seeded
    /// issues"): the next of each is the colleague's below.
    static let nextHistory = 10_004, nextComment = 10_002

    override func setUpWithError() throws {
        sim = try JiraSim(dataCenter: dataCenter, ["--issues", "3"])
        workspace = try Workspace(serverURL: sim.url)
        try workspace.useJira(sim)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
        // The server's clock a second behind ours: the changes are in a second already over when a check begins.
        try sim.control(.post, "clock", #"{"advance": -1}"#)
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    private static func skipLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.contains("Jira sent an item") }
    }

    private static func fields(_ change: [String: Any]?) -> [String] {
        (change?["changes"] as? [[String: Any]] ?? []).map { field in
            "\(field["field"] as? String ?? "?"): \(field["old"] as? String ?? "") → \(field["new"] as? String ?? "")"
        }
    }

    func test_aColleaguesChangeWhoseHistoryIsUnreadable_isReportedOnceWithoutAName_andThePollSucceeds() throws {
        try sim.act("lead", "transition", "WEB-1", "In Progress")
        try sim.fault("item", on: "", count: 10_000, item: Self.nextHistory, entry: "history", field: "id", value: "{}")
        let result = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(changeSummaries(result.objects), ["WEB-1 modified"], result.stderr)
        XCTAssertEqual(Self.fields(result.objects.first), ["Status: To Do → In Progress"])
        XCTAssertNil(result.objects.first?["by"] as? String, "no readable history says who")
        let lines = Self.skipLines(result.stderr)
        XCTAssertEqual(lines.count, 1, "named once: \(result.stderr)")
        XCTAssertTrue(lines.first?.contains("Jira sent an item with an unusable id; it is skipped") == true, "\(lines)")
        // Still unreadable, then mended: the change was told, and is not told again.
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try sim.control(.delete, "faults")
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try sim.control(.post, "clock", #"{"advance": 60}"#)  // a later second than the transition's
        try sim.act("alice", "comment", "WEB-1", "Still watched")
        let next = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(next), ["WEB-1 modified"])
        XCTAssertEqual(next.first?["by"] as? String, "Alice Example")
    }

    func test_aColleaguesUnreadableChange_besideMyOwnReadableComment_isStillToldWithoutAName() throws {
        try sim.act("lead", "transition", "WEB-1", "In Progress")
        try sim.act("engineer", "comment", "WEB-1", "My own note, readable")
        try sim.fault("item", on: "", count: 10_000, item: Self.nextHistory, entry: "history", field: "id", value: "{}")
        let result = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(changeSummaries(result.objects), ["WEB-1 modified"], "not my own doing: \(result.stderr)")
        XCTAssertEqual(Self.fields(result.objects.first), ["Status: To Do → In Progress"])
        XCTAssertNil(result.objects.first?["by"] as? String, "no readable history says who")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "nothing told twice")
    }

    func test_anUnreadableComment_isSkippedAndNamed_andTheIssuesOtherChangesAreTold() throws {
        try sim.act("alice", "comment", "WEB-1", "Said in a comment the server cannot send")
        try sim.act("lead", "transition", "WEB-1", "In Progress")
        try sim.fault("item", on: "", count: 10_000, item: Self.nextComment, entry: "comment", field: "author", value: "7")
        let result = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(changeSummaries(result.objects), ["WEB-1 modified"], result.stderr)
        XCTAssertEqual(result.objects.first?["by"] as? String, "Lena Lead")
        XCTAssertEqual(Self.fields(result.objects.first), ["Status: To Do → In Progress"])
        let lines = Self.skipLines(result.stderr)
        XCTAssertEqual(lines.count, 1, "named once: \(result.stderr)")
        XCTAssertTrue(lines.first?.contains("Jira sent an item with an unusable author; it is skipped") == true, "\(lines)")
        XCTAssertTrue(lines.first?.contains("/comment/\(Self.nextComment)") == true, "which one: \(lines)")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "nothing told twice")
    }
}

final class JiraDataCenterHostileAnswerTests: JiraHostileAnswerTests {
    override var dataCenter: Bool { true }

    /// The changelog comes from a search: the history left out counts as sent, so the changelog is not taken for one
    /// cut short and read again from the issue.
    func test_anUnreadableHistory_isNoChangelogCutShort() throws {
        try sim.act("lead", "transition", "WEB-1", "In Progress")
        try sim.fault("item", on: "", count: 10_000, item: Self.nextHistory, entry: "history", field: "id", value: "{}")
        try sim.resetStats()
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["WEB-1 modified"])
        let routes = try sim.requestsByRoute()
        XCTAssertNil(routes["GET /issue/{idOrKey}"], "\(routes)")
        XCTAssertEqual(routes["POST /search"], 2, "\(routes)")
    }
}
