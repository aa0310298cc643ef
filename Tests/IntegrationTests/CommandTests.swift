import Foundation
import TestSupport
import XCTest

/// log, mute/unmute, doctor, notify-test and the completion scripts, as people run them.
final class CommandTests: XCTestCase {
    func test_log_showsPastChanges_filtered_andAsJSON() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0)
        try sim.act("lead", "SAMPL00000001", "Resolve")
        try sim.act("alice", "SAMPL00000005", "Modify", set: ["Priority=1-Resolve Immediately"])
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0)

        let all = try workspace.trackwatch(["log"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertEqual(all.lines.count, 2, all.stdout)
        XCTAssertTrue(all.lines.allSatisfy { $0.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d  SAMPL"#, options: .regularExpression) != nil }, all.stdout)
        let one = try workspace.trackwatch(["log", "--record", "SAMPL00000001", "--since", "1d", "--json"])
        XCTAssertEqual(one.objects.map { $0["record"] as? String }, ["SAMPL00000001"], one.stdout)
        XCTAssertEqual(one.objects.first?["kind"] as? String, "modified")
        XCTAssertNotNil(one.objects.first?["detected"] as? String)
        XCTAssertEqual(try workspace.trackwatch(["log", "--since", "2999-01-01"]).stdout, "", "nothing after a future date")
        // One change detected two days ago (rewritten in the store, as if it had been): durations count back from now.
        let database = workspace.environment["XDG_STATE_HOME"]! + "/trackwatch/state.sqlite"
        let aged = try runProduct("/usr/bin/python3", ["-c", """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE changes SET detected_at = ? WHERE record_id = 'SAMPL00000001'", (time.time() - 2 * 86400,))
            db.commit()
            """, database])
        XCTAssertEqual(aged.status, 0, aged.stderr)
        XCTAssertEqual(try workspace.trackwatch(["log", "--since", "1d", "--json"]).objects.map { $0["record"] as? String }, ["SAMPL00000005"])
        XCTAssertEqual(try workspace.trackwatch(["log", "--since", "47h"]).lines.count, 1)
        XCTAssertEqual(try workspace.trackwatch(["log", "--since", "3d"]).lines.count, 2)
        XCTAssertEqual(try workspace.trackwatch(["log", "--limit", "1"]).lines.count, 1)
        let bad = try workspace.trackwatch(["log", "--since", "yesterday"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("expected a duration such as 30m"), bad.stderr)
    }

    func test_muteAndUnmute_fromTheCommandLine() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try workspace.trackwatch(["mute", "SAMPL00000001"]).status, 0)
        XCTAssertTrue(try workspace.trackwatch(["mute"]).stdout.contains("SAMPL00000001  muted since"))
        XCTAssertEqual(try workspace.trackwatch(["unmute", "SAMPL00000001"]).stdout, "SAMPL00000001 unmuted\n")
        XCTAssertEqual(try workspace.trackwatch(["unmute", "SAMPL00000001"]).stdout, "SAMPL00000001 was not muted\n")
        XCTAssertEqual(try workspace.trackwatch(["mute"]).stdout, "")
        XCTAssertEqual(try workspace.trackwatch(["mute", "SAMPL00000001\u{1B}[2J"]).status, 64, "no control characters")
    }

    func test_doctor_onABrokenSetup_saysWhatIsWrongAndHowToFixIt() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let password = workspace.directory.appendingPathComponent("password")

        // No desktop either: no session bus, and (in the workspace's own XDG directories) no unit.
        let noBus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"]
        try Data("wrong\n".utf8).write(to: password)
        var doctor = try runProduct("trackwatch", ["doctor", "--config", workspace.configPath],
                                    environment: workspace.environment.merging(noBus) { _, new in new })
        XCTAssertEqual(doctor.status, 1)
        XCTAssertTrue(doctor.stdout.contains("✔ configuration"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("✔ password source (password_file"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("✘ login as engineer and the query \"assigned to me\": Compass rejected the login"), doctor.stdout)
        let state = workspace.environment["XDG_STATE_HOME"]! + "/trackwatch"
        XCTAssertTrue(doctor.stdout.contains("⚠ state directory \(state) has no state yet"), doctor.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: state), "doctor changes nothing: it created no state")
        XCTAssertTrue(doctor.stdout.contains("✘ no session bus (unix:path=/nonexistent/bus)\n    fix: run trackwatch in your desktop session"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains(FileManager.default.fileExists(atPath: "/run/systemd/journal/socket")
            ? "✔ journal socket /run/systemd/journal/socket" : "✘ no journal socket at /run/systemd/journal/socket"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("✘ user unit trackwatch.service not installed\n    fix: make install"), doctor.stdout)

        try Data("engineer\n".utf8).write(to: password)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0)
        doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("✔ state database \(state)/state.sqlite"), doctor.stdout)
        try Data("wrong\n".utf8).write(to: password)

        chmod(password.path, 0o644)
        doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("✘ password_file \(password.path): refusing password_file \(password.path): it can "
            + "be read by others (mode 644), so another user could read your password or token. Run: chmod 600"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("    fix: chmod 600 \(password.path)\n"), doctor.stdout)
        XCTAssertFalse(doctor.stdout.contains("✔ password_file"), "not passed first, then refused: \(doctor.stdout)")
        XCTAssertTrue(doctor.stdout.contains("· skipped: secret and server of"), doctor.stdout)

        chmod(password.path, 0o600)
        try Data("engineer\n".utf8).write(to: password)
        workspace.serverURL = "http://127.0.0.1:9"  // discard port: nothing listens
        try workspace.writeConfig()
        doctor = try workspace.trackwatch(["doctor"])
        XCTAssertEqual(doctor.status, 1)
        XCTAssertTrue(doctor.stdout.contains("✘ login as engineer and the query \"assigned to me\": Cannot reach Compass"), doctor.stdout)

        try Data("[server]\nurl = 5\n".utf8).write(to: URL(fileURLWithPath: workspace.configPath))
        doctor = try workspace.trackwatch(["doctor"])
        XCTAssertEqual(doctor.status, 1)
        XCTAssertTrue(doctor.stdout.contains("✘ configuration \(workspace.configPath): \(workspace.configPath):2: server.url: expected a string"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("    fix: "), doctor.stdout)
    }

    func test_doctorAndNotifyTest_seeTheNotificationServer() throws {
        let bus = try SessionBus.shared.get()
        try bus.startNotificationServer(capabilities: "body body-markup actions")
        defer { bus.stopServers() }
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let environment = workspace.environment.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { _, new in new }

        let doctor = try runProduct("trackwatch", ["doctor", "--config", workspace.configPath], environment: environment)
        XCTAssertTrue(doctor.stdout.contains("✔ session bus \(bus.address)"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("✔ notification server mock-notify 1.0 (test vendor)"), doctor.stdout)
        XCTAssertFalse(doctor.stdout.contains("no action buttons"), doctor.stdout)

        try bus.clearCalls()
        let test = try runProduct("trackwatch", ["notify-test"], environment: environment)
        XCTAssertTrue(test.stdout.contains("✔ bubble shown by mock-notify 1.0"), test.stdout)
        // The journal half is read back by the end-to-end test, which has a journald; here there may be none.
        let journald = FileManager.default.fileExists(atPath: "/run/systemd/journal/socket")
        XCTAssertEqual(test.status, journald ? 0 : 69, test.stdout + test.stderr)
        XCTAssertTrue(test.stdout.contains(journald ? "✔ journal entry written" : "✘ journal entry not written: "), test.stdout)
        let calls = try bus.waitForNotifyCalls(1)
        XCTAssertEqual(calls.map(\.summary),
                       ["SAMPL00000042: \u{2068}trackwatch test: this is how a change looks\u{2069}"])
        XCTAssertEqual(calls.first?.body.hasPrefix("Resolved by \u{2068}trackwatch\u{2069} · "), true)

        bus.stopServers()
        let none = try runProduct("trackwatch", ["notify-test"], environment: environment)
        XCTAssertEqual(none.status, 69, none.stdout)
        XCTAssertTrue(none.stdout.contains("✘ no notification server answered"), none.stdout)
    }

    func test_help_describesEveryCommand() throws {
        let help = try runProduct("trackwatch", ["--help"])
        XCTAssertEqual(help.status, 0)
        for command in ["check", "run", "status", "log", "mute", "unmute", "doctor", "notify-test"] {
            XCTAssertTrue(help.stdout.contains("  \(command) "), "--help lacks \(command): \(help.stdout)")
            let sub = try runProduct("trackwatch", [command, "--help"])
            XCTAssertEqual(sub.status, 0, command)
            XCTAssertTrue(sub.stdout.contains("USAGE: trackwatch \(command)"), sub.stdout)
        }
        XCTAssertTrue(try runProduct("trackwatch", ["log", "--help"]).stdout.contains("--since <when>"))
    }

    func test_completionScripts_coverEveryCommand() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try runProduct("trackwatch", ["--generate-completion-script", shell])
            XCTAssertEqual(script.status, 0)
            for command in ["check", "run", "status", "log", "mute", "unmute", "doctor", "notify-test"] {
                XCTAssertTrue(script.stdout.contains(command), "\(shell) completion lacks \(command)")
            }
        }
    }
}
