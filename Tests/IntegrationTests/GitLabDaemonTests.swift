import Foundation
import TestSupport
import XCTest

/// `trackwatch run` with a GitLab source, through a real notification server: a bubble per change, Open into
/// GitLab's merge request page, and `doctor` and `probe` (its transcript free of secrets and names).
final class GitLabDaemonTests: XCTestCase {
    private var bus: SessionBus!

    override func setUpWithError() throws {
        bus = try SessionBus.shared.get()
        try bus.startNotificationServer(capabilities: "body body-markup actions")
    }

    override func tearDown() {
        bus?.stopServers()
        super.tearDown()
    }

    func test_aReviewRequest_isABubble_thatOpensTheMergeRequest_andDoctorAndProbeCoverGitLab() throws {
        let sim = try GitLabSim()
        let workspace = try Workspace(serverURL: sim.url)
        let opened = try workspace.recordOpens()
        try workspace.useGitLab(sim)
        let notify = try NotifySocket()
        let daemon = try workspace.startDaemon(notify: notify, stderr: Pipe(), bus: bus)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try bus.clearCalls()

        try sim.act("lead", "request-review", "platform/web!2", "engineer")
        notify.poll(daemon, expecting: "1 change;")
        let calls = try bus.notifyCalls()
        XCTAssertEqual(calls.count, 1)
        XCTAssertTrue(calls.first?.summary.hasPrefix("platform/web!2: ") == true, calls.first?.summary ?? "")
        XCTAssertTrue(calls.first?.body.contains("Lena Lead") == true, calls.first?.body ?? "")
        XCTAssertEqual(try openFirstBubble(on: bus, recordedIn: opened), "\(sim.url)/platform/web/-/merge_requests/2\n")

        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("✔ signed in as Eve Engineer (@engineer, id 101)"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("merge requests awaiting your review can be read"), doctor.stdout)
        let transcript = workspace.directory.appendingPathComponent("probe.json")
        let probe = try workspace.trackwatch(["probe", "--save", transcript.path])
        XCTAssertEqual(probe.status, 0, probe.stdout + probe.stderr)
        let saved = try String(contentsOf: transcript, encoding: .utf8)
        XCTAssertTrue(saved.contains("/api/v4/merge_requests"), saved)
        XCTAssertFalse(saved.contains("glpat-sim-engineer"), "no token in the transcript")
        XCTAssertFalse(saved.contains("platform"), "no project in the transcript")
    }
}
