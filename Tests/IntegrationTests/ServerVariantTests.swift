import Foundation
import XCTest

/// The server variants a real Compass may have and no public sample settles (shared/compass-api.md §7.1): the
/// history's time zone and timestamp format, row limits, and paging that stored queries ignore. Each is a
/// compass-sim switch; under each, and under the combinations that interact, every colleague's change is
/// reported exactly once — none lost, none made up — through `trackwatch check` over real HTTP.
final class ServerVariantTests: XCTestCase {
    /// Records of engineer's (owner rule in compass-sim): 1 Opened, 5 Assigned, 13 Resolved, 21 Opened.
    private let first = "SAMPL00000001", second = "SAMPL00000005", third = "SAMPL00000021"

    /// A baseline, then a colleague's Resolve, then another colleague's Priority change, then a third change
    /// after a pause: each reported once, by the right person, and nothing else ever.
    private func assertEachChangeOnce(
        _ arguments: [String], pageSize: Int? = nil, between: ((Simulator) throws -> Void)? = nil, verbose: Bool = false,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [RunResult] {
        let label = arguments.joined(separator: " ")
        let sim = try Simulator(["--records", "80"] + arguments)
        let workspace = try Workspace(serverURL: sim.url)
        if let pageSize {
            workspace.extraPollLines = ["page_size = \(pageSize)"]
            try workspace.writeConfig()
        }
        let check = { () throws -> RunResult in try workspace.trackwatch(["check", "--json"] + (verbose ? ["-v"] : [])) }
        var runs: [RunResult] = []
        let baseline = try check()
        runs.append(baseline)
        XCTAssertEqual(baseline.status, 0, "\(label): \(baseline.stderr)", file: file, line: line)
        XCTAssertEqual(baseline.stdout, "", "\(label): the baseline is silent", file: file, line: line)

        try sim.act("lead", first, "Resolve")
        let resolved = try check()
        runs.append(resolved)
        XCTAssertEqual(resolved.status, 0, "\(label): \(resolved.stderr)", file: file, line: line)
        XCTAssertEqual(resolved.objects.map(describe), ["modified \(first) by lead"], "\(label): \(resolved.stderr)", file: file, line: line)

        try between?(sim)
        try sim.act("alice", second, "Modify", set: ["Priority=1-Resolve Immediately"])
        let modified = try check()
        runs.append(modified)
        XCTAssertEqual(modified.status, 0, "\(label): \(modified.stderr)", file: file, line: line)
        XCTAssertEqual(modified.objects.map(describe), ["modified \(second) by alice"], "\(label): \(modified.stderr)", file: file, line: line)
        let fields = (modified.objects.first?["changes"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
        XCTAssertEqual(fields, ["Priority"], "\(label): the field change comes with it", file: file, line: line)

        let quiet = try check()
        runs.append(quiet)
        XCTAssertEqual(quiet.status, 0, "\(label): \(quiet.stderr)", file: file, line: line)
        XCTAssertEqual(quiet.stdout, "", "\(label): nothing twice", file: file, line: line)
        try sim.act("lead", third, "Modify", set: ["Severity=1-Critical"])
        let later = try check()
        runs.append(later)
        XCTAssertEqual(later.objects.map(describe), ["modified \(third) by lead"], "\(label): \(later.stderr)", file: file, line: line)
        return runs
    }

    /// Logging in with another name than the one Compass keeps (an e-mail or directory login): my own edit is
    /// still mine, and a colleague's is still reported by name.
    func test_loginNameOtherThanTheUserName_myOwnEditStaysSilent() throws {
        let alias = "engineer@example.com"
        let sim = try Simulator(["--login-alias", "\(alias)=engineer"])
        let workspace = try Workspace(serverURL: sim.url)
        workspace.user = alias
        try workspace.writeConfig()
        try Data("engineer\n".utf8).write(to: URL(fileURLWithPath: workspace.passwordFile))  // the account's password
        let baseline = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(baseline.status, 0, baseline.stderr)
        try sim.act("engineer", first, "Modify", set: ["Priority=1-Resolve Immediately"])
        try sim.act("lead", second, "Modify", set: ["Severity=1-Critical"])
        let after = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertEqual(after.objects.map(describe), ["modified \(second) by lead"], after.stderr)
    }

    private func describe(_ object: [String: Any]) -> String {
        "\(object["kind"] as? String ?? "?") \(object["record"] as? String ?? "?") by \(object["by"] as? String ?? "nobody")"
    }

    // MARK: - Issue 11 item 1 and 2: the history's zone and format

    /// The server at UTC−7, UTC+0 and UTC+9:30, its history stored in local time or in UTC, a filter read in
    /// either, and every timestamp format: the 10-minute window of before was blind for hours (−7) or reported old
    /// entries again (+9:30); the zone-independent window is neither.
    func test_historyZoneAndFormat_everyCombination_reportsEachChangeOnce() throws {
        let formats = ["sql", "iso-offset", "us", "iso-z", "sql-fraction", "iso", "iso-fraction-offset"]
        var index = 0
        for zone in ["-07:00", "+00:00", "+09:30"] {
            for (storage, filter) in [("local", "as-stored"), ("local", "utc"), ("utc", "local"), ("utc", "as-stored")] {
                let format = formats[index % formats.count]
                index += 1
                _ = try assertEachChangeOnce([
                    "--server-zone=\(zone)", "--history-time", storage, "--filter-time", filter, "--timestamp-format", format,
                ])
            }
        }
    }

    /// Seconds to add to the simulator's clock so that it reads `utc` (`yyyy-MM-dd HH:mm:ss`) now.
    private func clockOffset(to utc: String) throws -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let target = try XCTUnwrap(formatter.date(from: utc))
        return "--clock-offset=\(Int(target.timeIntervalSinceNow))"
    }

    /// US Mountain time falling back at 2025-11-02 02:00 MDT: a checkpoint taken at 01:4x MDT is ahead of every
    /// entry of the hour after it (01:0x MST). The window must still return them.
    func test_fallBack_entriesOfTheRepeatedHour_areReportedOnce() throws {
        let mountain = "MST7MDT,M3.2.0,M11.1.0"
        for (storage, filter) in [("local", "as-stored"), ("local", "utc"), ("utc", "local")] {
            // 07:40 UTC = 01:40 MDT; after the first change, 40 minutes on: 08:20 UTC = 01:20 MST.
            _ = try assertEachChangeOnce(
                ["--server-zone", mountain, "--history-time", storage, "--filter-time", filter,
                 try clockOffset(to: "2025-11-02 07:40:00")],
                between: { sim in try sim.post("/ccmweb/sim/clock", body: #"{"advance": 2400}"#) })
        }
    }

    /// The same zone springing forward at 2025-03-09 02:00 MST: the wall clock skips an hour, and a filter read in
    /// local time moves by an hour against timestamps in UTC.
    func test_springForward_isReportedOnce() throws {
        let mountain = "MST7MDT,M3.2.0,M11.1.0"
        for (storage, filter) in [("local", "as-stored"), ("utc", "local"), ("local", "utc")] {
            // 08:50 UTC = 01:50 MST; then 20 minutes on: 09:10 UTC = 03:10 MDT.
            _ = try assertEachChangeOnce(
                ["--server-zone", mountain, "--history-time", storage, "--filter-time", filter,
                 try clockOffset(to: "2025-03-09 08:50:00")],
                between: { sim in try sim.post("/ccmweb/sim/clock", body: #"{"advance": 1200}"#) })
        }
    }

    // MARK: - Item 3: row limits

    /// An administrator's limit of 5 rows (engineer has 16 records and dozens of history rows), `recordCount`
    /// counted before or after the cut, on both query paths: the whole set is read in id-ordered batches, and
    /// no record is ever reported as no longer assigned.
    func test_rowLimit_everyVariant_readsTheWholeSetInBatches() throws {
        for path in [[], ["--no-adhoc-query"]] {
            for count in ["after", "before"] {
                let runs = try assertEachChangeOnce(path + ["--row-limit", "5", "--limited-count", count], verbose: true)
                XCTAssertTrue(runs[0].stderr.contains("the server limits query results") && runs[0].stderr.contains("limit=5"),
                              "logged for the probe: \(runs[0].stderr)")
            }
        }
    }

    // MARK: - Item 4: paging on the stored-query path

    /// A server whose stored-query pages ignore `pageNumber` (page 2 repeats page 1), with pages of 4: detected,
    /// and read through the CSV route; without it on one page large enough, or where the server caps pages, in
    /// id-ordered batches of one page each; combined with a row limit and with `recordCount` counted before the cut.
    func test_storedPagingIgnored_isDetected_andReadAnotherWay() throws {
        let ignoring = ["--no-adhoc-query", "--ignore-stored-page-number"]
        let variants: [(arguments: [String], route: String)] = [
            (ignoring, "reading rows as CSV"),
            (ignoring + ["--no-csv"], "reading the query on one page"),
            (ignoring + ["--no-csv", "--page-size-cap", "6"], "reading the query in id-ordered batches"),
            (ignoring + ["--page-size-cap", "3"], "reading rows as CSV"),
            (ignoring + ["--row-limit", "6", "--limited-count", "before", "--no-csv"], "reading the query in id-ordered batches"),
            (ignoring + ["--row-limit", "6", "--limited-count", "after"], "reading the query in id-ordered batches"),
        ]
        for variant in variants {
            let runs = try assertEachChangeOnce(variant.arguments, pageSize: 4, verbose: true)
            XCTAssertTrue(runs[0].stderr.contains(variant.route), "\(variant.arguments): \(runs[0].stderr)")
        }
    }

    /// A limited `[[watch]]` cannot be narrowed by id (the query is the user's): it fails with the limit and what
    /// to do, reports no exit, and the built-in queries go on.
    func test_limitedWatch_failsNamingTheLimit_andReportsNoExit() throws {
        let sim = try Simulator(["--records", "80", "--row-limit", "30"])
        let workspace = try Workspace(serverURL: sim.url)
        workspace.trailer = "[[watch]]\nquery = \"Public Queries/All Defects\"\n"
        try workspace.writeConfig()
        for _ in 0..<2 {
            let check = try workspace.trackwatch(["check", "--json"])
            XCTAssertEqual(check.status, 78, check.stderr)
            XCTAssertTrue(check.stderr.contains("matches more records than the 30 the server returns at once; narrow the query"),
                          check.stderr)
            XCTAssertFalse(check.stdout.contains("no longer in"), check.stdout)
        }
        try sim.act("lead", first, "Resolve")
        let check = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(check.objects.map(describe), ["modified \(first) by lead"], "the built-in watch goes on: \(check.stderr)")
    }

    /// State kept by a version with the 10-minute window: its seen keys were pruned at checkpoint − 10 min. The
    /// first poll with the wide window returns hours of entries it dealt with; none is reported again, and the
    /// next change is.
    func test_stateFromTheNarrowWindow_isMigratedWithoutReportingOldEntriesAgain() throws {
        let sim = try Simulator(["--records", "80", "--activity", "4"])  // colleagues' entries over the last 30 h
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0)
        try sim.act("lead", first, "Resolve")
        XCTAssertEqual(try workspace.trackwatch(["check", "--json"]).objects.map(describe), ["modified \(first) by lead"])
        // As the narrow window left it: no version marker, seen keys only from checkpoint − 10 min on.
        let database = workspace.environment["XDG_STATE_HOME"]! + "/trackwatch/state.sqlite"
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            (checkpoint,) = db.execute("SELECT checkpoint FROM watch_state WHERE watch = 'assigned'").fetchone()
            db.execute("DELETE FROM meta WHERE key = 'history_window'")
            db.execute("DELETE FROM seen_history WHERE timestamp < datetime(?, '-10 minutes')", (checkpoint,))
            db.commit()
            print(db.execute("SELECT count(*) FROM seen_history").fetchone()[0])
            """
        let kept = try runProduct("/usr/bin/python3", ["-c", script, database])
        XCTAssertEqual(kept.status, 0, kept.stderr)
        XCTAssertLessThan(Int(kept.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 99, 3, "little is left seen")
        let migrated = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        XCTAssertEqual(migrated.stdout, "", "nothing old reported again")
        try sim.act("alice", second, "Modify", set: ["Priority=1-Resolve Immediately"])
        XCTAssertEqual(try workspace.trackwatch(["check", "--json"]).objects.map(describe), ["modified \(second) by alice"])
    }
}
