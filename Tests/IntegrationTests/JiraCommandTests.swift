import Foundation
import TestSupport
import XCTest

/// Everything around a poll covers a Jira source (issue 24): bubbles through a real notification server, Open into
/// Jira's web UI, Mute and what lifts it, the journal line, `status`, `log` and its page, `doctor` and `probe`.
final class JiraCommandTests: XCTestCase {
    private var bus: SessionBus!

    override func setUpWithError() throws {
        bus = try SessionBus.shared.get()
        try bus.startNotificationServer(capabilities: "body body-markup actions")
    }

    override func tearDown() {
        bus?.stopServers()
        super.tearDown()
    }

    func test_bubbles_openIntoJira_muteUntilTheStatusChanges() throws {
        let sim = try JiraSim()
        let workspace = try Workspace(serverURL: sim.url)
        let opened = try workspace.recordOpens()
        try workspace.useJira(sim)
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try workspace.startDaemon(notify: notify, stderr: stderr, bus: bus)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try bus.clearCalls()

        try sim.act("alice", "assign", "WEB-2", "engineer")
        notify.poll(daemon, expecting: "1 change;")
        let calls = try bus.notifyCalls()
        XCTAssertEqual(calls.count, 1)
        XCTAssertTrue(calls.first?.summary.hasPrefix("WEB-2: ") == true, calls.first?.summary ?? "")
        XCTAssertTrue(calls.first?.body.contains("Alice Example") == true, calls.first?.body ?? "")
        XCTAssertEqual(try openFirstBubble(on: bus, recordedIn: opened), "\(sim.url)/browse/WEB-2\n")

        try bus.invokeAction("mute", onNotification: 1)
        XCTAssertTrue(try waitUntil { try workspace.trackwatch(["mute"]).stdout.contains("WEB-2") })
        try sim.control(.post, "clock", #"{"advance": 60}"#)
        try sim.act("lead", "comment", "WEB-2", "While muted")
        notify.poll(daemon, expecting: "1 change;")
        XCTAssertEqual(try bus.notifyCalls().count, 1, "muted: journaled only")
        try sim.control(.post, "clock", #"{"advance": 60}"#)
        try sim.act("lead", "transition", "WEB-2", "Done")
        notify.poll(daemon, expecting: "1 change;")
        let after = try bus.notifyCalls()
        XCTAssertEqual(after.count, 2, "a status change lifts the mute")
        XCTAssertTrue(after.last?.body.contains("Done") == true, after.last?.body ?? "")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(log.components(separatedBy: "Comment: While muted").count - 1, 1, "journaled once: \(log)")
    }

    func test_statusLogPageDoctorAndProbe_coverAJiraSource() throws {
        let sim = try JiraSim()
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useJira(sim)
        _ = try workspace.checkChanges()
        try sim.act("alice", "edit", "WEB-1", "summary=Checkout <b>totals</b>")
        XCTAssertEqual(try workspace.checkChanges().count, 1)

        let status = try workspace.trackwatch(["status", "--json"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual(status.objects.first?["consecutiveFailures"] as? Int, 0, status.stdout)
        XCTAssertNotNil((status.objects.first?["records"] as? [String: Int])?["issues"], status.stdout)
        let log = try workspace.trackwatch(["log", "--json"])
        XCTAssertEqual(log.objects.compactMap { $0["record"] as? String }, ["WEB-1"])
        let page = try workspace.trackwatch(["log", "--html"])
        XCTAssertTrue(page.stdout.contains("href=\"\(sim.url)/browse/WEB-1\""), "linked into Jira")
        XCTAssertTrue(page.stdout.contains("Checkout &lt;b&gt;totals&lt;/b&gt;"), "server text escaped")
        let mute = try workspace.trackwatch(["mute", "WEB-1"])
        XCTAssertEqual(mute.status, 0, mute.stderr)
        XCTAssertTrue(mute.stdout.contains("Status or Assignee"), mute.stdout)

        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("✔ Jira Cloud (serverInfo)"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("✔ signed in as Eve Engineer (acc-engineer)"), doctor.stdout)
        let probe = try workspace.trackwatch(["probe", "--save", workspace.directory.appendingPathComponent("t.json").path])
        XCTAssertEqual(probe.status, 0, probe.stdout + probe.stderr)
        XCTAssertTrue(probe.stdout.contains("issues assigned to you"), probe.stdout)
        let transcript = try String(contentsOf: workspace.directory.appendingPathComponent("t.json"), encoding: .utf8)
        XCTAssertTrue(transcript.contains("/rest/api/3/search/jql"), transcript)
        XCTAssertFalse(transcript.contains("jira-sim-engineer-token"), "no secret in the transcript")
        XCTAssertFalse(transcript.contains("Eve Engineer"), "no person in the transcript")

        try workspace.useJira(sim, token: "a-revoked-token")
        let refused = try workspace.trackwatch(["doctor"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stdout.contains("fix: make one at https://id.atlassian.com"), refused.stdout)
    }
}
