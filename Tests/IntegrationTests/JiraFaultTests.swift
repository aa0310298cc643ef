import Foundation
import XCTest

/// Jira servers that differ and answers that go wrong (issue 24): nothing is ever reported from a bad answer, the
/// next good poll reports what happened meanwhile once, and each failure says what to do.
class JiraFaultTests: XCTestCase {
    var sim: JiraSim!
    var workspace: Workspace!
    var dataCenter: Bool { false }
    /// The route of the search my issues are read with.
    var searchRoute: String { dataCenter ? "POST /search" : "POST /search/jql" }

    override func setUpWithError() throws {
        sim = try JiraSim(dataCenter: dataCenter)
        workspace = try Workspace(serverURL: sim.url)
        try workspace.useJira(sim)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    func test_faults_neverProduceAChange_andTheNextGoodPollReportsOnce() throws {
        try sim.act("lead", "transition", "WEB-1", "In Progress")
        for (kind, status) in [("status", 500), ("status", 502), ("html", 200), ("truncated", 200), ("reset", 0)] {
            try sim.fault(kind, on: searchRoute, status: kind == "status" ? status : nil)
            let result = try workspace.trackwatch(["check", "--json"])
            XCTAssertNotEqual(result.status, 0, "\(kind) \(status): \(result.stdout)")
            XCTAssertTrue(result.objects.isEmpty, "\(kind): \(result.stdout)")
        }
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["WEB-1 modified"])
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    func test_aFailedChangelogRead_commitsNothing() throws {
        guard !dataCenter else { return }  // there the changelog comes from a search, as the faults above test
        try sim.act("alice", "comment", "WEB-1", "First")
        try sim.fault("status", on: "POST /changelog/bulkfetch")
        let failed = try workspace.trackwatch(["check", "--json"])
        XCTAssertNotEqual(failed.status, 0, failed.stdout)
        XCTAssertTrue(failed.objects.isEmpty)
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["WEB-1 modified"])
    }

