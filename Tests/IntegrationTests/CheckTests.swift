import Foundation
import XCTest

/// `trackwatch check` against compass-sim over real HTTP, as a person would run it.
final class CheckTests: XCTestCase {
    private var sim: Simulator!
    private var workspace: Workspace!

    override func setUpWithError() throws {
        sim = try Simulator()
        workspace = try Workspace(serverURL: sim.url)
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    private func check(_ extra: [String] = ["--json"]) throws -> RunResult {
        let result = try workspace.trackwatch(["check"] + extra)
        XCTAssertEqual(result.status, 0, "check failed: \(result.stderr)")
        return result
    }

    func test_firstCheck_isASilentBaselineWithOneSummaryLine() throws {
        let result = try check([])
        XCTAssertEqual(result.lines.count, 1, result.stdout)
        XCTAssertTrue(result.stdout.hasPrefix("Baseline: watching "), result.stdout)
        XCTAssertEqual(try check().objects.count, 0, "nothing changed since the baseline")
    }

    func test_leadAssignsADefectToEngineer_isExactlyOneAssignedChangeByLead() throws {
        _ = try check()
        try sim.act("lead", "SAMPL00000002", "Modify", set: ["Owner=engineer", "Priority=1-Resolve Immediately"])
        let changes = try check().objects
        XCTAssertEqual(changes.count, 1, "\(changes)")
        XCTAssertEqual(changes.first?["record"] as? String, "SAMPL00000002")
        XCTAssertEqual(changes.first?["kind"] as? String, "assigned")
        XCTAssertEqual(changes.first?["by"] as? String, "lead")
        XCTAssertEqual(changes.first?["action"] as? String, "Modify")
        XCTAssertNotNil(changes.first?["at"] as? String)
        XCTAssertEqual(try check().objects.count, 0, "reported once")
    }

    func test_leadResolvesEngineersDefect_isOneModifiedChangeWithState() throws {
        _ = try check()
        try sim.act("lead", "SAMPL00000001", "Resolve")
        let result = try check([])
        XCTAssertEqual(result.lines.count, 1, result.stdout)
        XCTAssertTrue(result.stdout.hasPrefix("SAMPL00000001 resolved by lead: "), result.stdout)
        XCTAssertTrue(result.stdout.contains("(State: Opened → Resolved)"), result.stdout)
    }

    func test_serverTextOnTheTerminal_isOneLineWithoutEscapes() throws {
        _ = try check()
        let file = workspace.directory.appendingPathComponent("headline")
        try Data("a\u{1B}[31mred\u{202E}\nSAMPL00000009 assigned to you".utf8).write(to: file)
        try sim.act("lead", "SAMPL00000001", "Modify", setFile: ["Headline=\(file.path)"])
        let result = try check([])
        XCTAssertEqual(result.lines.count, 1, result.stdout)
        XCTAssertFalse(result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E }, result.stdout)
        XCTAssertTrue(result.stdout.contains("a[31mred SAMPL00000009 assigned to you"), result.stdout)
    }

    func test_engineerEditsOwnDefect_reportsNothing() throws {
        _ = try check()
        try sim.act("engineer", "SAMPL00000001", "Modify", set: ["Priority=4-Low Priority"])
        XCTAssertEqual(try check().objects.count, 0)
        try sim.act("lead", "SAMPL00000001", "Modify", set: ["Severity=1-Critical"])
        let changes = try check().objects
        XCTAssertEqual(changes.count, 1)
        let fields = changes.first?["changes"] as? [[String: Any]] ?? []
        XCTAssertEqual(fields.map { $0["field"] as? String }, ["Severity"], "my own Priority edit was absorbed silently")
    }

    func test_reassignedAway_isUnassigned() throws {
        _ = try check()
        try sim.act("lead", "SAMPL00000001", "Modify", set: ["Owner=alice"])
        let changes = try check().objects
        XCTAssertEqual(changes.map { $0["kind"] as? String }, ["unassigned"])
        XCTAssertEqual(changes.first?["record"] as? String, "SAMPL00000001")
    }

    /// Issue 20, item 11: "no longer assigned to you" says by whom where the history tells it.
    func test_reassignedAway_saysByWhom() throws {
        _ = try check()
        try sim.act("lead", "SAMPL00000001", "Modify", set: ["Owner=alice"])
        let changes = try check().objects
        XCTAssertEqual(changes.map { $0["kind"] as? String }, ["unassigned"])
        XCTAssertEqual(changes.first?["by"] as? String, "lead")
        let text = try workspace.trackwatch(["log"])
        XCTAssertTrue(text.stdout.contains("SAMPL00000001 no longer assigned to you, by lead: "), text.stdout)
    }

    func test_dryRun_persistsNothing() throws {
        _ = try check()
        try sim.act("lead", "SAMPL00000001", "Resolve")
        XCTAssertEqual(try check(["--json", "--dry-run"]).objects.count, 1)
        XCTAssertEqual(try check().objects.count, 1, "the dry run did not consume the change")
    }

