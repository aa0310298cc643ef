import Foundation
import TestSupport
import XCTest

/// Issue 37, item 3: a credential that cannot be read stops only its own source. Before, a missing `token_file` of
/// one table made `check` poll nothing and `run` exit 77 for every source, naming no table. Now that source waits
/// for the fix, named with its table in `check`, `status`, `doctor`, the log and one outage bubble, while the others
/// are polled; it is made as soon as its credential can be read (at a poll, or at once on SIGHUP).
final class UnreadableCredentialTests: XCTestCase {
    private var sim: GitHubSim!
    private var workspace: Workspace!
    /// Where `[[github]] oss` reads its token: missing until a test writes it.
    private var missingToken: String!

    override func setUpWithError() throws {
        sim = try GitHubSim()
        workspace = try Workspace(serverURL: sim.url)
        missingToken = workspace.directory.appendingPathComponent("oss-token").path
        workspace.customConfig = """
            [[github]]
            name = "work"
            url = "\(sim.url)"
            token_file = "\(try workspace.secretFile("github-token", "ghp_sim_engineer"))"
            timeout = "\(workspace.timeout)"

            [[github]]
            name = "oss"
            url = "\(sim.url)"
            token_file = "\(missingToken!)"
            timeout = "\(workspace.timeout)"

            [poll]
            interval = "10m"
            """
        try workspace.writeConfig()
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    private var named: String { "[[github]] oss: token_file \(missingToken!): No such file or directory" }

    func test_check_pollsTheOtherSource_namesTheTable_andExits77AtTheEnd() throws {
        let first = try workspace.trackwatch(["check"])
        XCTAssertEqual(first.status, 77, first.stderr)
        XCTAssertTrue(first.stdout.hasPrefix("Baseline: watching "), "work took its baseline: \(first.stdout)")
        XCTAssertTrue(first.stderr.contains("trackwatch: \(named)"), first.stderr)

        try sim.act("alice", "assign", "acme/web#2", "engineer")
        let second = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(second.status, 77, second.stderr)
        XCTAssertEqual(changeSummaries(second.objects), ["acme/web#2 assigned"], second.stdout)
        XCTAssertEqual(second.objects.first?["source"] as? String, "work")

        let status = try workspace.trackwatch(["status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("Failing:      2 poll(s) in a row; last error: \(named)"), status.stdout)
        let json = try workspace.trackwatch(["status", "--json"]).objects
        let oss = json.first { $0["server"] as? String == "oss" }
        let work = json.first { $0["server"] as? String == "work" }
        XCTAssertEqual(oss?["consecutiveFailures"] as? Int, 2, "\(json)")
        XCTAssertEqual(oss?["lastPollOK"] as? Bool, false, "\(json)")
        XCTAssertEqual(oss?["lastError"] as? String, named, "\(json)")
        XCTAssertEqual(work?["lastPollOK"] as? Bool, true, "\(json)")
        XCTAssertEqual(work?["consecutiveFailures"] as? Int, 0, "\(json)")

        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("✘ token of [[github]] oss"), doctor.stdout)

        _ = try workspace.secretFile("oss-token", "ghp_sim_engineer")
        let fixed = try workspace.trackwatch(["check"])
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        XCTAssertTrue(fixed.stdout.hasPrefix("Baseline: watching "), "oss took its baseline: \(fixed.stdout)")
        let after = try workspace.trackwatch(["status", "--json"]).objects.first { $0["server"] as? String == "oss" }
        XCTAssertEqual(after?["consecutiveFailures"] as? Int, 0, "\(String(describing: after))")
    }

    func test_daemon_pollsTheOtherSource_announcesTheBrokenOneOnce_andMakesItOnReload() throws {
        let bus = try SessionBus.shared.get()
        try bus.startNotificationServer(capabilities: "body body-markup actions")
        defer { bus.stopServers() }
        try bus.clearCalls()
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try workspace.startDaemon(notify: notify, stderr: stderr, bus: bus)
        defer { stopAndWait(daemon) }
        let first = notify.waitFor { $0.hasPrefix("STATUS=Last poll") }
        XCTAssertTrue(daemon.isRunning, "no exit 77 for everyone")
        XCTAssertTrue(first?.contains("work: ") == true, first ?? "\(notify.messages)")
        XCTAssertTrue(first?.contains("oss: failed: \(named)") == true, first ?? "\(notify.messages)")

        try sim.act("alice", "assign", "acme/web#2", "engineer")
        notify.poll(daemon, expecting: "1 change;")
        let calls = try bus.notifyCalls()
        let outages = calls.filter { $0.summary.contains("cannot read") }
        XCTAssertEqual(outages.map(\.summary), ["trackwatch cannot read the password or token (oss)"],
                       "once: \(calls.map(\.summary))")
        XCTAssertTrue(outages.first.map { plain($0.body).contains(named) } == true, outages.first?.body ?? "")
        XCTAssertTrue(calls.contains { $0.summary.hasPrefix("acme/web#2: ") }, "work's change: \(calls.map(\.summary))")

        _ = try workspace.secretFile("oss-token", "ghp_sim_engineer")
        notify.skipReceived()
        kill(daemon.processIdentifier, SIGHUP)
        let made = notify.waitFor { line in
            line.hasPrefix("STATUS=Last poll") && line.contains("oss: ") && !line.contains("oss: failed")
        }
        XCTAssertNotNil(made, "made and polled at once on SIGHUP (the interval is 10 minutes): \(notify.messages)")
        XCTAssertTrue(
            waitUntil { (try? bus.notifyCalls().contains { $0.summary == "Connected to GitHub oss again" }) == true },
            "the end said: \((try? bus.notifyCalls().map(\.summary)) ?? [])")

        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(log.contains(named), "the log names the table: \(log)")
    }

    /// Without a reload the source is made at its next regular poll once the file is there, and not tried sooner:
    /// no spinning on a credential nobody has written yet.
    func test_daemon_makesTheSourceAtItsNextRegularPoll_andNotSooner() throws {
        workspace.customConfig = workspace.customConfig?.replacingOccurrences(of: "\"10m\"", with: "\"10s\"")
        try workspace.writeConfig()
        let notify = try NotifySocket()
        let daemon = try workspace.startDaemon(notify: notify)
        defer { stopAndWait(daemon) }
        let failedPoll = notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains("oss: failed") }
        XCTAssertNotNil(failedPoll, "\(notify.messages)")
        let failed = Date()
        notify.skipReceived()
        XCTAssertNil(notify.waitFor(timeout: 5) { $0.hasPrefix("STATUS=Last poll") }, "no poll before the interval")
        _ = try workspace.secretFile("oss-token", "ghp_sim_engineer")
        let made = notify.waitFor { line in
            line.hasPrefix("STATUS=Last poll") && line.contains("oss: ") && !line.contains("oss: failed")
        }
        XCTAssertNotNil(made, "made at the next regular poll: \(notify.messages)")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(failed), 9.5, "at the interval, not sooner")
    }
}
