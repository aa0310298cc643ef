import Foundation
import TestSupport
import XCTest

/// `trackwatch run` with a `[[json]]` source through a real notification server (python-dbusmock on a private
/// bus): a colleague's change is a bubble and one journal entry, Open goes to the item's link, and a rate limit is
/// waited out in silence.
final class JSONDaemonTests: JSONSimTestCase {
    private var bus: SessionBus!

    override func setUpWithError() throws {
        try super.setUpWithError()
        bus = try SessionBus.shared.get()
        try bus.startNotificationServer(capabilities: "body body-markup actions")
    }

    override func tearDown() {
        bus?.stopServers()
        super.tearDown()
    }

    func test_aColleagueChecksOutADevice_oneBubble_oneJournalEntry_OpenGoesToTheDevice() throws {
        let workspace = try Workspace(serverURL: sim.url)
        let opened = try workspace.recordOpens()
        try workspace.useList(
            url: sim.url + "/devices", name: "devices",
            """
            title = "{device} ({os})"
            by = "lastCheckedOutBy"
            link = "https://devices.example.com/#/device/{id}"
            """)
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try workspace.startDaemon(notify: notify, stderr: stderr, bus: bus)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(
            notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains("6 in devices") },
            "\(notify.messages)")
        try bus.clearCalls()

        try sim.act("checkout", "--device", "1", "--as", "Sam Carter")
        notify.poll(daemon, expecting: "1 change;")
        let calls = try bus.notifyCalls()
        // Issue 27, item 11: named by its title, and who did it (before: `1: Pixel 8 (Android 14)`, `Changed in devices`).
        XCTAssertEqual(calls.map { plain($0.summary) }, ["Pixel 8 (Android 14)"])
        XCTAssertTrue(
            plain(calls.first?.body ?? "").hasPrefix("Changed by Sam Carter in devices · isCheckedOut: false → true"),
            calls.first?.body ?? "")
        XCTAssertEqual(try openFirstBubble(on: bus, recordedIn: opened), "https://devices.example.com/#/device/1\n")
        notify.poll(daemon, expecting: "0 changes")
        XCTAssertEqual(try bus.notifyCalls().count, 1, "once")

        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(
            log.components(separatedBy: "Pixel 8 (Android 14) changed by Sam Carter in devices (").count - 1, 1,
            "journaled once: \(log)")
    }

    /// Issue 27, item 13: five device check-outs and two Qase changes found in one wake-up are one summary that
    /// counts them by source, each line naming its item (before: two Qase bubbles and `5 devices changes`).
    func test_oneWakeUpsChangesFromTwoSources_areOneSummary() throws {
        let qase = try QaseSim()
        let workspace = try Workspace(serverURL: qase.apiURL)
        workspace.trailer = """
            [[json]]
            name = "devices"
            url = "\(sim.url)/devices"
            title = "{device} ({os})"
            by = "lastCheckedOutBy"
            """
        try workspace.useQase(qase)
        let notify = try NotifySocket()
        let daemon = try workspace.startDaemon(notify: notify, stderr: FileHandle.nullDevice, bus: bus)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(
            notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains("6 in devices") }, "\(notify.messages)")
        try bus.clearCalls()

        for device in 1...5 { try sim.act("checkout", "--device", "\(device)", "--as", "Sam Carter") }
        try qase.act("lead", "resolve-defect", "DEMO", "1")
        try qase.act("alice", "edit-case", "DEMO", "4", "title=Checkout totals")
        notify.poll(daemon, expecting: "6 in devices, 5 changes")
        let calls = try bus.notifyCalls()
        XCTAssertEqual(calls.map { plain($0.summary) }, ["7 changes"], "\(calls)")
        let lines = plain(calls.first?.body ?? "").split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.suffix(2), ["and 4 more", "5 in devices · 2 in Qase"], "\(lines)")
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("iPhone SE (iOS 16.7) changed by Sam Carter") || $0.hasPrefix("Moto G") },
            "a device is named by its title: \(lines)")
    }

    /// 429 with `Retry-After` in seconds, then 503 with it as a date: the daemon waits at least that long before
    /// it asks again, by itself, and tells nobody (even with `alert_after_failures = 1`); a 500 is the control,
    /// announced at once.
    func test_rateLimited_waitsAsTold_andTellsNobody() throws {
        let workspace = try Workspace(serverURL: sim.url)
        workspace.interval = "10m"
        workspace.extraPollLines = ["first_retry = \"1s\""]
        workspace.trailer = "[notify]\nalert_after_failures = 1"
        try workspace.useList(url: sim.url + "/list/bare", "title = \"{title}\"")
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try workspace.startDaemon(notify: notify, stderr: stderr, bus: bus)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try bus.clearCalls()

        for (status, wait) in [(429, ["retryAfter": 2]), (503, ["retryAfterDate": 3])] {
            try sim.setItem(5, #"{"status": "rate \#(status)"}"#)
            try sim.fault("status", on: "GET /list/bare", wait.merging(["status": status]) { $1 })
            notify.poll(daemon, expecting: "HTTP \(status)")
            let limited = Date()
            XCTAssertNotNil(
                notify.waitFor(timeout: 20) { $0.hasPrefix("STATUS=Last poll") && $0.contains("1 change;") },
                "retried by itself: \(notify.messages)")
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(limited), 1.5, "\(status): waited as told")
            XCTAssertEqual(
                try sim.requests(to: "GET /list/bare"), 1 + (status == 429 ? 2 : 4), "no request while told to wait")
        }
        XCTAssertEqual(try bus.notifyCalls().map { plain($0.summary) }, ["Item 5", "Item 5"], "no outage bubble")

        try sim.fault("status", on: "GET /list/bare", ["status": 500])
        notify.poll(daemon, expecting: "HTTP 500")
        XCTAssertTrue(waitUntil { (try? bus.notifyCalls().count) == 3 }, "the control: a 500 is announced")
    }
}
