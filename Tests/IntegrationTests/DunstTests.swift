import Foundation
import XCTest

/// What a person sees, on a real notification server that draws bubbles: the daemon against compass-sim, with
/// dunst on Xvfb (see `DunstLab`). Checks what dunst received (summary, body, urgency, actions, icon), clicks
/// with `dunstctl action` and dunst's context menu, restarts dunst mid-run, follows a summary's "Show all" to
/// the page of recent changes and renders that page in headless Chromium. Screenshots and a transcript of the
/// bubbles go to `.build/test-output/dunst/`.
final class DunstTests: XCTestCase {
    private let webURL = "https://compass.example.com/cqweb/#/{repo}/{database}/RECORD/{id}"

    private func recordURL(_ id: String) -> String { "https://compass.example.com/cqweb/#/2.0.0/SAMPL/RECORD/\(id)" }

    func test_whatAPersonSees_onDunst_acrossARestart_withThePageOfChanges() throws {
        let output = try testOutputDirectory("dunst")
        let lab = try DunstLab(output: output)
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let (opener, opened) = try workspace.recordingOpener()
        workspace.interval = "10m"  // only the polls the test asks for, and the daemon's own retries
        workspace.extraPollLines = ["first_retry = \"1s\""]
        workspace.trailer = "[notify]\nopener = \"\(opener.path)\"\nweb_url = \"\(webURL)\"\nalert_after_failures = 1"
        try workspace.writeConfig()

        let notify = try NotifySocket()
        let log = workspace.directory.appendingPathComponent("daemon.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let daemon = Process()
        daemon.executableURL = productsDirectory.appendingPathComponent("trackwatch")
        daemon.arguments = ["run", "--config", workspace.configPath]
        var environment = ProcessInfo.processInfo.environment.merging(workspace.environment) { _, new in new }
        environment["DBUS_SESSION_BUS_ADDRESS"] = lab.busAddress
        environment["NOTIFY_SOCKET"] = notify.path
        for name in ["DISPLAY", "JOURNAL_STREAM", "INVOCATION_ID"] { environment[name] = nil }
        daemon.environment = environment
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = try FileHandle(forWritingTo: log)
        try daemon.run()
        defer { if daemon.isRunning { daemon.terminate() } }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") }, "baseline: \(notify.messages)")
        func poll(expecting changes: String) {
            notify.skipReceived()
            kill(daemon.processIdentifier, SIGUSR1)
            XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains(changes) }, "\(notify.messages)")
        }
        var transcript = ""
        func quote(_ title: String, _ bubble: DunstLab.Bubble) { transcript += "## \(title) (dunst id \(bubble.id))\n\(bubble)\n\n" }

