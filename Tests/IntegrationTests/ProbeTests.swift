import CompassClient
import Foundation
import TrackerHTTP
import TestSupport
import XCTest

/// `trackwatch probe` against compass-sim in its server variants (issue 11, "a probe the user can run against
/// their real server"): each variant must be named as what it is, and the probe must stay read-only, log in once
/// and leave no stored query behind.
final class ProbeTests: XCTestCase {
    /// Runs `probe` against a compass-sim started with `arguments`, after lead made a fresh history entry on
    /// engineer's SAMPL00000001 (so that the zone can be told).
    private func probe(
        _ arguments: [String], probeArguments: [String] = [], file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> (result: RunResult, sim: Simulator) {
        let sim = try Simulator(arguments)
        try sim.act("lead", "SAMPL00000001", "Resolve")
        let workspace = try Workspace(serverURL: sim.url)
        let loginsBefore = try sim.stats()["logins"] as? Int ?? -1
        let result = try workspace.trackwatch(["probe"] + probeArguments)
        let stats = try sim.stats()
        XCTAssertEqual(
            stats["logins"] as? Int, loginsBefore + 1, "one login, never more: \(result.stdout)", file: file, line: line
        )
        XCTAssertEqual(
            try sim.storedQueryNames(), [], "the probe's stored queries are deleted again", file: file, line: line)
        return (result, sim)
    }

    private func assertLine(
        _ result: RunResult, _ prefix: String, _ fragment: String, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertTrue(
            result.lines.contains { $0.hasPrefix(prefix) && $0.contains(fragment) },
            "no line \(prefix) …\(fragment)… in:\n\(result.stdout)\(result.stderr)", file: file, line: line)
    }

    func test_defaultServer_everythingWorks_exit0() throws {
        let (result, _) = try probe([])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertFalse(result.stdout.contains("✘"), result.stdout)
        assertLine(result, "✔", "logged in as engineer to 2.0.0/SAMPL")
        assertLine(result, "✔", "personal: \"Personal Queries\"")
        assertLine(result, "✔", "ad-hoc queries (POST …/query) run")
        assertLine(result, "✔", "read page by page")
        assertLine(result, "✔", "paging: 6 records on pages of 2, no page repeated")
        assertLine(result, "✔", "no row limit reported")
        assertLine(result, "✔", "history timestamps: sql (")
        assertLine(result, "✔", "history zone: entries are stored in UTC if the newest was made just now")
        assertLine(result, "✔", "no cookies set")
        assertLine(result, "✔", "a logged-off token is refused with HTTP 401")
        assertLine(result, "✔", "plain http:// on this machine")
    }

    func test_noAdHocQuery_storedPathNamedWithTheRefusal() throws {
        let (definitive, _) = try probe(["--no-adhoc-query", "--adhoc-refusal", "405"])
        XCTAssertEqual(definitive.status, 0, definitive.stdout + definitive.stderr)
        assertLine(
            definitive, "✔",
            "POST …/query refused with HTTP 405: no ad-hoc queries; "
                + "trackwatch stores its two queries in \"Personal Queries\""
        )
        assertLine(definitive, "✔", "paging: 6 records on pages of 2")

        // A refusal with 500 looks like a refused token too: the probe reports it and never logs in again (the
        // helper asserts one login), which would leave its first session open.
        let (failing, _) = try probe(["--no-adhoc-query", "--adhoc-refusal", "500"])
        XCTAssertEqual(failing.status, 0, failing.stdout + failing.stderr)
        assertLine(failing, "⚠", "POST …/query refused with HTTP 500")

        let (html, _) = try probe(["--no-adhoc-query", "--adhoc-refusal", "html"])
        XCTAssertEqual(html.status, 0, html.stdout + html.stderr)
        assertLine(
            html, "⚠", "POST …/query refused with an HTML page (HTTP 200): no ad-hoc queries (or a passing fault)")
        assertLine(html, "    then:", "asks for /query again every hour")
    }

    func test_historyZoneAndUSTimestamps_namedAsSeen() throws {
        let (us, _) = try probe(["--server-zone=-07:00", "--history-time", "local", "--timestamp-format", "us"])
        XCTAssertEqual(us.status, 0, us.stdout + us.stderr)
        assertLine(us, "✔", "history timestamps: us (")
        assertLine(us, "✔", "history zone: entries are stored in UTC−7 if the newest was made just now")

        let (offset, _) = try probe([
            "--server-zone", "+09:30", "--history-time", "local", "--timestamp-format", "iso-offset",
        ])
        XCTAssertEqual(offset.status, 0, offset.stdout + offset.stderr)
        assertLine(offset, "✔", "history timestamps: iso-offset (")
        assertLine(offset, "✔", "history zone: entries name their zone")
    }

    func test_rowLimit_namedWithWhatTrackwatchDoes() throws {
        let (result, _) = try probe(["--row-limit", "3"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        assertLine(
            result, "⚠",
            "the server limits query results to 3 rows (resultSetIsLimited); "
                + "its recordCount counts the rows after the cut"
        )
        assertLine(result, "✔", "query \"assigned to me\": 8 records, read in id-ordered batches")
        XCTAssertFalse(result.stdout.contains("✘"), result.stdout)

        let (before, _) = try probe(["--row-limit", "3", "--limited-count", "before", "--no-adhoc-query"])
        XCTAssertEqual(before.status, 0, before.stdout + before.stderr)
        assertLine(
            before, "⚠",
            "limits query results to 3 rows (resultSetIsLimited); its recordCount (8) counts the rows before the cut")
        assertLine(before, "✔", "query \"assigned to me\": 8 records, read in id-ordered batches")
    }

    /// The probe reads one history row with `maxResultSetRows = 1`; a server that reports the limit that cut the
    /// result (as HCL documents `resultSetIsLimited`) answers 1. That cut is the probe's own: no ⚠ about a row
    /// limit, whatever `recordCount` counts (issue 20, item 2).
    func test_probesOwnCut_isNeverCalledAServerLimit() throws {
        for variant in [[], ["--limited-count", "before"], ["--no-adhoc-query", "--limited-count", "before"]] {
            let sim = try Simulator(variant)
            for record in ["SAMPL00000001", "SAMPL00000002", "SAMPL00000003"] { try sim.act("lead", record, "Resolve") }
            let workspace = try Workspace(serverURL: sim.url)
            let result = try workspace.trackwatch(["probe"])
            XCTAssertEqual(result.status, 0, "\(variant): \(result.stdout)\(result.stderr)")
            assertLine(result, "✔", "no row limit reported (resultSetIsLimited)")
            XCTAssertFalse(result.stdout.contains("limits query results"), "\(variant): \(result.stdout)")
            assertLine(result, "✔", "history timestamps: sql (")
        }
    }

    /// A server whose `resultSetIsLimited` is the documented example's 0/1 flag answers the probe's own capped
    /// reads (six rows in the paging check, one history row) with 1, and may count `recordCount` before the cut.
    /// Those cuts are the probe's: no "limits query results to 1 rows", and paging still checked (issue 27, item 9).
    func test_limitedAsFlag_probesOwnCut_isNotAServerLimit() throws {
        for variant in [["--limited-flag"], ["--limited-flag", "--limited-count", "before"],
                        ["--limited-flag", "--limited-count", "before", "--no-adhoc-query"]] {
            let (result, _) = try probe(variant)
            XCTAssertEqual(result.status, 0, "\(variant): \(result.stdout)\(result.stderr)")
            XCTAssertFalse(result.stdout.contains("limits query results"), "\(variant): \(result.stdout)")
            XCTAssertFalse(result.stdout.contains("✘"), "\(variant): \(result.stdout)")
            assertLine(result, "✔", "no row limit reported (resultSetIsLimited)")
            assertLine(result, "⚠", "resultSetIsLimited is a flag here: 1 for the probe's own cut at 6 rows")
            assertLine(result, "✔", "paging: 8 records on pages of 3, no page repeated")
            assertLine(result, "✔", "history timestamps: sql (")
        }
    }

    func test_severalServers_eachProbed_orTheOneNamed() throws {
        let prod = try Simulator(), test = try Simulator(["--refused-token-status", "500"])
        let workspace = try Workspace(serverURL: prod.url)
        func profile(_ name: String, _ url: String) -> String {
            "[[server]]\nname = \"\(name)\"\nurl = \"\(url)\"\nrepo = \"2.0.0\"\ndatabase = \"SAMPL\"\n"
                + "username = \"engineer\"\n"
                + "password_file = \"\(workspace.passwordFile)\"\ntimeout = \"5s\"\n\n"
        }
        workspace.customConfig = profile("prod", prod.url) + profile("test", test.url)
        try workspace.writeConfig()
        let both = try workspace.trackwatch(["probe"])
        XCTAssertEqual(both.status, 0, both.stdout + both.stderr)
        XCTAssertEqual(
            both.lines.filter { $0.hasPrefix("server ") }, ["server prod (\(prod.url))", "server test (\(test.url))"])
        assertLine(both, "⚠", "a logged-off token is refused with HTTP 500, not 401")

        let path = workspace.directory.appendingPathComponent("test.json").path
        let one = try workspace.trackwatch(["probe", "--server", "test", "--save", path])
        XCTAssertEqual(one.status, 0, one.stdout + one.stderr)
        XCTAssertEqual(one.lines.filter { $0.hasPrefix("server ") }, ["server test (\(test.url))"])
        XCTAssertEqual(try prod.stats()["logins"] as? Int, 1, "prod is not asked again")
        let document =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        XCTAssertEqual((document?["note"] as? [String: Any])?["server"] as? String, "test")
    }

    func test_pagingIgnoredOnTheStoredPath_namedWithTheRouteUsed() throws {
        let (result, _) = try probe(["--no-adhoc-query", "--ignore-stored-page-number"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        assertLine(result, "⚠", "page 2 repeated page 1: the server ignores pageNumber on the stored path")
        assertLine(result, "    then:", "as one CSV file (…/file?fileType=csv), which works here")

        let (noCSV, _) = try probe(["--no-adhoc-query", "--ignore-stored-page-number", "--no-csv"])
        XCTAssertEqual(noCSV.status, 0, noCSV.stdout + noCSV.stderr)
        assertLine(noCSV, "⚠", "page 2 repeated page 1: the server ignores pageNumber on the stored path")
        assertLine(
            noCSV, "    then:", "on one large page or in id-ordered batches (the CSV file route does not work here)")
    }

    func test_germanFolders_personalFolderNamed() throws {
        let (result, _) = try probe(["--no-adhoc-query", "--folder-language", "de"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        assertLine(result, "⚠", "personal: \"Persönliche Abfragen\" (not the English name)")
        assertLine(result, "✔", "trackwatch stores its two queries in \"Persönliche Abfragen\"")
    }

    func test_tokenRefusedWith403_named() throws {
        let (result, _) = try probe(["--refused-token-status", "403"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        assertLine(result, "⚠", "a logged-off token is refused with HTTP 403, not 401")
    }

    func test_replicas_cookieNamesShownWithoutValues() throws {
        let (result, _) = try probe(["--replicas", "2"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        assertLine(result, "✔", "cookies set: TWSIMROUTE (kept for the session; values not shown)")
        XCTAssertFalse(result.stdout.contains("TWSIMROUTE="), result.stdout)
    }

    func test_loginRefused_exit77_unreachable_exit69_unknownProfile_exit78() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        try Data("wrong\n".utf8).write(to: URL(fileURLWithPath: workspace.passwordFile))
        let transcript = workspace.directory.appendingPathComponent("refused.json").path
        let refused = try workspace.trackwatch(["probe", "--save", transcript])
        XCTAssertEqual(refused.status, 77, refused.stdout + refused.stderr)
        let saved = try String(contentsOfFile: transcript, encoding: .utf8)
        XCTAssertTrue(
            saved.contains("\"status\" : 401") && !saved.contains("wrong"), "what happened is still saved: \(saved)")
        assertLine(refused, "✘", "rejected the login (HTTP 401")
        XCTAssertEqual(try sim.stats()["logins"] as? Int, 0)

        let closed = try Workspace(serverURL: "http://127.0.0.1:9")
        let unreachable = try closed.trackwatch(["probe"])
        XCTAssertEqual(unreachable.status, 69, unreachable.stdout + unreachable.stderr)

        let unknown = try workspace.trackwatch(["probe", "--server", "nope"])
        XCTAssertEqual(unknown.status, 78, unknown.stdout + unknown.stderr)
    }

    func test_personalAccessToken_noLogin_noSessionToEnd_tokenNotSaved() throws {
        let secret = "pat-for-the-probe-7f3a9c"
        let sim = try Simulator(["--pat", "engineer=\(secret)"])
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.usePersonalAccessToken(secret)
        let path = workspace.directory.appendingPathComponent("pat.json").path
        let result = try workspace.trackwatch(["probe", "--save", path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        assertLine(result, "·", "token refusal not checked: a personal access token has no session to log off")
        assertLine(result, "✔", "paging: 6 records on pages of 2")
        XCTAssertEqual(try sim.stats()["logins"] as? Int, 0)
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertFalse(saved.contains(secret), "the personal access token leaked")
        XCTAssertTrue(saved.contains("Basic <removed>"), "its scheme is kept")
    }

    // MARK: - The transcript

    func test_savedTranscript_keepsTimestampsAndStatuses_removesSecretsAndRecordText() throws {
        let password = "Probe-Pa55word-for-the-transcript"
        let sim = try Simulator(["--password", "engineer=\(password)", "--replicas", "2"])
        try sim.act("lead", "SAMPL00000001", "Resolve")
        let workspace = try Workspace(serverURL: sim.url)
        try Data("\(password)\n".utf8).write(to: URL(fileURLWithPath: workspace.passwordFile))
        // A server that plants what it received where a transcript keeps the protocol: a JSON key, headers.
        let planted = ["Server": "Planted/1.0 (\(password))", "X-Planted": password, password: "1"]
        try sim.inject("extra-key", on: "POST /authenticate", headers: planted, message: password)
        let path = workspace.directory.appendingPathComponent("transcript.json").path
        let result = try workspace.trackwatch(["probe", "--save", path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)

        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "the transcript is private")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let text = String(decoding: data, as: UTF8.self)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], "valid JSON")
        let exchanges = try XCTUnwrap(document["exchanges"] as? [[String: Any]])
        XCTAssertGreaterThan(exchanges.count, 8, "the whole exchange, in order")

        // Secrets: the password, every token compass-sim issued, cookie values.
        XCTAssertFalse(text.contains(password), "password leaked")
        XCTAssertFalse(text.contains("Planted"), "an unknown Server header, and unknown header names, are hashed")
        let tokensResponse = try AsyncHTTPTransport().sendWaiting(
            HTTPRequest(method: .get, url: sim.url + "/ccmweb/sim/tokens", timeout: 10))
        let tokens = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(tokensResponse.body)) as? [String])
        XCTAssertFalse(tokens.isEmpty)
        for token in tokens {
            XCTAssertFalse(text.contains(token), "a token leaked")
            for part in token.split(separator: ".") where part.count > 8 {
                XCTAssertFalse(text.contains(part), "a part of a token leaked")
            }
        }
        XCTAssertTrue(text.contains("\"claims\""), "the token reduced to its claim names")
        XCTAssertTrue(text.contains("TWSIMROUTE=<removed>"), "cookie names kept, values removed")
        XCTAssertTrue(text.contains("Bearer <removed>"))

        // Record text: headlines, user names (the login's too), record ids, repository and database names.
        for secret in [
            "Crash on save", "Bold", "Save as", "engineer", "lead", "SAMPL0000", "Normal Queue", "High Attention",
            "Opened", "127.0.0.1",
            "2.0.0",
        ] {
            XCTAssertFalse(text.contains(secret), "\(secret) is in the transcript")
        }

        // Kept: statuses, timestamps, the API's path words, JSON keys, the query's own column names.
        let statuses = exchanges.compactMap { ($0["response"] as? [String: Any])?["status"] as? Int }
        XCTAssertTrue(statuses.contains(200) && statuses.contains(201), "\(statuses)")
        XCTAssertTrue(statuses.contains(401), "the logged-off token's refusal: \(statuses)")
        XCTAssertNotNil(
            text.range(of: #"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"#, options: .regularExpression), "a history timestamp")
        for kept in [
            "/ccmweb/rest/authenticate", "/query", "pageNumber=2", "result_set_id", "history.action_timestamp",
            "Content-Type",
        ] {
            XCTAssertTrue(text.contains(kept), "\(kept) is missing from the transcript")
        }
        let first = try XCTUnwrap(exchanges.first?["request"] as? [String: Any])
        XCTAssertEqual(first["method"] as? String, "POST")
        XCTAssertEqual((first["url"] as? String).map { $0.hasSuffix("/ccmweb/rest/authenticate") }, true, "\(first)")
    }
}