    func test_rateLimited_waitsAsTold_andSaysNothingIsLost() throws {
        try sim.act("lead", "transition", "WEB-1", "Done")
        try sim.fault("rateLimit", on: searchRoute, retryAfter: 7)
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 69, result.stderr)
        XCTAssertTrue(result.stderr.contains("Jira is limiting requests (HTTP 429"), result.stderr)
        XCTAssertTrue(result.stderr.contains("nothing is lost"), result.stderr)
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["WEB-1 modified"])
    }

    func test_anExpiredOrRevokedToken_isExit77_sayingWhereToMakeANewOne() throws {
        try sim.switches(#"{"expiredToken": "engineer"}"#)
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 77, result.stderr)
        XCTAssertTrue(result.stderr.contains("expired"), result.stderr)
        XCTAssertTrue(result.stderr.contains("revoked"), result.stderr)
        XCTAssertTrue(
            result.stderr.contains(dataCenter ? "Personal Access Tokens" : "id.atlassian.com"), result.stderr)
    }

    func test_aProjectTheAccountCannotSee_isNamed_andTheRestIsWatched() throws {
        try workspace.useJira(sim, ["projects = [\"WEB\", \"SECRET\"]"])
        _ = try workspace.trackwatch(["check"])  // a new baseline for the narrowed watch
        // The change in a second already over by both clocks when the check begins: the server's clock a second
        // behind ours while the colleague acts, then two seconds on. One in the check's own second (the simulator's
        // times are whole seconds) has its changelog read once more at the next poll, as a colleague may have acted
        // later in that second: that poll would not be steady.
        try sim.control(.post, "clock", #"{"advance": -1}"#)
        try sim.act("lead", "transition", "WEB-1", "Done")
        try sim.control(.post, "clock", #"{"advance": 2}"#)
        let result = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(changeSummaries(result.objects), ["WEB-1 modified"], result.stderr)
        XCTAssertTrue(result.stderr.contains("Project SECRET"), result.stderr)
        XCTAssertEqual(result.status, 78, "named as the configuration's to fix: \(result.stderr)")
        // Remembered until the next full read: a steady poll is one search, not a refused one and another.
        try sim.resetStats()
        let steady = try workspace.trackwatch(["check", "--json"])
        XCTAssertTrue(steady.stderr.contains("Project SECRET"), steady.stderr)
        let routes = try sim.requestsByRoute()
        XCTAssertEqual(routes.values.reduce(0, +), 1, "\(routes)")
    }

    func test_anIssueMissingFromALaggingSearch_isNeverUnassigned_andIsReportedOnceItShows() throws {
        guard !dataCenter else { return }  // Data Center's search is consistent
        try sim.switches(#"{"searchLag": 3600}"#)
        try sim.act("lead", "transition", "WEB-1", "Done")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "the search does not show it yet")
        try sim.switches(#"{"searchLag": 0}"#)
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["WEB-1 modified"])
    }

    /// A server that serves fewer issues a page than asked: every page is read, by token or by offset.
    func test_pagesClampedByTheServer_areReadWhole() throws {
        try sim.switches(#"{"maxResults": 2}"#)
        let fresh = try Workspace(serverURL: sim.url)
        try fresh.useJira(sim)
        try sim.resetStats()
        let baseline = try fresh.trackwatch(["check"])
        XCTAssertTrue(baseline.stdout.hasPrefix("Baseline: watching 6 Jira issues"), baseline.stdout)
        XCTAssertGreaterThanOrEqual(try sim.requestsByRoute()[searchRoute] ?? 0, 5, "pages of 2")
        try sim.act("lead", "transition", "WEB-1", "Done")
        XCTAssertEqual(changeSummaries(try fresh.checkChanges()), ["WEB-1 modified"])
    }

    func test_commentsCutFromTheSearch_areReadWhole() throws {
        try sim.switches(#"{"embeddedLimit": 1}"#)
        try sim.act("alice", "comment", "WEB-1", "First remark")
        try sim.act("lead", "comment", "WEB-1", "Second remark")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changes.count, 1)
        let lines = (changes.first?["changes"] as? [[String: Any]] ?? []).compactMap { $0["new"] as? String }
        XCTAssertEqual(lines, ["First remark", "Second remark"])
        XCTAssertEqual(changes.first?["by"] as? String, "Lena Lead")
    }

    func test_timestampsWithoutMillisecondsOrAsEpochNumbers_areRead() throws {
        for format in ["plain", "epoch"] {
            try sim.switches(#"{"timestamps": "\#(format)"}"#)
            try sim.control(.post, "clock", #"{"advance": 60}"#)  // a later edit, not one in the same second
            try sim.act("lead", "edit", "WEB-5", "summary=Renamed \(format)")
            let changes = try workspace.checkChanges()
            XCTAssertEqual(changeSummaries(changes), ["WEB-5 modified"], format)
            XCTAssertEqual(changes.first?["by"] as? String, "Lena Lead", format)
        }
    }

    func test_automation_isNamed_andIgnoreAppsOrIgnoreUsersSilenceIt() throws {
        try sim.act("automation", "transition", "WEB-1", "In Progress")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changes.first?["by"] as? String, "Automation for Jira")
        try workspace.useJira(sim, [dataCenter ? "ignore_users = [\"automation\"]" : "ignore_apps = true"])
        try sim.control(.post, "clock", #"{"advance": 60}"#)  // Jira's times have milliseconds; the simulator's seconds
        try sim.act("automation", "transition", "WEB-1", "Done")
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try sim.act("lead", "transition", "WEB-1", "To Do")
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["WEB-1 modified"], "people still are")
    }
}

final class JiraDataCenterFaultTests: JiraFaultTests {
    override var dataCenter: Bool { true }

    /// Data Center has no bulk changelog and no search/jql: a changed issue costs one more search, its changelog
    /// expanded; a changelog cut short in that answer is read whole from the issue.
    func test_changelogs_comeFromASearch_andACutOneIsReadWhole() throws {
        try sim.switches(#"{"embeddedLimit": 1}"#)
        try sim.act("lead", "transition", "WEB-1", "In Progress")
        try sim.act("alice", "edit", "WEB-1", "summary=Renamed by Alice")
        try sim.resetStats()
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changes.first?["by"] as? String, "Alice Example")
        XCTAssertEqual(
            fields(changes.first), ["Status: To Do → In Progress", "Summary: Issue 1 of WEB → Renamed by Alice"])
        let routes = try sim.requestsByRoute()
        XCTAssertNil(routes["POST /changelog/bulkfetch"])
        XCTAssertNil(routes["POST /search/jql"])
        XCTAssertEqual(routes["POST /search"], 2, "\(routes)")
    }

    func fields(_ change: [String: Any]?) -> [String] {
        (change?["changes"] as? [[String: Any]] ?? []).map { field in
            "\(field["field"] as? String ?? "?"): \(field["old"] as? String ?? "") → \(field["new"] as? String ?? "")"
        }
    }
}
