import Foundation
import TestSupport
import XCTest

/// Issue 32, items 1, 3 and 5, on a real bus against github-sim: a review request says so, the Mute button names
/// an item, and a comment's bubble opens the comment.
final class GitHubWordsTests: XCTestCase {
    private var bus: SessionBus!

    override func setUpWithError() throws {
        bus = try SessionBus.shared.get()
        try bus.startNotificationServer(capabilities: "body body-markup actions")
    }

    override func tearDown() {
        bus?.stopServers()
        super.tearDown()
    }

    private func later(_ sim: GitHubSim) throws { try sim.control(.post, "clock", #"{"advance": 60}"#) }

    func test_aReviewRequest_saysSo_andACommentsBubble_opensTheComment() throws {
        let sim = try GitHubSim()
        let workspace = try Workspace(serverURL: sim.url)
        let opened = try workspace.recordOpens()
        try workspace.useGitHub(sim)
        let notify = try NotifySocket()
        let daemon = try workspace.startDaemon(notify: notify, stderr: Pipe(), bus: bus)
        defer { stopAndWait(daemon) }
        _ = notify.waitFor { $0.hasPrefix("STATUS=Last poll") }
        try sim.act("lead", "remove-review-request", "acme/web#3", "engineer")
        notify.poll(daemon, expecting: "1 change;")
        XCTAssertTrue(try bus.notifyCalls().last?.body.contains("withdrew the review request") == true)
        try bus.clearCalls()

        try later(sim)
        try sim.act("lead", "request-review", "acme/web#3", "engineer")
        notify.poll(daemon, expecting: "1 change;")
        let asked = try XCTUnwrap(try bus.notifyCalls().last)
        XCTAssertTrue(asked.body.contains("asked for your review"), asked.body)
        XCTAssertFalse(asked.body.contains("Assigned to you"), asked.body)
        XCTAssertTrue(asked.actions.contains("Mute this item"), "\(asked.actions)")
        try bus.clearCalls()

        try later(sim)  // an event in the second the stored state reflects counts as told
        try sim.act("lead", "comment", "acme/web#3", "Please look at the retry loop")
        notify.poll(daemon, expecting: "1 change;")
        let comment = try XCTUnwrap(try bus.notifyCalls().last)
        XCTAssertTrue(comment.body.contains("commented: "), comment.body)
        try bus.invokeAction("default", onNotification: 3)
        let url = { (try? String(contentsOf: opened, encoding: .utf8)) ?? "" }
        XCTAssertTrue(waitUntil { url().contains("/acme/web/pull/3#issuecomment-") }, url())
    }
}
