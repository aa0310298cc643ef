import Foundation
import TestSupport
import XCTest

/// `trackwatch run` with a GitHub source, through a real notification server: a bubble per change, Open into
/// GitHub, the server's `X-Poll-Interval` honoured, and the probe's transcript free of secrets.
final class GitHubDaemonTests: XCTestCase {
    private var bus: SessionBus!

    override func setUpWithError() throws {
        bus = try SessionBus.shared.get()
        try bus.startNotificationServer(capabilities: "body body-markup actions")
    }

    override func tearDown() {
        bus?.stopServers()
        super.tearDown()
    }

    func test_aBubble_opensTheItemOnGitHub_andThePollIntervalTheServerAsksForIsHonoured() throws {
        let sim = try GitHubSim(["--poll-interval", "120"])
        let workspace = try Workspace(serverURL: sim.url)
        let opened = try workspace.recordOpens()
        try workspace.useGitHub(sim)
        let notify = try NotifySocket()
        let daemon = try workspace.startDaemon(notify: notify, stderr: Pipe(), bus: bus)
        defer { stopAndWait(daemon) }
        let first = notify.waitFor { $0.hasPrefix("STATUS=Last poll") }
        XCTAssertTrue(first?.contains("the server asked for 120 s") == true, first ?? "\(notify.messages)")
        try bus.clearCalls()

        try sim.act("alice", "assign", "acme/web#2", "engineer")
        notify.poll(daemon, expecting: "1 change;")
        let calls = try bus.notifyCalls()
        XCTAssertEqual(calls.count, 1)
        XCTAssertTrue(calls.first?.summary.hasPrefix("acme/web#2: ") == true, calls.first?.summary ?? "")
        XCTAssertTrue(calls.first?.body.contains("alice") == true, calls.first?.body ?? "")
        XCTAssertEqual(try openFirstBubble(on: bus, recordedIn: opened), "\(sim.url)/acme/web/issues/2\n")

        let transcript = workspace.directory.appendingPathComponent("probe.json")
        let probe = try workspace.trackwatch(["probe", "--save", transcript.path])
        XCTAssertEqual(probe.status, 0, probe.stdout + probe.stderr)
        let saved = try String(contentsOf: transcript, encoding: .utf8)
        XCTAssertTrue(saved.contains("/search/issues"), saved)
        XCTAssertFalse(saved.contains("ghp_sim_engineer"), "no token in the transcript")
        XCTAssertFalse(saved.contains("acme/web"), "no repository in the transcript")
    }

    /// Issue 36, item 9: one answer of `X-Poll-Interval: 3600` held the source for an hour. The next poll waits at
    /// most 15 minutes, whatever the server asks.
    func test_anHourlyPollInterval_holdsTheNextPollAtMostFifteenMinutes() throws {
        let sim = try GitHubSim(["--poll-interval", "3600"])
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useGitHub(sim)
        let notify = try NotifySocket()
        let daemon = try workspace.startDaemon(notify: notify, stderr: Pipe(), bus: bus)
        defer { stopAndWait(daemon) }
        let first = notify.waitFor { $0.hasPrefix("STATUS=Last poll") }
        XCTAssertTrue(first?.contains("the server asked for 900 s") == true, first ?? "\(notify.messages)")
    }

    /// Issue 36, item 8: a rate limit that holds the source (403 with `X-RateLimit-Remaining: 0`, five polls in a row,
    /// past the 10 s interval) is said once, with the next try, and its end as an outage's end is; before, nobody was
    /// ever told, however long it lasted. The short limits of `JSONDaemonTests` and `QaseDaemonTests` stay silent.
    func test_aRateLimitThatHolds_isSaidOnce_withTheNextTry_andItsEnd() throws {
        let sim = try GitHubSim()
        let workspace = try Workspace(serverURL: sim.url)
        workspace.extraPollLines = ["first_retry = \"1s\""]
        try workspace.useGitHub(sim)
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try workspace.startDaemon(notify: notify, stderr: stderr, bus: bus)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try bus.clearCalls()

        try sim.act("alice", "assign", "acme/web#2", "engineer")
        try sim.fault("rateLimit", on: "GET /issues", count: 5, retryAfter: 2)
        notify.poll(daemon, expecting: "limiting")
        XCTAssertNotNil(
            notify.waitFor(timeout: 60) { $0.hasPrefix("STATUS=Last poll") && $0.contains("1 change;") },
            "reported once the limit ends: \(notify.messages)")
        let summaries = try bus.notifyCalls().map(\.summary)
        let limited = summaries.filter { $0.hasPrefix("GitHub is rate-limiting trackwatch; next try ") }
        XCTAssertEqual(limited.count, 1, "said once: \(summaries)")
        XCTAssertEqual(limited.first?.count, "GitHub is rate-limiting trackwatch; next try 10:42".count, "\(limited)")
        XCTAssertEqual(summaries.filter { $0 == "Connected to GitHub again" }.count, 1, "its end: \(summaries)")
        XCTAssertTrue(summaries.last?.hasPrefix("acme/web#2: ") == true, "then the change: \(summaries)")

        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(log.contains("GitHub is rate-limiting trackwatch; next try "), "and in the log: \(log)")
    }
}
