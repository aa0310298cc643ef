import Foundation
import XCTest

/// The commands that read the state — `status`, `log` (its lines, JSON and page), `mute` — on a Qase source,
/// alone and beside a Compass server: they know the source only through the seam.
final class QaseCommandTests: XCTestCase {
    func test_statusLogPageAndMute_coverAQaseSource() throws {
        let sim = try QaseSim()
        let workspace = try Workspace(serverURL: sim.apiURL)
        try workspace.useQase(sim)
        _ = try workspace.checkChanges()
        try sim.act("alice", "edit-case", "DEMO", "4", "title=Checkout <b>totals</b>")
        try sim.act("lead", "assign-plan-case", "DEMO", "2", "5", "engineer")
        XCTAssertEqual(try workspace.checkChanges().count, 2)

        let status = try workspace.trackwatch(["status", "--json"])
        XCTAssertEqual(status.status, 0, status.stderr)
        let object = try XCTUnwrap(status.objects.first)
        XCTAssertEqual(object["lastPollOK"] as? Bool, true)
        XCTAssertEqual(Set((object["records"] as? [String: Int] ?? [:]).keys), ["assigned", "mine"])

        let log = try workspace.trackwatch(["log", "--json"])
        XCTAssertEqual(log.status, 0, log.stderr)
        XCTAssertEqual(Set(log.objects.compactMap { $0["record"] as? String }), ["DEMO-4", "DEMO/plan/2"])
        XCTAssertEqual(Set(log.objects.compactMap { $0["source"] as? String }), ["qase"])
        let lines = try workspace.trackwatch(["log"]).stdout
        XCTAssertTrue(lines.contains("DEMO-4 edited by Alice Example: Checkout <b>totals</b>"), lines)

        let page = try workspace.trackwatch(["log", "--html"])
        XCTAssertEqual(page.status, 0, page.stderr)
        XCTAssertTrue(page.stdout.contains(#"href="https://app.qase.example/case/DEMO-4""#), "linked into Qase")
        XCTAssertTrue(page.stdout.contains(#"href="https://app.qase.example/plan/DEMO/2""#))
        XCTAssertTrue(page.stdout.contains("Checkout &lt;b&gt;totals&lt;/b&gt;"), "server text escaped")
        XCTAssertFalse(page.stdout.contains("<b>totals"))

        let mute = try workspace.trackwatch(["mute", "DEMO/plan/2"])
        XCTAssertEqual(mute.status, 0, mute.stderr)
        XCTAssertTrue(mute.stdout.contains("until its Status or Your cases changes"), mute.stdout)
        XCTAssertTrue(try workspace.trackwatch(["mute"]).stdout.contains("DEMO/plan/2"))
        XCTAssertEqual(try workspace.trackwatch(["unmute", "DEMO/plan/2"]).status, 0)
        XCTAssertFalse(try workspace.trackwatch(["mute"]).stdout.contains("DEMO/plan/2"))
    }

    /// Compass and Qase in one configuration: each polled with its own state, `status` per source, `log` merged.
    func test_aCompassServerAndAQaseWorkspace_sideBySide() throws {
        let compass = try Simulator()
        let qase = try QaseSim()
        let workspace = try Workspace(serverURL: compass.url)
        try workspace.useQase(qase)
        let compassTable = try String(contentsOfFile: workspace.configPath, encoding: .utf8)
        workspace.customConfig = """
            [server]
            url = "\(compass.url)"
            repo = "2.0.0"
            database = "SAMPL"
            username = "engineer"
            password_file = "\(workspace.passwordFile)"

            \(compassTable)
            """
        try workspace.writeConfig()
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try compass.act("lead", "SAMPL00000001", "Resolve")
        try qase.act("alice", "edit-case", "DEMO", "4", "title=Checkout totals")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(
            Set(changes.map { "\($0["source"] as? String ?? "?") \($0["record"] as? String ?? "?")" }),
            ["compass SAMPL00000001", "qase DEMO-4"])
        let status = try workspace.trackwatch(["status"])
        XCTAssertTrue(status.stdout.contains("qase\n"), status.stdout)
        let log = try workspace.trackwatch(["log", "--json"])
        XCTAssertEqual(log.objects.count, 2, log.stdout)
    }
}
