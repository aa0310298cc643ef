import Foundation
import SystemdIntegration
import XCTest

/// A hostile server's text — error messages and headlines with terminal escapes (OSC title change, CSI as
/// ESC [ and as the C1 character U+009B), a right-to-left override and line breaks of every kind — reaches no
/// control channel raw: not sd_notify, and not the terminal through any command's stdout or stderr, the stream
/// log of `run` outside systemd included. Every output is checked byte by byte.
final class HostileTextTests: XCTestCase {
    /// Each line break kind is followed by a line that must never start a line of output.
    static let hostile = "Crash\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\u{202E}desab\nFAKE1 trackwatch: all good"
        + "\r\nFAKE2\u{2028}FAKE3\u{2029}FAKE4\u{85}FAKE5\u{0B}FAKE6\u{0C}FAKE7\rFAKE8"

    // MARK: - sd_notify

    /// Item 1, at the one place that sends: whatever a caller passes, one `STATUS=` line arrives, cleaned and
    /// bounded.
    func test_sdNotify_statusIsOneCleanBoundedLine_whateverTheCallerPasses() throws {
        let socket = try NotifySocket()
        setenv("NOTIFY_SOCKET", socket.path, 1)
        defer { unsetenv("NOTIFY_SOCKET") }
        SystemdNotify().status("Last poll failed: denied\nWATCHDOG=trigger\u{2028}STATUS=spoofed\u{85}READY=1\u{1B}[2J")
        SystemdNotify().status(String(repeating: "é", count: 5_000))
        XCTAssertNotNil(socket.waitFor(timeout: 5) { $0.hasPrefix("STATUS=éé") })
        XCTAssertEqual(socket.messages.first, "STATUS=Last poll failed: denied WATCHDOG=trigger STATUS=spoofed READY=1[2J")
        XCTAssertEqual(socket.messages.count, 2, "one line per datagram: \(socket.messages)")
        let long = socket.messages[1]
        XCTAssertLessThanOrEqual(long.utf8.count - "STATUS=".count, SystemdNotify.maximumValueBytes)
        XCTAssertTrue(long.hasSuffix("é…"), "cut at a character boundary, marked")
    }

