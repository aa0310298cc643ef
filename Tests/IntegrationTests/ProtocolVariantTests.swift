import Foundation
import XCTest

/// Compass servers that differ from compass-sim's defaults where the documentation leaves things open
/// (issue 11, items 5, 6, 7, 9 and 10): each variant is a compass-sim switch, and `trackwatch check` reports the
/// same colleague's change, once, under each.
final class ProtocolVariantTests: XCTestCase {
    /// A baseline, then lead resolves engineer's SAMPL00000001: reported once, as `modified`.
    private func assertReportsAColleaguesChangeOnce(
        _ sim: Simulator, _ workspace: Workspace, _ label: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let baseline = try workspace.trackwatch(["check"])
        XCTAssertEqual(baseline.status, 0, "\(label): \(baseline.stderr)", file: file, line: line)
        try sim.act("lead", "SAMPL00000001", "Resolve")
        let changed = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(changed.status, 0, "\(label): \(changed.stderr)", file: file, line: line)
        let builtIn = changed.objects.filter { $0["watch"] is NSNull || $0["watch"] == nil }
        XCTAssertEqual(
            builtIn.map { $0["record"] as? String }, ["SAMPL00000001"], "\(label): \(changed.stdout)", file: file,
            line: line)
        XCTAssertEqual(builtIn.map { $0["kind"] as? String }, ["modified"], label, file: file, line: line)
        let again = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(again.status, 0, "\(label): \(again.stderr)", file: file, line: line)
        XCTAssertEqual(again.stdout, "", "\(label): reported once", file: file, line: line)
    }

    // MARK: - Item 5: localized root folders

    func test_germanRootFolders_personalFolderFoundByWhatItIs_andWatchPathsInEitherLanguage() throws {
        let sim = try Simulator(["--no-adhoc-query", "--folder-language", "de"])
        let workspace = try Workspace(serverURL: sim.url)
        workspace.trailer = """
            [[watch]]
            query = "Öffentliche Abfragen/Team P1s"
            [[watch]]
            query = "Public Queries/Triage/Critical"
            name = "Triage"
            """
        try workspace.writeConfig()
        let baseline = try workspace.trackwatch(["check"])
        XCTAssertEqual(baseline.status, 0, baseline.stderr)
        XCTAssertTrue(baseline.stdout.contains("Baseline: watching the query Team P1s"), baseline.stdout)
        XCTAssertTrue(
            baseline.stdout.contains("Baseline: watching the query Triage"),
            "the English name finds the German folder: \(baseline.stdout)")
        let stored = try sim.stats()["storedQueries"] as? [[String: Any]] ?? []
        XCTAssertEqual(stored.map { $0["folder"] as? String }, ["Persönliche Abfragen/engineer"], "\(stored)")
        try sim.act("lead", "SAMPL00000001", "Resolve")
        let changed = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(changed.status, 0, changed.stderr)
        XCTAssertTrue(
            changed.objects.contains {
                $0["record"] as? String == "SAMPL00000001" && $0["kind"] as? String == "modified"
            },
            changed.stdout)
    }

    func test_germanRootFolders_aWatchOnAPersonalQuery_isFoundUnderEitherName() throws {
        let sim = try Simulator(["--folder-language", "de"])
        try sim.storePersonalQuery(
            user: "engineer", password: "engineer", name: "Mine",
            filter: #"{"fieldPath":"Owner","compOp":"COMP_OP_EQ","values":["[CURRENT_USER]"]}"#)
        for path in ["Persönliche Abfragen/Mine", "Personal Queries/Mine"] {
            let workspace = try Workspace(serverURL: sim.url)
            workspace.trailer = "[[watch]]\nquery = \"\(path)\"\n"
            try workspace.writeConfig()
            let baseline = try workspace.trackwatch(["check"])
            XCTAssertEqual(baseline.status, 0, "\(path): \(baseline.stderr)")
            XCTAssertTrue(baseline.stdout.contains("Baseline: watching the query Mine"), "\(path): \(baseline.stdout)")
        }
    }

    // MARK: - Item 6: query names

    func test_serverRefusingColonsInQueryNames_storedQueriesStillWork() throws {
        let sim = try Simulator(["--no-adhoc-query", "--strict-query-names"])
        let workspace = try Workspace(serverURL: sim.url)
        try assertReportsAColleaguesChangeOnce(sim, workspace, "strict query names")
        XCTAssertEqual(try sim.storedQueryNames(), ["trackwatch assigned to me"], "the temporary history query is gone")
    }

    func test_upgrade_deletesTheQueriesEarlierVersionsStoredUnderOldNames() throws {
        let sim = try Simulator(["--no-adhoc-query"])
        // What an earlier trackwatch left in engineer's Personal Queries: its reused query, and a temporary one
        // a killed run never deleted.
        let filter = #"{"fieldPath":"Owner","compOp":"COMP_OP_EQ","values":["[CURRENT_USER]"]}"#
        for name in ["trackwatch: assigned to me", "trackwatch: modified by others"] {
            try sim.storePersonalQuery(user: "engineer", password: "engineer", name: name, filter: filter)
        }
        let workspace = try Workspace(serverURL: sim.url)
        try assertReportsAColleaguesChangeOnce(sim, workspace, "after an upgrade")
        XCTAssertEqual(try sim.storedQueryNames(), ["trackwatch assigned to me"], "nothing under the old names is left")
    }

    // MARK: - Item 7: servers without ad-hoc queries, however they refuse them

    func test_noAdHocQueries_refusedWithAnyStatusOrAnHTMLPage_storedQueriesAreUsed_andThePathIsLoggedOnce() throws {
        for refusal in ["400", "405", "500", "501", "html"] {
            let sim = try Simulator(["--no-adhoc-query", "--adhoc-refusal", refusal])
            let workspace = try Workspace(serverURL: sim.url)
            try assertReportsAColleaguesChangeOnce(sim, workspace, "refused with \(refusal)")
            let verbose = try workspace.trackwatch(["check", "-v"])
            XCTAssertEqual(verbose.status, 0, "\(refusal): \(verbose.stderr)")
            let announcements = verbose.stderr.split(separator: "\n").filter { $0.contains("query path") }
            XCTAssertEqual(announcements.count, 1, "logged once per process, not per query: \(verbose.stderr)")
            XCTAssertTrue(announcements.first?.contains("query_path=stored") == true, "\(refusal): \(announcements)")
            let expected = refusal == "html" ? "an HTML page (HTTP 200)" : "HTTP \(refusal)"
            XCTAssertTrue(
                announcements.first?.contains("adhoc_refused_with=\(expected)") == true, "\(refusal): \(announcements)")
        }
    }

    func test_eachProcessTriesAdHocQueriesAgain_butOnlyOnce() throws {
        let sim = try Simulator(["--no-adhoc-query", "--adhoc-refusal", "501"])
        let workspace = try Workspace(serverURL: sim.url)
        for _ in 0..<3 { XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0) }
        let routes = try sim.stats()["requestsByRoute"] as? [String: Int] ?? [:]
        XCTAssertEqual(routes["POST /query"], 3, "one try per process, none for the second query: \(routes)")
    }

