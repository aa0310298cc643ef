import Foundation
import XCTest

/// `[[watch]]` saved queries and `[[server]]` profiles, through `trackwatch check` against compass-sim over
/// real HTTP. compass-sim's Public Queries hold "Team P1s" (Priority 1, not Closed; columns id, Headline,
/// State, Owner, Priority) and "All Defects".
final class WatchTests: XCTestCase {
    private var sim: Simulator!
    private var workspace: Workspace!
    /// A record of lead's in state Opened, so that it is nobody's business but the watched query's.
    private let record = "SAMPL00000003"

    override func setUpWithError() throws {
        sim = try Simulator()
        workspace = try Workspace(serverURL: sim.url)
        try sim.act("alice", record, "Modify", set: ["Priority=3-Normal Queue"])
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    private func watch(_ lines: String) throws {
        workspace.trailer = "[[watch]]\n" + lines
        try workspace.writeConfig()
    }

    private func check(_ extra: [String] = ["--json"], status: Int32 = 0) throws -> RunResult {
        let result = try workspace.trackwatch(["check"] + extra)
        XCTAssertEqual(result.status, status, "check: \(result.stderr)")
        return result
    }

    private func describe(_ objects: [[String: Any]]) -> [String] {
        objects.map { "\($0["kind"] as? String ?? "?") \($0["record"] as? String ?? "?") \($0["watch"] as? String ?? "-")" }
    }

    func test_watchedPublicQuery_reportsEntriesComparedChangesAndExits_once() throws {
        try watch("""
            query = "Public Queries/Team P1s"
            fields = ["State", "Priority"]
            notify = "changes"
            """)
        let baseline = try check([])
        XCTAssertTrue(baseline.stdout.contains("Baseline: watching the query Team P1s"), baseline.stdout)

        try sim.act("alice", record, "Modify", set: ["Priority=1-Resolve Immediately"])
        var changes = try check().objects
        XCTAssertEqual(describe(changes), ["entered \(record) Team P1s"])
        XCTAssertEqual(changes.first?["priority"] as? String, "1-Resolve Immediately")
        XCTAssertEqual(try check().objects.count, 0, "reported once")

        // Owner is not compared: stored, not reported. State is.
        try sim.act("alice", record, "Modify", set: ["Owner=admin"])
        XCTAssertEqual(try check().objects.count, 0)
        try sim.act("lead", record, "Resolve")
        changes = try check().objects
        XCTAssertEqual(describe(changes), ["changed \(record) Team P1s"])
        XCTAssertEqual((changes.first?["changes"] as? [[String: Any]])?.first?["new"] as? String, "Resolved")

        try sim.act("lead", record, "Close")
        let left = try check([])
        XCTAssertEqual(left.lines, ["\(record) no longer in Team P1s: \(try headline()) [1-Resolve Immediately]"], left.stdout)
        let log = try workspace.trackwatch(["log", "--record", record]).lines
        XCTAssertEqual(log.count, 3, "entered, changed, left: \(log)")
    }

    func test_entriesRule_staysQuietAboutExits() throws {
        try watch("query = \"Public Queries/Team P1s\"\nnotify = \"entries\"\nname = \"P1\"")
        _ = try check()
        try sim.act("alice", record, "Modify", set: ["Priority=1-Resolve Immediately"])
        XCTAssertEqual(describe(try check().objects), ["entered \(record) P1"])
        try sim.act("alice", record, "Modify", set: ["Priority=3-Normal Queue"])
        XCTAssertEqual(try check().objects.count, 0, "an exit is not reported under notify = entries")
        try sim.act("alice", record, "Modify", set: ["Priority=1-Resolve Immediately"])
        XCTAssertEqual(describe(try check().objects), ["entered \(record) P1"], "the exit was stored: entering again is news")
    }

    func test_personalQuery_isFoundByItsPath() throws {
        try sim.storePersonalQuery(user: "engineer", password: "engineer", name: "Needs my review",
                                   filter: #"{"fieldPath":"State","compOp":"COMP_OP_EQ","values":["Resolved"]}"#)
        try watch("query = \"Personal Queries/Needs my review\"")
        _ = try check()
        try sim.act("lead", record, "Resolve")
        XCTAssertEqual(describe(try check().objects), ["entered \(record) Needs my review"])
    }

    func test_queryInASubfolder_isFoundByWalkingTheTree() throws {
        try sim.act("alice", record, "Modify", set: ["Severity=3-Average"])
        try watch("query = \"Public Queries/Triage/Critical\"\nname = \"Triage\"")
        _ = try check()
        try sim.act("alice", record, "Modify", set: ["Severity=1-Critical"])
        XCTAssertEqual(describe(try check().objects), ["entered \(record) Triage"])
        try watch("query = \"Public Queries/Triage/Nothing\"")
        XCTAssertTrue(try check([], status: 78).stderr.contains(#"the query "Nothing" is not in Public Queries/Triage on the server (it has Critical)"#))
        try watch("query = \"Public Queries/Teams/Critical\"")
        XCTAssertTrue(try check([], status: 78).stderr.contains(#"the folder "Teams" is not in Public Queries on the server (it has Triage)"#))
    }

    func test_missingQuery_failsWithTheFix_whileTheBuiltInQueriesStillWork() throws {
        try watch("query = \"Public Queries/Team P2s\"")
        let first = try check([], status: 78)
        XCTAssertTrue(first.stdout.hasPrefix("Baseline: watching "), "the built-in baseline was taken: \(first.stdout)")
        XCTAssertTrue(first.stderr.contains(#"the query "Team P2s" is not in Public Queries on the server (it has All Defects, Needs Verification, Team P1s)"#),
                      first.stderr)
        try sim.act("lead", "SAMPL00000001", "Resolve")
        let second = try check([], status: 78)
        XCTAssertTrue(second.stdout.hasPrefix("SAMPL00000001 resolved by lead"), "built-in changes still reported: \(second.stdout)")
        let status = try workspace.trackwatch(["status"]).stdout
        XCTAssertTrue(status.contains("Failing:      Team P2s: the query \"Team P2s\" is not in Public Queries"), status)
        XCTAssertTrue(status.contains("Last success:"), "the built-in watch is healthy: \(status)")
        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("✘ watched query Public Queries/Team P2s"), doctor.stdout)
    }

    func test_steadyState_costsTwoRequestsPerWatch() throws {
        try watch("query = \"Public Queries/Team P1s\"")
        _ = try check()
        _ = try check()
        let before = try sim.stats()["requests"] as? Int ?? 0
        _ = try check()
        let after = try sim.stats()["requests"] as? Int ?? 0
        // One process per check: login, 2 × 2 for the built-in queries, folders + 2 for the watch, logoff; and
        // the first stats request. (The daemon keeps its session and the query's id: 2 per watch.)
        XCTAssertEqual(after - before, 1 + 4 + 3 + 1 + 1)
    }

    /// Two Compass servers in one configuration: each with its own credentials and state, one `check`.
    func test_twoServerProfiles_eachReportedWithItsOwnState() throws {
        let second = try Simulator()
        let secondPassword = workspace.directory.appendingPathComponent("alice-password")
        try Data("alice\n".utf8).write(to: secondPassword)
        chmod(secondPassword.path, 0o600)
        workspace.customConfig = """
            [[server]]
            name = "prod"
            url = "\(sim.url)"
            repo = "2.0.0"
            database = "SAMPL"
            username = "engineer"
            password_file = "\(workspace.passwordFile)"

            [[server]]
            name = "test"
            url = "\(second.url)"
            repo = "2.0.0"
            database = "SAMPL"
            username = "alice"
            password_file = "\(secondPassword.path)"
            timeout = "2s"

            [[watch]]
            server = "test"
            query = "Public Queries/Team P1s"
            """
        try workspace.writeConfig()
        let baseline = try check([])
        XCTAssertEqual(baseline.lines.filter { $0.hasPrefix("Baseline: watching ") }.count, 3, baseline.stdout)
        for name in ["prod", "test"] {
            let database = workspace.environment["XDG_STATE_HOME"]! + "/trackwatch/servers/\(name)/state.sqlite"
            XCTAssertTrue(FileManager.default.fileExists(atPath: database), "own state for \(name)")
        }

        try sim.act("lead", "SAMPL00000001", "Resolve")  // engineer's, on prod
        try second.act("lead", "SAMPL00000002", "Resolve")  // alice's, on test
        try second.act("lead", record, "Modify", set: ["Priority=1-Resolve Immediately"])
        XCTAssertEqual(Set(describe(try check().objects)),
                       ["modified SAMPL00000001 -", "modified SAMPL00000002 -", "entered \(record) Team P1s"])

        let status = try workspace.trackwatch(["status"])
        XCTAssertTrue(status.stdout.contains("prod\n  Last poll:") && status.stdout.contains("test\n  Last poll:"), status.stdout)
        let log = try workspace.trackwatch(["log"]).lines
        XCTAssertEqual(log.filter { $0.contains("[prod] SAMPL00000001") }.count, 1, "\(log)")
        XCTAssertEqual(log.filter { $0.contains("[test] ") }.count, 2, "\(log)")

        // One server down: the other's changes still arrive; the failure is named and sets the exit status.
        sim = nil
        try second.act("lead", "SAMPL00000007", "Modify", set: ["Owner=alice"])
        let partial = try check([], status: 69)
        XCTAssertTrue(partial.stdout.contains("SAMPL00000007 assigned to you by lead"), partial.stdout)
        XCTAssertTrue(partial.stderr.contains("trackwatch: prod: Cannot reach Compass"), partial.stderr)

        XCTAssertEqual(try workspace.trackwatch(["mute", "SAMPL00000007"]).status, 0)
        XCTAssertTrue(try workspace.trackwatch(["mute"]).stdout.contains("SAMPL00000007"))
    }

    private func headline() throws -> String {
        let rows = try workspace.trackwatch(["log", "--record", record, "--json", "--limit", "1"]).objects
        return rows.first?["headline"] as? String ?? ""
    }
}