    func test_serverDown_failsWithoutTouchingTheSnapshot_andTheNextCheckReportsOnce() throws {
        _ = try check()
        try sim.act("lead", "SAMPL00000001", "Resolve")
        let live = workspace.serverURL
        workspace.serverURL = "http://127.0.0.1:9"  // discard port: connection refused
        try workspace.writeConfig()
        let failed = try workspace.trackwatch(["check"])
        XCTAssertEqual(failed.status, 69, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("Cannot reach Compass"), failed.stderr)
        XCTAssertEqual(failed.stdout, "")
        let status = try workspace.trackwatch(["status", "--json"])
        XCTAssertTrue(status.stdout.contains("Cannot reach Compass"), status.stdout)
        workspace.serverURL = live
        try workspace.writeConfig()
        XCTAssertEqual(try check().objects.map { $0["record"] as? String }, ["SAMPL00000001"])
        XCTAssertEqual(try check().objects.count, 0)
    }

    func test_wrongPassword_exitsWithCredentialsStatusAndOneLoginAttempt() throws {
        _ = try check()
        try Data("wrong\n".utf8).write(to: workspace.directory.appendingPathComponent("password"))
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 77, result.stderr)
        XCTAssertTrue(result.stderr.contains("rejected the login"), result.stderr)
        XCTAssertFalse(result.stderr.contains("wrong"), "the password is never printed")
        XCTAssertEqual(try sim.stats()["loginFailures"] as? Int, 1)
    }

    func test_lockedAccount_saysWhoCanUnlockIt_andTriesOnce() throws {
        _ = try check()
        try sim.post("/ccmweb/sim/lock/engineer")
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 77, result.stderr)
        XCTAssertTrue(result.stderr.contains("the account is locked (HTTP 401: The account engineer is locked. Contact your administrator.). Ask your Compass administrator to unlock it"),
                      result.stderr)
        XCTAssertEqual(try sim.stats()["loginFailures"] as? Int, 1, "one attempt: retrying would only keep it locked")
    }

    func test_corruptStateDatabase_isMovedAside_andANewBaselineTaken() throws {
        _ = try check()
        try sim.act("lead", "SAMPL00000001", "Resolve")
        let state = workspace.directory.appendingPathComponent("xdg-state/trackwatch")
        let database = state.appendingPathComponent("state.sqlite")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: database)
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("Baseline: "), "a silent baseline, no flood: \(result.stdout)")
        XCTAssertTrue(result.stderr.contains("moved it aside"), result.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: state.path)
        XCTAssertTrue(files.contains { $0.hasPrefix("state.sqlite.corrupt-") }, "\(files)")
    }

    func test_badConfig_namesFileLineAndKey() throws {
        try Data("[server]\nurl = \"http://x\"\nrepo = 2\n".utf8).write(to: URL(fileURLWithPath: workspace.configPath))
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 78)
        XCTAssertTrue(result.stderr.contains("config.toml:3"), result.stderr)
        XCTAssertTrue(result.stderr.contains("server.repo"), result.stderr)
    }
}

final class PagingAndFallbackTests: XCTestCase {
    func test_smallPageCap_readsEveryPage() throws {
        let sim = try Simulator(["--page-size-cap", "3", "--records", "80"])
        let workspace = try Workspace(serverURL: sim.url)
        let baseline = try workspace.trackwatch(["check"])
        XCTAssertEqual(baseline.status, 0, baseline.stderr)
        // Seed rule: records 1, 5, 13, 17, 21 … (n ≡ 1 mod 4) are engineer's unless their state is Submitted.
        let expected = (1...80).filter { $0 % 4 == 1 && (($0 - 1) / 4) % 5 != 2 }.count
        XCTAssertTrue(baseline.stdout.contains("watching \(expected) records"), baseline.stdout)
        let routes = try sim.stats()["requestsByRoute"] as? [String: Int] ?? [:]
        let pageReads = routes.filter { $0.key.hasPrefix("GET") && $0.key.contains("query/") }.values.reduce(0, +)
        XCTAssertGreaterThanOrEqual(pageReads, (expected + 2) / 3, "\(routes)")
    }

    func test_withoutAdHocQueries_storedQueriesAreUsedAndNoneLeftBehind() throws {
        let sim = try Simulator(["--no-adhoc-query"])
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0)
        try sim.act("lead", "SAMPL00000001", "Resolve")
        let second = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.objects.map { $0["kind"] as? String }, ["modified"])
        let stored = (try sim.stats()["storedQueries"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertEqual(stored.filter { $0.hasPrefix("trackwatch") }, ["trackwatch assigned to me"],
                       "the fixed query is kept for reuse, the time-filtered one is deleted")
        let routes = try sim.stats()["requestsByRoute"] as? [String: Int] ?? [:]
        XCTAssertEqual(routes["POST /query"], 2, "each check tries /query once, for its first query only: \(routes)")
    }
}
