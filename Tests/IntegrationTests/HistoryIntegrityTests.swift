import Foundation
import XCTest

/// Two ways the history could lose or misreport a colleague's change, through `trackwatch check` over real HTTP
/// against compass-sim: identical entries (the same person, action, record and second) and an entry dated later
/// than any time zone allows.
final class HistoryIntegrityTests: XCTestCase {
    /// Records of engineer's (owner rule in compass-sim).
    private let first = "SAMPL00000001", second = "SAMPL00000005", third = "SAMPL00000021"

    private func describe(_ object: [String: Any]) -> String {
        let by = object["by"] as? String ?? "nobody"
        return "\(object["kind"] as? String ?? "?") \(object["record"] as? String ?? "?") by \(by)"
    }

    private func fields(_ run: RunResult) -> [String] {
        run.objects.flatMap { ($0["changes"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String } }
    }

    private func check(_ workspace: Workspace, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let run = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        return run
    }

    private func stateDatabase(_ workspace: Workspace) -> String {
        workspace.environment["XDG_STATE_HOME"]! + "/trackwatch/state.sqlite"
    }

    // MARK: - Identical entries

    /// A colleague's script does Modify, Modify, Modify on one record within one second, each commit landing after
    /// trackwatch read the one before: every one is reported, with its name — a note (no field changed) too.
    /// Before, the second and third had the first's key: the note vanished and the field change came unnamed.
    func test_identicalEntriesInLaterPolls_areEachReportedWithTheirName() throws {
        let sim = try Simulator(["--records", "80"])
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try check(workspace).stdout, "", "the baseline is silent")
        try sim.post("/ccmweb/sim/clock", body: #"{"hold": 1}"#)

        try sim.act("lead", first, "Modify", set: ["Priority=1-Resolve Immediately"])
        let modified = try check(workspace)
        XCTAssertEqual(modified.objects.map(describe), ["modified \(first) by lead"], modified.stderr)
        XCTAssertEqual(fields(modified), ["Priority"])

        try sim.act("lead", first, "Modify")  // a note: no watched field changes
        let note = try check(workspace)
        XCTAssertEqual(note.objects.map(describe), ["modified \(first) by lead"], note.stderr)
        XCTAssertEqual(fields(note), [])

        try sim.act("lead", first, "Modify", set: ["Severity=1-Critical"])
        let severity = try check(workspace)
        XCTAssertEqual(severity.objects.map(describe), ["modified \(first) by lead"], severity.stderr)
        XCTAssertEqual(fields(severity), ["Severity"])

        XCTAssertEqual(try check(workspace).stdout, "", "nothing twice")
        try sim.post("/ccmweb/sim/clock", body: #"{"hold": 0}"#)
        try sim.act("alice", second, "Modify", set: ["Priority=1-Resolve Immediately"])
        XCTAssertEqual(try check(workspace).objects.map(describe), ["modified \(second) by alice"])
    }

    /// Two identical entries that one poll reads together are two actions: one change for the record, and the
    /// next poll reports neither again.
    func test_identicalEntriesInOnePoll_areOneChange_andNotReportedAgain() throws {
        let sim = try Simulator(["--records", "80"])
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try check(workspace).stdout, "")
        try sim.post("/ccmweb/sim/clock", body: #"{"hold": 1}"#)
        try sim.act("lead", first, "Modify", set: ["Priority=1-Resolve Immediately"])
        try sim.act("lead", first, "Modify")
        let both = try check(workspace)
        XCTAssertEqual(both.objects.map(describe), ["modified \(first) by lead"], both.stderr)
        XCTAssertEqual(try check(workspace).stdout, "", "nothing twice")
    }

    // MARK: - A server that ignores the window

    /// A server that ignores the filter on `history.action_timestamp` returns the whole history every time. Entries
    /// older than the window asked for are the client's to drop: their keys were pruned from the seen set long
    /// ago, and each poll would report the same old entries again (issue 20, item 18).
    func test_serverIgnoringTheHistoryWindow_reportsNoOldEntryAgain() throws {
        let sim = try Simulator(["--records", "80", "--ignore-history-filter"])
        let workspace = try Workspace(serverURL: sim.url)
        try sim.act("lead", first, "Modify", set: ["Priority=1-Resolve Immediately"], at: "2020-01-01 09:00:00")
        XCTAssertEqual(try check(workspace).stdout, "", "the baseline is silent")
        XCTAssertEqual(try check(workspace).stdout, "", "an entry from 2020 is not news")
        try sim.act("alice", second, "Modify", set: ["Priority=1-Resolve Immediately"])
        XCTAssertEqual(try check(workspace).objects.map(describe), ["modified \(second) by alice"])
        XCTAssertEqual(try check(workspace).stdout, "", "nothing twice")
    }

    // MARK: - Entries dated in the future

    /// A colleague's entry dated 2099 (a database server with a broken clock, a hand-edited entry): reported, logged
    /// once for the administrator, and it does not drag the checkpoint to 2099 — before, every later window
    /// started there, and colleagues' changes lost their names and their notes vanished, for good.
    func test_entryDatedIn2099_isReportedAndLoggedOnce_andLaterChangesKeepTheirNames() throws {
        let sim = try Simulator(["--records", "80"])
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try check(workspace).stdout, "")

        try sim.act("lead", first, "Modify", set: ["Priority=1-Resolve Immediately"], at: "2099-01-01 00:00:00")
        let future = try check(workspace)
        XCTAssertEqual(future.objects.map(describe), ["modified \(first) by lead"], future.stderr)
        XCTAssertTrue(future.stderr.contains("later than any time zone allows"), future.stderr)
        XCTAssertTrue(future.stderr.contains("2099-01-01 00:00:00"), future.stderr)

        try sim.act("alice", second, "Modify", set: ["Priority=1-Resolve Immediately"])
        let named = try check(workspace)
        XCTAssertEqual(named.objects.map(describe), ["modified \(second) by alice"], named.stderr)
        XCTAssertFalse(named.stderr.contains("later than any time zone allows"), "logged once: \(named.stderr)")

        try sim.act("alice", third, "Modify")  // a note, in the history only
        XCTAssertEqual(try check(workspace).objects.map(describe), ["modified \(third) by alice"])
        XCTAssertEqual(try check(workspace).stdout, "", "nothing twice, the 2099 entry included")
    }

    /// A future entry already there at the first poll does not set the window either; and a checkpoint an earlier
    /// version stored in 2099 is dropped: the window is measured again from the newest plausible entry.
    /// State kept before identical entries were numbered held one key for two identical entries, both reported
    /// then: after the upgrade the second is not reported again.
    func test_upgradeFromStateWithoutNumberedKeys_reportsNoIdenticalEntryAgain() throws {
        let sim = try Simulator(["--records", "80"])
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try check(workspace).stdout, "", "the baseline is silent")
        try sim.post("/ccmweb/sim/clock", body: #"{"hold": 1}"#)
        try sim.act("lead", first, "Modify")
        try sim.act("lead", first, "Modify")
        XCTAssertEqual(try check(workspace).objects.map(describe), ["modified \(first) by lead"])
        try sim.post("/ccmweb/sim/clock", body: #"{"hold": 0}"#)

        // As the version before numbering left it: one key for both, and its mark.
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("DELETE FROM seen_history WHERE occurrence > 1")
            db.execute("UPDATE meta SET value = 'zone-independent' WHERE key = 'history_window'")
            db.commit()
            """
        let downgraded = try runProduct("/usr/bin/python3", ["-c", script, stateDatabase(workspace)])
        XCTAssertEqual(downgraded.status, 0, downgraded.stderr)
        XCTAssertEqual(try check(workspace).stdout, "", "the second identical entry was reported already")
        try sim.act("alice", second, "Modify", set: ["Priority=1-Resolve Immediately"])
        XCTAssertEqual(try check(workspace).objects.map(describe), ["modified \(second) by alice"])
    }

    func test_futureEntryBeforeTheBaseline_andAStoredFutureCheckpoint_areRecoveredFrom() throws {
        let sim = try Simulator(["--records", "80"])
        let workspace = try Workspace(serverURL: sim.url)
        try sim.act("lead", first, "Modify", at: "2099-01-01 00:00:00")
        XCTAssertEqual(try check(workspace).stdout, "", "the baseline is silent")
        try sim.act("alice", second, "Modify")
        XCTAssertEqual(try check(workspace).objects.map(describe), ["modified \(second) by alice"])

        // As an earlier version left it after reading the 2099 entry.
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE watch_state SET checkpoint = '2099-01-01 00:00:00' WHERE watch = 'assigned'")
            db.commit()
            """
        let database = stateDatabase(workspace)
        let broken = try runProduct("/usr/bin/python3", ["-c", script, database])
        XCTAssertEqual(broken.status, 0, broken.stderr)
        try sim.act("alice", third, "Modify")
        let recovered = try check(workspace)
        XCTAssertEqual(recovered.objects.map(describe), ["modified \(third) by alice"], recovered.stderr)
        XCTAssertTrue(recovered.stderr.contains("stored history checkpoint is later"), recovered.stderr)
        let read = "import sqlite3, sys; "
            + "print(sqlite3.connect(sys.argv[1]).execute(\"SELECT checkpoint FROM watch_state\").fetchone()[0])"
        let stored = try runProduct("/usr/bin/python3", ["-c", read, database])
        XCTAssertFalse(stored.stdout.hasPrefix("2099"), "back with the plausible entries: \(stored.stdout)")
        XCTAssertEqual(try check(workspace).stdout, "", "nothing twice")
    }
}
