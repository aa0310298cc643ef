import Foundation
import XCTest

/// `probe`, `doctor` and the token on a Qase source: what the server supports, said as such; the token nowhere
/// but in its file; "me" that does not exist is a configuration error that says so.
final class QaseProbeTests: XCTestCase {
    private let secret = "qase-Secret-Token-9f3e71"

    func test_probeAndDoctor_onTheDefaultServer_areAllGood() throws {
        let sim = try QaseSim()
        let workspace = try Workspace(serverURL: sim.apiURL)
        try workspace.useQase(sim, [#"projects = ["DEMO"]"#])
        let probe = try workspace.trackwatch(["probe"])
        XCTAssertEqual(probe.status, 0, probe.stdout + probe.stderr)
        for line in [
            "✔ the token is accepted; engineer@example.com is Eve Engineer (user 2, author 3)",
            "✔ watching 1 of the 2 projects the token can see: DEMO (Demo Project)",
            "✔ QQL search works", "✔ QQL finds defects by assignee", "✔ test-case reviews in DEMO",
            "✔ paging: limit above 100 is refused",
        ] {
            XCTAssertTrue(probe.stdout.contains(line), "\(line): \(probe.stdout)")
        }
        XCTAssertFalse(probe.stdout.contains("⚠") || probe.stdout.contains("✘"), probe.stdout)
        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("✔ API token of [[qase]] qase (token_file "), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("✔ QQL search works"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("sources/qase has no state yet"), doctor.stdout)
    }

    func test_anEmailNoQaseUserHas_isAConfigurationErrorThatSaysSo() throws {
        let sim = try QaseSim()
        let workspace = try Workspace(serverURL: sim.apiURL)
        try workspace.useQase(sim)
        let config = try String(contentsOfFile: workspace.configPath, encoding: .utf8)
        try config.replacingOccurrences(of: "engineer@example.com", with: "nobody@example.com")
            .write(toFile: workspace.configPath, atomically: false, encoding: .utf8)
        let check = try workspace.trackwatch(["check"])
        XCTAssertEqual(check.status, 78, check.stderr)
        XCTAssertTrue(check.stderr.contains("No Qase user has the e-mail nobody@example.com"), check.stderr)
        XCTAssertTrue(check.stderr.contains("Set email in [[qase]]"), check.stderr)
        let probe = try workspace.trackwatch(["probe"])
        XCTAssertEqual(probe.status, 78, probe.stdout)
    }

    /// Found by e-mail also where the author search matches names only.
    func test_meIsFound_whereAuthorSearchMatchesNamesOnly() throws {
        let sim = try QaseSim(["--author-search", "name"])
        let workspace = try Workspace(serverURL: sim.apiURL)
        try workspace.useQase(sim)
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try sim.act("lead", "assign-plan-case", "DEMO", "1", "4", "engineer")
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["DEMO/plan/1 assigned"])
    }

    /// A recognisable token goes in; it comes out nowhere: output, verbose logs, the probe's transcript, the
    /// state database, the daemon's command line and environment. A wrong token is exit 77, said as such.
    func test_theToken_neverLeavesMemory() throws {
        let sim = try QaseSim(["--token", "engineer=\(secret)"])
        let workspace = try Workspace(serverURL: sim.apiURL)
        try workspace.useQase(sim, token: secret)
        var seen: [String] = []
        for arguments in [["check", "-v"], ["check", "-v", "--json"], ["status", "--json"], ["doctor"], ["log"]] {
            let result = try workspace.trackwatch(arguments)
            seen += [result.stdout, result.stderr]
        }
        try sim.act("alice", "edit-case", "DEMO", "4", "title=Checkout totals")
        let transcript = workspace.directory.appendingPathComponent("probe.json")
        let probe = try workspace.trackwatch(["probe", "-v", "--save", transcript.path])
        XCTAssertEqual(probe.status, 0, probe.stdout + probe.stderr)
        seen += [probe.stdout, probe.stderr, try String(contentsOf: transcript, encoding: .utf8)]
        XCTAssertTrue(seen.last?.contains("\"route\" : \"/v1/review/{code}\"") == true, seen.last ?? "")

        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try workspace.startDaemon(notify: notify, stderr: stderr)
        XCTAssertNotNil(
            notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains("1 change") }, "\(notify.messages)")
        for file in ["cmdline", "environ"] {
            seen.append(
                String(
                    decoding: try Data(contentsOf: URL(fileURLWithPath: "/proc/\(daemon.processIdentifier)/\(file)")),
                    as: UTF8.self))
        }
        stopAndWait(daemon)
        seen.append(String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        let state = workspace.directory.appendingPathComponent("xdg-state/trackwatch/sources/qase")
        for name in try FileManager.default.contentsOfDirectory(atPath: state.path) {
            seen.append(String(decoding: try Data(contentsOf: state.appendingPathComponent(name)), as: UTF8.self))
        }
        XCTAssertTrue(seen.joined().contains("DEMO-4 edited by Alice Example"), "the run really reported the change")
        for (index, text) in seen.enumerated() {
            XCTAssertFalse(text.contains(secret), "the token leaked into output #\(index)")
            XCTAssertFalse(text.contains(String(secret.suffix(12))), "part of the token leaked into output #\(index)")
        }

        try Data("qase-not-the-token\n".utf8).write(to: workspace.directory.appendingPathComponent("qase-token"))
        let refused = try workspace.trackwatch(["check"])
        XCTAssertEqual(refused.status, 77, refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains("Qase rejected the API token (HTTP 401: API token is invalid)"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("qase-not-the-token"))
    }

    /// Every `fix:` line says the action itself, never "the message above" (issue 27, item 12).
    func test_doctor_anEmptyTokenFile_saysToPutTheTokenThere() throws {
        let sim = try QaseSim()
        let workspace = try Workspace(serverURL: sim.apiURL)
        try workspace.useQase(sim, token: "")
        let doctor = try workspace.trackwatch(["doctor"])
        let fix = try XCTUnwrap(doctor.lines.first { $0.hasPrefix("    fix:") && $0.contains("API token") }, doctor.stdout)
        XCTAssertTrue(fix.contains("put the API token alone on the first line of "), fix)
        XCTAssertTrue(fix.contains("Qase makes one under your profile, API tokens"), fix)
        XCTAssertFalse(doctor.stdout.contains("message above"), doctor.stdout)
    }
}