    /// Item 1, end to end: the JSON `message` of the login's 401 holds `\nWATCHDOG=trigger\nSTATUS=spoofed`; the
    /// daemon reports the failure in STATUS=, and neither assignment reaches the socket.
    func test_daemon_loginMessage_cannotAddSdNotifyAssignments() throws {
        let sim = try Simulator()
        try sim.inject("status", on: "POST /authenticate", count: 1_000, status: 401,
                       message: "denied\nWATCHDOG=trigger\nSTATUS=spoofed")
        let workspace = try Workspace(serverURL: sim.url)
        let notify = try NotifySocket()
        let daemon = try workspace.startDaemon(notify: notify)
        defer { if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() } }
        let status = notify.waitFor { $0.hasPrefix("STATUS=Last poll") }
        XCTAssertTrue(status?.contains("rejected the login") == true, "\(notify.messages)")
        daemon.terminate()
        daemon.waitUntilExit()
        _ = notify.waitFor(timeout: 0.5) { _ in false }
        XCTAssertFalse(notify.messages.contains { $0.hasPrefix("WATCHDOG=trigger") || $0.hasPrefix("STATUS=spoofed") },
                       "server text became an sd_notify assignment: \(notify.messages)")
    }

    // MARK: - The terminal

    /// Item 2: `check` (text and JSON, verbose, failing), `log`, `status`, `doctor`, and `run` outside systemd.
    func test_everyCommand_printsServerTextAsOneLiteralLine() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0, "baseline")
        try sim.act("lead", "SAMPL00000001", "Modify", set: ["Headline=\(Self.hostile)"])

        var outputs: [(String, RunResult)] = []
        let json = try workspace.trackwatch(["check", "--json"])
        XCTAssertTrue(json.stdout.contains("SAMPL00000001") && json.stdout.contains("\\u202e"), "JSON keeps the data, escaped: \(json.stdout)")
        outputs.append(("check --json", json))
        try sim.act("lead", "SAMPL00000021", "Modify", set: ["Headline=\(Self.hostile)"])
        let changes = try workspace.trackwatch(["check", "-v"])
        XCTAssertEqual(changes.status, 0, changes.stderr)
        XCTAssertTrue(changes.stdout.contains("SAMPL00000021") && changes.stdout.contains("FAKE8"), changes.stdout)
        XCTAssertTrue(
            changes.stderr.contains("endpoint=ad-hoc query") && changes.stderr.contains("status=200"),
            "check -v shows each request (the README says so): \(changes.stderr)")
        outputs.append(("check -v", changes))
        for arguments in [["log"], ["log", "--json"]] {
            outputs.append((arguments.joined(separator: " "), try workspace.trackwatch(arguments)))
        }

        // Failures: the server's error message on stderr, then in the stored status.
        // 502: a failure (a 500 from POST /query would make the client log in again and fall back to stored queries).
        try sim.inject("status", on: "POST /query", status: 502, message: Self.hostile)
        let failed = try workspace.trackwatch(["check", "-v"])
        XCTAssertEqual(failed.status, 69, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("FAKE8"), "the message is shown: \(failed.stderr)")
        outputs.append(("failing check -v", failed))
        for arguments in [["status"], ["status", "--json"]] {
            let status = try workspace.trackwatch(arguments)
            XCTAssertTrue(status.stdout.contains("FAKE8"), status.stdout)
            outputs.append((arguments.joined(separator: " "), status))
        }
        try sim.inject("status", on: "POST /authenticate", count: 1, status: 401, message: Self.hostile)
        let doctor = try runProduct("trackwatch", ["doctor", "--config", workspace.configPath], environment: workspace.environment)
        XCTAssertTrue(doctor.stdout.contains("FAKE8"), doctor.stdout)
        outputs.append(("doctor", doctor))

        // The daemon outside systemd logs to stderr: a change's sentence and a failed poll's error.
        try sim.act("lead", "SAMPL00000005", "Modify", set: ["Headline=\(Self.hostile)"])
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try workspace.startDaemon(notify: notify, stdout: stderr, stderr: stderr)
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains("1 change") }, "\(notify.messages)")
        try sim.inject("status", on: "POST /query", count: 1, status: 502, message: Self.hostile)
        kill(daemon.processIdentifier, SIGUSR1)
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains("failed") }, "\(notify.messages)")
        daemon.terminate()
        daemon.waitUntilExit()
        let log = stderr.fileHandleForReading.readDataToEndOfFile()
        XCTAssertTrue(String(decoding: log, as: UTF8.self).contains("SAMPL00000005"), String(decoding: log, as: UTF8.self))
        outputs.append(("run", RunResult(status: 0, stdout: "", stderr: "", rawStdout: Data(), rawStderr: log)))

        for (command, result) in outputs {
            Self.assertLiteral(result.rawStdout, "\(command): stdout")
            Self.assertLiteral(result.rawStderr, "\(command): stderr")
        }
    }

    /// Issue 20, item 12: every line a command prints or the daemon logs is bounded, whatever the server sends — a
    /// 1,707-character headline changed (before: printed twice in one line, "Headline: old → new"), and one
    /// character carrying 100,000 combining accents (before: a 200 KB line).
    func test_everyLine_isBounded_whateverTheValues() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0, "baseline")
        let long = workspace.directory.appendingPathComponent("long")
        try Data(String(repeating: "Crash on save ", count: 122).prefix(1_707).utf8).write(to: long)
        let zalgo = workspace.directory.appendingPathComponent("zalgo")
        try Data(("Z" + String(repeating: "\u{0301}", count: 100_000)).utf8).write(to: zalgo)
        try sim.act("lead", "SAMPL00000001", "Modify", setFile: ["Headline=\(long.path)"])
        try sim.act("lead", "SAMPL00000005", "Modify", setFile: ["Headline=\(zalgo.path)"])
        let checked = try workspace.trackwatch(["check"])
        XCTAssertEqual(checked.lines.count, 2, checked.stdout.prefix(300) + "")
        try sim.act("lead", "SAMPL00000001", "Modify", setFile: ["Headline=\(zalgo.path)"])
        try sim.act("lead", "SAMPL00000005", "Modify", setFile: ["Headline=\(long.path)"])
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try workspace.startDaemon(notify: notify, stdout: stderr, stderr: stderr)
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains("2 changes") }, "\(notify.messages)")
        daemon.terminate()
        daemon.waitUntilExit()
        let logged = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(logged.contains("SAMPL00000001") && logged.contains("SAMPL00000005"), String(logged.prefix(500)))
        for (what, text) in [("check", checked.stdout), ("run", logged), ("log", try workspace.trackwatch(["log"]).stdout)] {
            for line in text.split(separator: "\n") {
                XCTAssertLessThanOrEqual(line.count, 2_000, "\(what): a line of \(line.count) characters")
                XCTAssertLessThanOrEqual(line.unicodeScalars.count, 8_000, "\(what): a line of \(line.unicodeScalars.count) scalars")
            }
        }
    }

    /// Valid UTF-8 with no ESC, no C1 (U+009B among them), no bidirectional control, no control character but the
    /// line feed, and no line that begins with the hostile text's fake lines.
    static func assertLiteral(_ bytes: Data, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(bytes.contains(0x1B), "\(what): ESC", file: file, line: line)
        XCTAssertFalse(zip(bytes, bytes.dropFirst()).contains { $0 == 0xC2 && $1 == 0x9B }, "\(what): U+009B (CSI)", file: file, line: line)
        XCTAssertNil(bytes.firstRange(of: Data([0xE2, 0x80, 0xAE])), "\(what): U+202E", file: file, line: line)
        guard let text = String(data: bytes, encoding: .utf8) else {
            return XCTFail("\(what): not UTF-8", file: file, line: line)
        }
        let controls = text.unicodeScalars.filter {
            $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value) || [0x2028, 0x2029, 0x200E, 0x200F, 0x061C].contains($0.value)
                || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value))
        }
        XCTAssertEqual(controls.map { String($0.value, radix: 16) }, [], "\(what): control characters", file: file, line: line)
        let fake = text.split(separator: "\n").filter { $0.hasPrefix("FAKE") }
        XCTAssertEqual(fake, [], "\(what): a fake line", file: file, line: line)
    }

}
