import Foundation
import TrackerHTTP
import XCTest

/// A hostile server's numbers and words at the protocol level (issue 12, items 1 and 4): no number it sends can
/// trap, and its error text reaches people as one clean, bounded line.
final class HostileHeaderTests: XCTestCase {
    func test_hugeRetryAfterOnTheLoginAnswer_neitherCrashesCheckNorRun() throws {
        for value in ["9223372036854775807", "99999999999999999999999999", "Sun, 06 Nov 999999999999 08:49:37 GMT"] {
            let sim = try Simulator()
            let workspace = try Workspace(serverURL: sim.url)
            try sim.inject("status", on: "POST /authenticate", count: 1, status: 503, headers: ["Retry-After": value])
            let check = try workspace.trackwatch(["check"])
            XCTAssertEqual(check.status, 69, "\(value): an outage, not a crash (132): \(check.stderr)")
            if value.hasPrefix("Sun") {
                XCTAssertFalse(
                    check.stderr.contains("retry after"), "a date past the year 9999 is no date: \(check.stderr)")
            } else {
                XCTAssertTrue(
                    check.stderr.contains("it asked to retry after 86400 s"), "clamped to a day: \(check.stderr)")
            }
        }
    }

    func test_hugeRetryAfter_daemonKeepsRunning_andPollsAgain() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        try sim.inject(
            "status", on: "POST /authenticate", count: 1, status: 503, headers: ["Retry-After": "9223372036854775807"])
        let notify = try NotifySocket()
        let process = try workspace.startDaemon(notify: notify)
        defer { if process.isRunning { process.terminate() } }
        XCTAssertNotNil(
            notify.waitFor { $0.hasPrefix("STATUS=") && $0.contains("503") }, "the failed poll: \(notify.messages)")
        XCTAssertTrue(process.isRunning, "no trap on the hostile header")
        kill(process.processIdentifier, SIGUSR1)
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") }, "it polls again: \(notify.messages)")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func test_serverMessageWithControlCharacters_isOneCleanBoundedLine() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let hostile =
            "bad\nWATCHDOG=trigger\r\u{1B}]0;pwned\u{07}\u{1B}[31m red \u{85}next\u{202E}desrever\u{2028}end "
            + String(repeating: "x", count: 5_000)
        try sim.inject("status", on: "POST /authenticate", count: 1, status: 401, message: hostile)
        let check = try workspace.trackwatch(["check"])
        XCTAssertEqual(check.status, 77, check.stderr)
        let lines = check.stderr.split(separator: "\n").map(String.init)
        XCTAssertFalse(lines.contains { $0.hasPrefix("WATCHDOG") }, "no line of the server's making: \(lines)")
        let line = lines.first { $0.contains("rejected the login") } ?? ""
        XCTAssertFalse(
            line.unicodeScalars.contains {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E || $0.value == 0x2028
            },
            "no control, C1 or bidi characters: \(line.debugDescription)")
        XCTAssertTrue(line.contains("bad WATCHDOG=trigger ]0;pwned[31m red nextdesrever end xxx"), line)
        XCTAssertLessThan(line.count, 700, "bounded: \(line.count) characters")
    }
}

/// Mistakes in the configuration that the server's answers reveal (issue 14): said as what they are.
final class WrongServerSettingsTests: XCTestCase {
    func test_httpsURLOnAPlainHTTPPort_saysTheServerDoesNotSpeakTLS() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url.replacingOccurrences(of: "http://", with: "https://"))
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 78, result.stderr)
        XCTAssertTrue(result.stderr.contains("The server does not speak TLS on this port"), result.stderr)
        XCTAssertTrue(result.stderr.contains("use http:// or the HTTPS port"), result.stderr)
        XCTAssertFalse(result.stderr.contains("ca_file"), "no misleading remedy: \(result.stderr)")
    }

    func test_wrongDatabaseOrRepository_saysWhich_andListsWhatTheServerHas() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.writeConfig()
        let text = try String(contentsOfFile: workspace.configPath, encoding: .utf8)
        try text.replacingOccurrences(of: "database = \"SAMPL\"", with: "database = \"SAMPLX\"")
            .write(toFile: workspace.configPath, atomically: true, encoding: .utf8)
        let database = try workspace.trackwatch(["check"])
        XCTAssertEqual(database.status, 78, database.stderr)
        XCTAssertTrue(
            database.stderr.contains(
                "Repository or database not found: the repository \"2.0.0\" has no database \"SAMPLX\" (it has SAMPL). "
                    + "Check repo and database in [server]."),
            database.stderr)

        try text.replacingOccurrences(of: "repo = \"2.0.0\"", with: "repo = \"9.9.9\"")
            .write(toFile: workspace.configPath, atomically: true, encoding: .utf8)
        let repository = try workspace.trackwatch(["check"])
        XCTAssertEqual(repository.status, 78, repository.stderr)
        XCTAssertTrue(
            repository.stderr.contains("the server has no repository \"9.9.9\" (it has 2.0.0)"), repository.stderr)
        XCTAssertEqual(try sim.stats()["loginFailures"] as? Int, 0, "no failed login counted against the account")
    }

    func test_aURLWhereEverythingIsMissing_isNotTakenForAMissingRepository() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url + "/elsewhere")
        try workspace.writeConfig()
        let result = try workspace.trackwatch(["check"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertFalse(result.stderr.contains("Repository or database not found"), result.stderr)
        XCTAssertTrue(result.stderr.contains("HTTP 404"), result.stderr)
    }

    func test_wrongDatabase_withAPersonalAccessToken_isFoundOnTheWorkspaceToo() throws {
        let sim = try Simulator(["--pat", "engineer=pat-1"])
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.usePersonalAccessToken("pat-1", database: "NOPE")
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 78, result.stderr)
        XCTAssertTrue(result.stderr.contains("has no database \"NOPE\" (it has SAMPL)"), result.stderr)
    }
}