        // An assigned bubble (items 3, 4, 8): who assigned it, its priority and state; critical because a
        // priority-1 record is now mine; the icon and the desktop entry named.
        try sim.act("lead", "SAMPL00000006", "Modify", set: ["Owner=engineer", "Priority=1-Resolve Immediately"])
        poll(expecting: "1 change;")
        let assigned = try XCTUnwrap(lab.waitForBubble { $0.summary.hasPrefix("SAMPL00000006") })
        quote("assigned", assigned)
        XCTAssertEqual(assigned.summary, "SAMPL00000006 assigned to you by lead")
        XCTAssertTrue(assigned.body.hasPrefix("<b>"), assigned.body)
        XCTAssertTrue(assigned.body.hasSuffix("</b>\nPriority: 1-Resolve Immediately · State: Assigned"), assigned.body)
        XCTAssertEqual(assigned.urgency, "CRITICAL")
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: assigned.actions.map { ($0.key, $0.label) }),
                       ["default": "Open", "mute": "Mute this record"], "one Open, one Mute (item 2)")
        XCTAssertEqual(assigned.icon, "trackwatch")
        XCTAssertEqual(assigned.desktopEntry, "trackwatch")
        try lab.screenshot("1-assigned.png")
        try lab.screenshot("bubble.png", cropToBubbles: true)  // docs/images/bubble.png

        // A modified bubble whose headline changed and is long (item 5): every line bounded, the headline once.
        let long = "Login fails after a password reset " + String(repeating: "when the account was locked before ", count: 12)
        try sim.act("lead", "SAMPL00000001", "Modify", set: ["Headline=\(long)"])
        poll(expecting: "1 change;")
        let modified = try XCTUnwrap(lab.waitForBubble { $0.summary.hasPrefix("SAMPL00000001") })
        quote("modified", modified)
        XCTAssertEqual(modified.summary, "SAMPL00000001 modified by lead")
        let lines = modified.body.split(separator: "\n").map { $0.replacingOccurrences(of: "<b>", with: "").replacingOccurrences(of: "</b>", with: "") }
        XCTAssertEqual(lines.count, 2, "the new headline and the old one: \(lines)")
        XCTAssertTrue(lines[0].hasPrefix("Login fails after a password reset when the account"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("Headline was: "), lines[1])
        XCTAssertTrue(lines.allSatisfy { $0.count <= 120 }, "\(lines.map(\.count))")
        XCTAssertEqual(modified.body.components(separatedBy: "Login fails").count - 1, 1, "the new headline once")
        XCTAssertEqual(modified.urgency, "NORMAL")
        try lab.screenshot("2-assigned-and-modified.png")

        // A priority-1 record leaving my hands (item 4): no emergency, whatever its priority.
        try sim.act("lead", "SAMPL00000006", "Modify", set: ["Owner=alice"])
        poll(expecting: "1 change;")
        let unassigned = try XCTUnwrap(lab.waitForBubble { $0.summary.hasPrefix("SAMPL00000006 no longer") })
        XCTAssertEqual(unassigned.summary, "SAMPL00000006 no longer assigned to you")
        XCTAssertEqual(unassigned.urgency, "NORMAL", "not red for a record that is no longer mine")

        // The notification server restarts (item 1): the new dunst numbers its bubbles from the start again.
        try lab.restartDunst()
        try sim.act("lead", "SAMPL00000005", "Modify", set: ["Headline=Toolbar icons blurry on HiDPI screens"])
        try sim.act("lead", "SAMPL00000021", "Modify", set: ["Headline=Search ignores accents"])
        poll(expecting: "2 changes;")
        let five = try XCTUnwrap(lab.waitForBubble { $0.summary.hasPrefix("SAMPL00000005") })
        let twentyOne = try XCTUnwrap(lab.waitForBubble { $0.summary.hasPrefix("SAMPL00000021") })
        XCTAssertEqual([five.id, twentyOne.id], [assigned.id, modified.id], "the new server reuses the ids of the bubbles before")
        XCTAssertEqual(try lab.displayed(), 2, "the earlier bubbles went with the old server")
        try lab.screenshot("3-after-restart.png")
        // "Mute this record" from dunst's menu on one, a click (dunstctl action) on the other: each acts on
        // exactly its own record, not also on the earlier bubble that had its id.
        try lab.chooseFromMenu("Mute this record (SAMPL00000021")
        XCTAssertTrue(try waitUntil { try workspace.trackwatch(["mute"]).stdout.contains("SAMPL00000021") }, "muted from the menu")
        XCTAssertTrue(lab.lastMenu.contains("#Open (SAMPL00000005"), "one Open per bubble in dunst's menu: \(lab.lastMenu)")
        XCTAssertEqual(lab.lastMenu.components(separatedBy: "#Open (SAMPL00000021").count - 1, 1, lab.lastMenu)
        XCTAssertTrue(try waitUntil { try lab.displayed() == 1 }, "a muted record's bubble closes")
        _ = try lab.dunstctl(["action", "0"])
        XCTAssertTrue(waitUntil { ((try? String(contentsOf: opened, encoding: .utf8)) ?? "").contains("SAMPL00000005") })
        poll(expecting: "0 changes")  // after every click the daemon had queued
        XCTAssertEqual(try String(contentsOf: opened, encoding: .utf8), recordURL("SAMPL00000005") + "\n",
                       "only the record clicked was opened, not SAMPL00000006 too")
        let muted = try workspace.trackwatch(["mute"]).stdout
        XCTAssertEqual(muted.split(separator: "\n").filter { $0.contains("SAMPL") }.count, 1, "only the record muted, not SAMPL00000001 too: \(muted)")

        // A summary (items 4, 7): four changes in one poll, critical because a priority-1 record was assigned to
        // me, which comes first with the reason; its click ("Show all") opens the page of recent changes.
        _ = try lab.dunstctl(["close-all"])
        let hostile = #"<img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script> & "quotes" "#
            + "\u{202E}desrever"
        try sim.act("lead", "SAMPL00000013", "Modify", set: ["Headline=\(hostile)"])
        try sim.act("lead", "SAMPL00000014", "Modify", set: ["Owner=engineer", "Priority=1-Resolve Immediately"])
        try sim.act("lead", "SAMPL00000017", "Modify", set: ["Headline=Printing cuts the last line"])
        try sim.act("lead", "SAMPL00000033", "Modify", set: ["Headline=Undo forgets the selection"])
        poll(expecting: "4 changes;")
        let summary = try XCTUnwrap(lab.waitForBubble { $0.summary == "4 Compass changes" })
        quote("summary", summary)
        XCTAssertEqual(summary.urgency, "CRITICAL")
        XCTAssertTrue(summary.body.hasPrefix("SAMPL00000014 assigned to you by lead (Priority 1-Resolve Immediately): "), summary.body)
        XCTAssertTrue(summary.body.hasSuffix("\nand 1 more"), summary.body)
        XCTAssertEqual(summary.actions.map(\.key), ["default"])
        XCTAssertEqual(summary.actions.map(\.label), ["Show all"])
        try lab.screenshot("4-summary.png")
        _ = try lab.dunstctl(["action", "0"])
        let page = workspace.directory.appendingPathComponent("xdg-state/trackwatch/changes.html")
        XCTAssertTrue(waitUntil { ((try? String(contentsOf: opened, encoding: .utf8)) ?? "").contains("file://") })
        XCTAssertEqual(try String(contentsOf: opened, encoding: .utf8).split(separator: "\n").last.map(String.init), "file://" + page.path)
        let mode = try FileManager.default.attributesOfItem(atPath: page.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600, "private, like the state")

        // The page in a real browser: every change, its link, the hostile headline as text (no element, no
        // script run: the title is unchanged), the critical change marked in words.
        let rendered = try Chromium.render(page, screenshot: output.appendingPathComponent("5-changes-page.png"))
        XCTAssertTrue(rendered.contains("<title>trackwatch: recent Compass changes</title>"), "no script ran")
        XCTAssertFalse(rendered.contains("pwned</title>"))
        let body = String(rendered[(rendered.range(of: "<body>")?.upperBound ?? rendered.startIndex)...])
        XCTAssertFalse(body.contains("<img") || body.contains("<script"), "server text made no element")
        XCTAssertTrue(body.contains("&lt;img src=x onerror=\"document.title='pwned'\"&gt;&lt;script&gt;"), "shown as text")
        for record in ["SAMPL00000013", "SAMPL00000014", "SAMPL00000017", "SAMPL00000033", "SAMPL00000006", "SAMPL00000001"] {
            XCTAssertTrue(body.contains("<a href=\"\(recordURL(record))\" rel=\"noreferrer noopener\">\(record)</a>"), record)
        }
        XCTAssertTrue(body.contains("critical: Priority 1-Resolve Immediately"))
        XCTAssertTrue(body.contains("<strong>assigned to you by lead</strong>"))
        XCTAssertTrue(body.contains("<li>Headline was: <del>"), "the old headline")
        XCTAssertEqual(body.components(separatedBy: "Printing cuts the last line").count - 1, 1, "a changed headline once")
        // `trackwatch log --html` writes the same page.
        let printed = try workspace.trackwatch(["log", "--html"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        func withoutUpdated(_ html: String) -> String { html.split(separator: "\n").filter { !$0.contains("id=\"updated\"") }.joined() }
        XCTAssertEqual(withoutUpdated(printed.stdout), withoutUpdated(try String(contentsOf: page, encoding: .utf8)))

        // An outage and the recovery (item 6): "Compass is unavailable" for an HTTP 503, saying that trackwatch
        // keeps retrying and when; then "Connected to Compass again" in the same bubble.
        _ = try lab.dunstctl(["close-all"])
        try sim.inject("status", on: "POST /query", count: 3, status: 503)
        kill(daemon.processIdentifier, SIGUSR1)
        let outage = try XCTUnwrap(lab.waitForBubble { $0.summary == "Compass is unavailable" })
        try lab.screenshot("6-outage.png")
        quote("outage", outage)
        XCTAssertTrue(outage.body.hasPrefix("trackwatch keeps retrying by itself; next try in "), "Retry-After: 2: \(outage.body)")
        XCTAssertTrue(outage.body.contains("HTTP 503"), outage.body)
        XCTAssertEqual(outage.urgency, "NORMAL")
        let recovered = try XCTUnwrap(lab.waitForBubble(timeout: 40) { $0.summary == "Connected to Compass again" })
        quote("recovered", recovered)
        XCTAssertEqual(recovered.id, outage.id, "the recovery replaces the outage bubble in place")
        XCTAssertEqual(recovered.urgency, "LOW")
        XCTAssertEqual(try lab.displayed(), 1)
        try lab.screenshot("7-recovered.png")
        _ = try lab.dunstctl(["close-all"])
        let history = try lab.history()
        XCTAssertEqual(history.first?.summary, "Connected to Compass again")
        XCTAssertFalse(history.contains { $0.summary == "Compass is unavailable" }, "replaced, not shown beside it")
        XCTAssertTrue(!history.isEmpty && history.allSatisfy { $0.icon.hasSuffix("/scalable/apps/trackwatch.svg") },
                      "dunst found the icon by its name: \(history.map(\.icon))")
        try Data(transcript.utf8).write(to: output.appendingPathComponent("bubbles.txt"))
    }
}

/// Debian's Chromium, headless: one start renders a page to a screenshot and prints the DOM after it ran.
enum Chromium {
    static func render(_ page: URL, screenshot: URL) throws -> String {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("tw-chromium-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: profile) }
        let result = try runProduct("/usr/bin/chromium", [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)",
            "--window-size=1200,800", "--screenshot=\(screenshot.path)", "--dump-dom", page.absoluteString,
        ], environment: ["DBUS_SESSION_BUS_ADDRESS": "disabled:", "DISPLAY": ""], timeout: 90)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: screenshot.path), "Chromium wrote the screenshot")
        return result.stdout
    }
}
