import Foundation
import TrackerHTTP
import XCTest

/// `trackwatch run` against compass-sim: scheduling, signals, sd_notify and exactly-once reporting.
final class DaemonTests: XCTestCase {
    /// With a watchdog of 2 s, and no notification server: polls go on.
    private func startDaemon(_ workspace: Workspace, notify: NotifySocket, stderr: Pipe) throws -> Process {
        try workspace.startDaemon(notify: notify, stderr: stderr, environment: ["WATCHDOG_USEC": "2000000"])
    }

    func test_daemon_pollsOnScheduleAndOnSignals_reportsEachChangeOnce_andStopsCleanly() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try startDaemon(workspace, notify: notify, stderr: stderr)
        defer { stopAndWait(daemon) }

        XCTAssertNotNil(notify.waitFor { $0 == "READY=1" }, "READY=1 after config and store")
        let baseline = notify.waitFor { $0.hasPrefix("STATUS=Last poll") }
        XCTAssertNotNil(baseline, "the first poll runs at start: \(notify.messages)")
        XCTAssertTrue(baseline?.contains("0 changes; next ") == true, baseline ?? "")

        try sim.act("lead", "SAMPL00000001", "Resolve")
        notify.poll(daemon, expecting: "1 change;")

        notify.skipReceived()
        kill(daemon.processIdentifier, SIGUSR1)
        let again = notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains("0 changes") }
        XCTAssertNotNil(again, "reported once")
        XCTAssertFalse(baseline?.contains(" idle ") == true, "nothing waited before the first poll: \(baseline ?? "")")
        // What the daemon held while it waited before this poll, read from its own /proc.
        let idle = #"; idle [0-9]+\.[0-9] MB private, [0-9]+\.[0-9] MB PSS$"#
        XCTAssertNotNil(again?.range(of: idle, options: .regularExpression), again ?? "")
        XCTAssertNotNil(notify.waitFor { $0 == "WATCHDOG=1" }, "watchdog fed while idle")

        // A second daemon on the same state refuses to start.
        let second = try runProduct("trackwatch", ["run", "--config", workspace.configPath], environment: workspace.environment, timeout: 20)
        XCTAssertNotEqual(second.status, 0)
        XCTAssertTrue(second.stderr.contains("already using the state"), second.stderr)
        let check = try runProduct("trackwatch", ["check", "--config", workspace.configPath], environment: workspace.environment)
        XCTAssertEqual(check.status, 75, "check must not diff the daemon's snapshot behind its back: \(check.stderr)")

        // SIGHUP with a broken config keeps the old one; the daemon goes on.
        let good = try String(contentsOfFile: workspace.configPath, encoding: .utf8)
        try (good + "\nbogus = 1\n").write(toFile: workspace.configPath, atomically: false, encoding: .utf8)
        notify.skipReceived()
        kill(daemon.processIdentifier, SIGHUP)
        XCTAssertNotNil(notify.waitFor { $0 == "RELOADING=1" })
        XCTAssertNotNil(notify.waitFor { $0 == "READY=1" })
        try good.write(toFile: workspace.configPath, atomically: false, encoding: .utf8)
        try sim.act("lead", "SAMPL00000005", "Open")
        kill(daemon.processIdentifier, SIGUSR1)
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains("1 change;") }, "still polling after a bad reload")

        kill(daemon.processIdentifier, SIGTERM)
        XCTAssertNotNil(notify.waitFor { $0 == "STOPPING=1" })
        daemon.waitUntilExit()
        XCTAssertEqual(daemon.terminationStatus, 0)
        XCTAssertGreaterThanOrEqual(try sim.stats()["logoffs"] as? Int ?? 0, 1, "logged off on SIGTERM")
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(log.contains("configuration not reloaded"), log)
        XCTAssertEqual(log.components(separatedBy: "SAMPL00000001 resolved by lead").count - 1, 1, "journaled once: \(log)")
    }

    func test_outage_isAnnouncedOnceAfterThreeFailures_andRecoveryOnce() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try startDaemon(workspace, notify: notify, stderr: stderr)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try sim.inject("status", on: "POST /query", count: 4, status: 503)
        for attempt in 1...4 {
            notify.skipReceived()
            kill(daemon.processIdentifier, SIGUSR1)
            XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains("failed: Compass answered HTTP 503") },
                            "failure \(attempt): \(notify.messages)")
        }
        try sim.act("lead", "SAMPL00000001", "Resolve")
        notify.poll(daemon, expecting: "1 change;")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(log.components(separatedBy: "poll failed").count - 1, 4, log)
        XCTAssertEqual(log.components(separatedBy: "Compass is unavailable").count - 1, 1,
                       "told once, after the third, in words for an answer of 503: \(log)")
        XCTAssertEqual(log.components(separatedBy: "Connected to Compass again").count - 1, 1, log)
        XCTAssertEqual(log.components(separatedBy: "SAMPL00000001 resolved by lead").count - 1, 1, log)
    }

    func test_timerDrivenPoll_followsTheInterval() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)  // interval 10 s via extra line below
        let notify = try NotifySocket()
        let daemon = try startDaemon(workspace, notify: notify, stderr: Pipe())
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try sim.act("lead", "SAMPL00000001", "Resolve")
        notify.skipReceived()
        let started = Date()
        XCTAssertNotNil(notify.waitFor(timeout: 25) { $0.hasPrefix("STATUS=Last poll") && $0.contains("1 change;") })
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 5, "waited for the timer, not polled at once")
    }

    func test_failedPoll_isRetriedWithBackoff_honouringRetryAfter_beforeTheRegularPoll() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        workspace.interval = "10m"
        workspace.extraPollLines = ["first_retry = \"1s\""]
        try workspace.writeConfig()
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try startDaemon(workspace, notify: notify, stderr: stderr)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try sim.act("lead", "SAMPL00000001", "Resolve")
        try sim.inject("status", on: "POST /query", count: 2, status: 503)  // each with Retry-After: 2
        notify.skipReceived()
        let started = Date()
        kill(daemon.processIdentifier, SIGUSR1)
        // Two failures, each retried after max(backoff 1 s / 2 s, Retry-After 2 s): no signal, no 10-minute wait.
        XCTAssertNotNil(notify.waitFor(timeout: 20) { $0.hasPrefix("STATUS=Last poll") && $0.contains("1 change;") },
                        "\(notify.messages)")
        let waited = Date().timeIntervalSince(started)
        XCTAssertGreaterThan(waited, 3.5, "Retry-After: 2 honoured twice")
        XCTAssertLessThan(waited, 15, "retried well before the regular poll")
        let failures = notify.messages.filter { $0.contains("failed: Compass answered HTTP 503") }
        XCTAssertEqual(failures.count, 2, "\(notify.messages)")
        XCTAssertTrue(failures.allSatisfy { $0.contains("retry after 2 s") }, "\(failures)")
    }

    func test_rejectedLogin_isNotRetriedBeforeTheRegularPoll() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        workspace.user = "engineer"
        workspace.interval = "10m"
        workspace.extraPollLines = ["first_retry = \"1s\""]
        try workspace.writeConfig()
        try Data("wrong-password\n".utf8).write(to: workspace.directory.appendingPathComponent("password"))
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try startDaemon(workspace, notify: notify, stderr: stderr)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains("failed") }, "\(notify.messages)")
        // Wait on something that does happen: the watchdog pings keep coming for 4 s, and no login is tried.
        let deadline = Date().addingTimeInterval(4)
        while Date() < deadline { _ = notify.waitFor(timeout: 1) { $0 == "WATCHDOG=1" } }
        XCTAssertEqual(try sim.stats()["loginFailures"] as? Int, 1, "one attempt, then the regular schedule")
        // Two more polls (as the schedule would make them): each tries once, none repeats the announcement.
        for attempt in 2...3 {
            notify.poll(daemon, expecting: "failed")
            XCTAssertEqual(try sim.stats()["loginFailures"] as? Int, attempt)
        }
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(log.components(separatedBy: "] Compass refused the login\n").count - 1, 1, "told at once, once: \(log)")
        XCTAssertTrue(log.contains("Check username, repo, database and the password source"), log)
    }

    func test_brokenConfigAtStart_exits78_namingFileLineAndKey() throws {
        let workspace = try Workspace(serverURL: "http://127.0.0.1:9")
        workspace.interval = "5 minutes"
        try workspace.writeConfig()
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try startDaemon(workspace, notify: notify, stderr: stderr)
        daemon.waitUntilExit()
        XCTAssertEqual(daemon.terminationStatus, 78)
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(log.contains("\(workspace.configPath):10: poll.interval: expected a duration such as \"30s\""), log)
        XCTAssertFalse(notify.messages.contains("READY=1"), "never ready with a broken configuration")
    }
}