    func test_aFallbackThatFailsToo_failsThePollCleanly_andTheNextPollReportsOnce() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0)
        try sim.act("lead", "SAMPL00000001", "Resolve")
        // /query fails (before and after a new login), and so does the stored path it falls back to.
        try sim.inject("status", on: "POST /query", count: 2, status: 500)
        try sim.inject("status", on: "POST /workspace/queryDefs/{id}/resultsets", count: 1, status: 500)
        let failed = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(failed.status, 69, failed.stderr)
        XCTAssertEqual(failed.stdout, "", "a failed poll reports nothing")
        XCTAssertTrue(failed.stderr.contains("HTTP 500 to the result set request"), failed.stderr)
        let recovered = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(recovered.status, 0, recovered.stderr)
        XCTAssertEqual(recovered.objects.map { $0["record"] as? String }, ["SAMPL00000001"])
        XCTAssertEqual(try workspace.trackwatch(["check", "--json"]).stdout, "")
    }

    // MARK: - Item 9: sticky sessions

    func test_replicasRoutedByCookie_everyPageReachesTheReplicaHoldingTheResultSet() throws {
        for extra in [[], ["--no-adhoc-query"]] {
            let sim = try Simulator(["--replicas", "3", "--records", "80"] + extra)
            let workspace = try Workspace(serverURL: sim.url)
            workspace.extraPollLines = ["page_size = 4"]  // about 14 records assigned: four pages
            try workspace.writeConfig()
            try assertReportsAColleaguesChangeOnce(sim, workspace, "replicas \(extra)")
            let stats = try sim.stats()
            XCTAssertEqual(stats["replicaMisses"] as? Int, 0, "\(extra): \(stats)")
            let routes = stats["requestsByRoute"] as? [String: Int] ?? [:]
            let pages = routes.filter { $0.key.hasPrefix("GET") && $0.key.contains("{id}") }.values.reduce(0, +)
            XCTAssertGreaterThanOrEqual(pages, 12, "several pages per query were read: \(routes)")
        }
    }

    func test_cookiesOfOneServerProfile_neverReachAnother() throws {
        let first = try Simulator(["--replicas", "2"]), second = try Simulator(["--replicas", "2"])
        let workspace = try Workspace(serverURL: first.url)
        func profile(_ name: String, _ url: String) -> String {
            """
            [[server]]
            name = "\(name)"
            url = "\(url)"
            repo = "2.0.0"
            database = "SAMPL"
            username = "engineer"
            password_file = "\(workspace.passwordFile)"

            """
        }
        workspace.customConfig = profile("one", first.url) + profile("two", second.url) + "[poll]\npage_size = 3\n"
        try workspace.writeConfig()
        for _ in 0..<2 {
            let check = try workspace.trackwatch(["check"])
            XCTAssertEqual(check.status, 0, check.stderr)
        }
        for sim in [first, second] {
            let stats = try sim.stats()
            XCTAssertEqual(
                stats["foreignCookies"] as? Int, 0, "both servers are on 127.0.0.1, yet each jar is its own: \(stats)")
            XCTAssertEqual(stats["replicaMisses"] as? Int, 0, "\(stats)")
        }
    }

    // MARK: - Item 10: JSON media types on every request

    func test_serverRefusingRequestsWithoutJSONContentType_everyRequestIsAccepted() throws {
        for extra in [[], ["--no-adhoc-query"]] {
            let sim = try Simulator(["--require-json-content-type"] + extra)
            let workspace = try Workspace(serverURL: sim.url)
            try assertReportsAColleaguesChangeOnce(sim, workspace, "JSON media types \(extra)")
            XCTAssertEqual(try sim.stats()["refusedForMediaType"] as? Int, 0)
        }
    }
}
