import Foundation
import TestSupport
import XCTest

/// `trackwatch run` with a Qase source, through a real notification server (python-dbusmock on a private bus):
/// bubbles, Open into the Qase web app, Mute and what lifts it, and a rate limit that is waited out in silence.
final class QaseDaemonTests: XCTestCase {
    private var bus: SessionBus!

    override func setUpWithError() throws {
        bus = try SessionBus.shared.get()
        try bus.startNotificationServer(capabilities: "body body-markup actions")
    }

    override func tearDown() {
        bus?.stopServers()
        super.tearDown()
    }

    /// A defect given to me is a critical bubble (its severity is critical); Open goes to the Qase web app; Mute
    /// keeps a title change in the journal only; a status change lifts the mute.
    func test_bubbles_openIntoQase_muteUntilTheStatusChanges() throws {
        let sim = try QaseSim()
        let workspace = try Workspace(serverURL: sim.apiURL)
        let opened = try workspace.recordOpens()
        try workspace.useQase(sim)
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try workspace.startDaemon(notify: notify, stderr: stderr, bus: bus)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try bus.clearCalls()

        try sim.act("lead", "assign-defect", "DEMO", "3", "engineer")
        notify.poll(daemon, expecting: "1 change;")
        let calls = try bus.notifyCalls()
        XCTAssertEqual(calls.count, 1)
        XCTAssertTrue(calls.first?.summary.hasPrefix("DEMO/defect/3: ") == true, calls.first?.summary ?? "")
        XCTAssertEqual(calls.first?.hints["urgency"] as? Int, 2, "critical: a defect of severity critical in my hands")
        let body = calls.first?.body ?? ""
        XCTAssertTrue(body.hasPrefix("Assigned to you") && body.contains("1-Critical"), body)
        XCTAssertEqual(try openFirstBubble(on: bus, recordedIn: opened), "https://app.qase.example/defect/DEMO\n")

        try bus.invokeAction("mute", onNotification: 1)
        XCTAssertTrue(try waitUntil { try workspace.trackwatch(["mute"]).stdout.contains("DEMO/defect/3") })
        try sim.act("alice", "edit-defect", "DEMO", "3", "title=Renamed while muted")
        notify.poll(daemon, expecting: "1 change;")
        XCTAssertEqual(try bus.notifyCalls().count, 1, "muted: journaled only")
        try sim.act("lead", "resolve-defect", "DEMO", "3")
        notify.poll(daemon, expecting: "1 change;")
        let after = try bus.notifyCalls()
        XCTAssertEqual(after.count, 2, "a status change lifts the mute")
        XCTAssertTrue(after.last?.summary.hasPrefix("DEMO/defect/3: ") == true, after.last?.summary ?? "")
        XCTAssertTrue(after.last?.body.contains("Resolved") == true, after.last?.body ?? "")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(
            log.components(separatedBy: "DEMO/defect/3 changed: Renamed while muted").count - 1, 1,
            "journaled once: \(log)")
    }

    /// 429 with `Retry-After` and no body: the daemon waits at least that long before its next request, tells
    /// nobody (even with `alert_after_failures = 1`), and reports the change once the server lets it.
    func test_rateLimited_waitsAsTold_andRaisesNoOutageBubble() throws {
        let sim = try QaseSim()
        let workspace = try Workspace(serverURL: sim.apiURL)
        workspace.interval = "10m"
        workspace.extraPollLines = ["first_retry = \"1s\""]
        workspace.trailer = "[notify]\nalert_after_failures = 1"
        try workspace.useQase(sim)
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try workspace.startDaemon(notify: notify, stderr: stderr, bus: bus)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try bus.clearCalls()

        try sim.act("alice", "edit-case", "DEMO", "4", "title=Checkout totals")
        try sim.switches(#"{"rateLimit": 3, "rateLimitTimeout": 3}"#)
        notify.skipReceived()
        kill(daemon.processIdentifier, SIGUSR1)
        let limited = { (message: String) in message.hasPrefix("STATUS=Last poll") && message.contains("HTTP 429") }
        XCTAssertNotNil(notify.waitFor(limited), "\(notify.messages)")
        let first = Date()
        notify.skipReceived()
        XCTAssertNotNil(notify.waitFor(timeout: 20, limited), "retried by itself: \(notify.messages)")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(first), 3.0, "Retry-After: 3, plus jitter")
        XCTAssertEqual(try sim.stats()["rateLimited"] as? Int, 2, "no request while the server said wait")
        try sim.switches(#"{"rateLimit": 0}"#)
        XCTAssertNotNil(
            notify.waitFor(timeout: 20) { $0.hasPrefix("STATUS=Last poll") && $0.contains("1 change;") },
            "\(notify.messages)")
        let calls = try bus.notifyCalls()
        XCTAssertEqual(calls.count, 1, "no outage bubble: \(calls.map(\.summary))")
        XCTAssertTrue(calls.first?.summary.hasPrefix("DEMO-4: ") == true, calls.first?.summary ?? "")
        XCTAssertTrue(calls.first?.body.contains("Alice Example") == true, calls.first?.body ?? "")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertFalse(log.contains("Qase is busy"), log)
        XCTAssertTrue(log.contains("rate limited; polling again when the server said"), log)
    }
}
