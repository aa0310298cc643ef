import Foundation
import TestSupport
import XCTest

/// `trackwatch run` with a Forgejo source, through a real notification server: a bubble per change, Open into the
/// issue's page, and `doctor` and `probe` (which server, who, what each question finds; a transcript free of secrets
/// and names).
final class ForgejoDaemonTests: XCTestCase {
    private var bus: SessionBus!

    override func setUpWithError() throws {
        bus = try SessionBus.shared.get()
        try bus.startNotificationServer(capabilities: "body body-markup actions")
    }

    override func tearDown() {
        bus?.stopServers()
        super.tearDown()
    }

    func test_anAssignment_isABubble_thatOpensTheIssue_andDoctorAndProbeSayWhichServer() throws {
        let sim = try ForgejoSim()
        let workspace = try Workspace(serverURL: sim.url)
        let opened = try workspace.recordOpens()
        try workspace.useForgejo(sim)
        let notify = try NotifySocket()
        let daemon = try workspace.startDaemon(notify: notify, stderr: Pipe(), bus: bus)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try bus.clearCalls()

        try sim.act("alice", "assign", "acme/web#2", "engineer")
        notify.poll(daemon, expecting: "1 change;")
        let calls = try bus.notifyCalls()
        XCTAssertEqual(calls.count, 1)
        XCTAssertTrue(calls.first?.summary.hasPrefix("acme/web#2: ") == true, calls.first?.summary ?? "")
        XCTAssertTrue(calls.first?.body.contains("Alice Example") == true, calls.first?.body ?? "")
        XCTAssertEqual(try openFirstBubble(on: bus, recordedIn: opened), "\(sim.url)/acme/web/issues/2\n")

        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("✔ Forgejo 11.0.3+gitea-1.22.0"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("✔ signed in as Eve Engineer (engineer)"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("✔ 7 open issues and pull requests assigned to you"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("✔ 2 open issues and pull requests await your review"), doctor.stdout)
        let transcript = workspace.directory.appendingPathComponent("probe.json")
        let probe = try workspace.trackwatch(["probe", "--save", transcript.path])
        XCTAssertEqual(probe.status, 0, probe.stdout + probe.stderr)
        let saved = try String(contentsOf: transcript, encoding: .utf8)
        XCTAssertTrue(saved.contains("/api/v1/repos/issues/search"), saved)
        XCTAssertFalse(saved.contains("fj_sim_engineer"), "no token in the transcript")
        XCTAssertFalse(saved.contains("acme"), "no repository in the transcript")

        try sim.switches(#"{"gitea": true}"#)
        XCTAssertTrue(try workspace.trackwatch(["doctor"]).stdout.contains("✔ Gitea 1.22.6"))
    }
}
