import Foundation
import TestSupport
import XCTest

/// `trackwatch run` with an Azure DevOps source, through a real notification server: a bubble per change, Open into
/// the pull request's page, and `doctor` and `probe` (its transcript free of secrets and names).
final class AzureDevOpsDaemonTests: XCTestCase {
    private var bus: SessionBus!

    override func setUpWithError() throws {
        bus = try SessionBus.shared.get()
        try bus.startNotificationServer(capabilities: "body body-markup actions")
    }

    override func tearDown() {
        bus?.stopServers()
        super.tearDown()
    }

    func test_aReviewRequest_isABubble_thatOpensThePullRequest_andDoctorAndProbeCoverAzureDevOps() throws {
        let sim = try AzureDevOpsSim()
        let workspace = try Workspace(serverURL: sim.url)
        let opened = try workspace.recordOpens()
        try workspace.useAzureDevOps(sim)
        let notify = try NotifySocket()
        let daemon = try workspace.startDaemon(notify: notify, stderr: Pipe(), bus: bus)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try bus.clearCalls()

        try sim.later()
        try sim.act("lead", "request-review", pullRequest: 3, ["user": "engineer"])
        notify.poll(daemon, expecting: "1 change;")
        let calls = try bus.notifyCalls()
        XCTAssertEqual(calls.count, 1)
        XCTAssertTrue(calls.first?.summary.hasPrefix("Web/Web!3: ") == true, calls.first?.summary ?? "")
        XCTAssertTrue(
            plain(calls.first?.body ?? "").hasPrefix("Lena Lead asked for your review"), calls.first?.body ?? "")
        XCTAssertEqual(try openFirstBubble(on: bus, recordedIn: opened), "\(sim.url)/Web/_git/Web/pullrequest/3\n")

        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("✔ signed in as Eve Engineer"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("Azure DevOps Services, REST API 7.1"), doctor.stdout)
        let transcript = workspace.directory.appendingPathComponent("probe.json")
        let probe = try workspace.trackwatch(["probe", "--save", transcript.path])
        XCTAssertEqual(probe.status, 0, probe.stdout + probe.stderr)
        XCTAssertTrue(probe.stdout.contains("a steady poll with nothing changed costs 9 requests"), probe.stdout)
        let saved = try String(contentsOf: transcript, encoding: .utf8)
        XCTAssertTrue(saved.contains("/{base}/_apis/git/pullrequests"), saved)
        XCTAssertFalse(saved.contains("adosim-pat-engineer"), "no token in the transcript")
        XCTAssertFalse(saved.contains("Web"), "no project in the transcript")
        XCTAssertFalse(saved.contains("acme"), "no organization in the transcript")
    }
}
