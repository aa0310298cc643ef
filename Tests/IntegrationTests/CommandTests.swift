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
        XCTAssertEqual(try workspace.trackwatch(["mute", "not an id; rm -rf"]).status, 64)
    }

    func test_doctor_onABrokenSetup_saysWhatIsWrongAndHowToFixIt() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let password = workspace.directory.appendingPathComponent("password")

        try Data("wrong\n".utf8).write(to: password)
        var doctor = try workspace.trackwatch(["doctor"])
        XCTAssertEqual(doctor.status, 1)
        XCTAssertTrue(doctor.stdout.contains("✔ configuration"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("✔ password source (password_file"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("✘ login as engineer and the query \"assigned to me\": Compass rejected the login"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("✔ state directory"), doctor.stdout)

        chmod(password.path, 0o644)
        doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("can be read or written by others (mode 644); refusing to use it. Run: chmod 600"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("· skipped: server login"), doctor.stdout)

        chmod(password.path, 0o600)
        try Data("engineer\n".utf8).write(to: password)
        workspace.serverURL = "http://127.0.0.1:9"  // discard port: nothing listens
        try workspace.writeConfig()
        doctor = try workspace.trackwatch(["doctor"])
        XCTAssertEqual(doctor.status, 1)
        XCTAssertTrue(doctor.stdout.contains("✘ login as engineer and the query \"assigned to me\": Cannot reach Compass"), doctor.stdout)

        try Data("[server]\nurl = 5\n".utf8).write(to: URL(fileURLWithPath: workspace.configPath))
        doctor = try workspace.trackwatch(["doctor"])
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
        XCTAssertEqual(test.status, 0, test.stdout + test.stderr)
        XCTAssertTrue(test.stdout.contains("✔ bubble shown by mock-notify 1.0"), test.stdout)
        let calls = try bus.waitForNotifyCalls(1)
        XCTAssertEqual(calls.map(\.summary), ["SAMPL00000042 resolved by trackwatch"])

        bus.stopServers()
        let none = try runProduct("trackwatch", ["notify-test"], environment: environment)
        XCTAssertEqual(none.status, 69, none.stdout)
        XCTAssertTrue(none.stdout.contains("✘ no notification server answered"), none.stdout)
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
