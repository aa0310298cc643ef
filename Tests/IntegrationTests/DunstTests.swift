import Foundation
import XCTest

/// What a person sees, on a real notification server that draws bubbles: the daemon against compass-sim, with
/// dunst on Xvfb (see `DunstLab`). Checks what dunst received (summary, body, urgency, actions, icon), clicks
/// with `dunstctl action` and dunst's context menu, restarts dunst mid-run, follows a summary's "Show all" to
/// the page of recent changes and renders that page in headless Chromium. Screenshots and a transcript of the
/// bubbles go to `.build/test-output/dunst/`.
final class DunstTests: XCTestCase {
    let webURL = "https://compass.example.com/cqweb/#/{repo}/{database}/RECORD/{id}"

    func recordURL(_ id: String) -> String { "https://compass.example.com/cqweb/#/2.0.0/SAMPL/RECORD/\(id)" }
    /// Right-to-left text: a headline and two submitters' names (a free-text compared field).
    private static let hebrew = "שגיאה בשמירת הקובץ כאשר הדיסק מלא"
    private static let dana = "דנה לוי"
    private static let yael = "יעל כהן"

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
        var transcript = ""
        func quote(_ title: String, _ bubble: DunstLab.Bubble) { transcript += "## \(title) (dunst id \(bubble.id))\n\(bubble)\n\n" }

        // An assigned bubble (items 3, 4, 8): who assigned it, its priority and state; critical because a
        // priority-1 record is now mine; the icon and the desktop entry named.
        try sim.act("lead", "SAMPL00000006", "Modify", set: ["Owner=engineer", "Priority=1-Resolve Immediately"])
        notify.poll(daemon, expecting: "1 change;")
        let assigned = try XCTUnwrap(lab.waitForBubble { $0.summary.hasPrefix("SAMPL00000006") })
        quote("assigned", assigned)
        XCTAssertTrue(assigned.summary.hasPrefix("SAMPL00000006: \u{2068}"),
                      "the record, then its headline: \(assigned.summary)")
        XCTAssertEqual(plain(assigned.body),
                       "Assigned to you by lead · Priority: 1-Resolve Immediately · State: Assigned")
        XCTAssertEqual(assigned.urgency, "CRITICAL")
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: assigned.actions.map { ($0.key, $0.label) }),
                       ["default": "Open",
                        "mute": "Mute this record"], "one Open (dunst's menu shows the click), one Mute")
        XCTAssertEqual(assigned.icon,
                       packageRoot.appendingPathComponent("data/icons/hicolor/scalable/apps/trackwatch.svg").path,
                       "run from the build tree: the source tree's icon, by its path")
        XCTAssertEqual(assigned.desktopEntry, "trackwatch")
        try lab.screenshot("1-assigned.png")
        try lab.screenshot("bubble.png", cropToBubbles: true)  // docs/images/bubble.png

        // A modified bubble whose headline changed and is long (item 5): every line bounded, the headline once.
        let long = "Login fails after a password reset " + String(repeating: "when the account was locked before ", count: 12)
        try sim.act("lead", "SAMPL00000001", "Modify", set: ["Headline=\(long)"])
        notify.poll(daemon, expecting: "1 change;")
        let modified = try XCTUnwrap(lab.waitForBubble { $0.summary.hasPrefix("SAMPL00000001") })
        quote("modified", modified)
        XCTAssertTrue(plain(modified.summary).hasPrefix("SAMPL00000001: Login fails after a password reset when the"),
                      modified.summary)
        XCTAssertLessThanOrEqual(modified.summary.count, 120)
        let lines = plain(modified.body).split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "who changed it, and the old headline: \(lines)")
        XCTAssertTrue(lines[0].hasPrefix("Modified by lead · Headline was: "), "\(lines)")
        XCTAssertTrue(lines.allSatisfy { $0.count <= 120 }, "\(lines.map(\.count))")
        XCTAssertEqual((modified.summary + modified.body).components(separatedBy: "Login fails").count - 1, 1,
                       "the new headline once")
        XCTAssertEqual(modified.urgency, "NORMAL")
        try lab.screenshot("2-assigned-and-modified.png")

        // A priority-1 record leaving my hands (item 4): no emergency, whatever its priority.
        try sim.act("lead", "SAMPL00000006", "Modify", set: ["Owner=alice"])
        notify.poll(daemon, expecting: "1 change;")
        let unassigned = try XCTUnwrap(lab.waitForBubble { ($0.summary + $0.body).lowercased().contains("no longer") })
        XCTAssertTrue(unassigned.summary.hasPrefix("SAMPL00000006: "), unassigned.summary)
        XCTAssertEqual(unassigned.body, "No longer assigned to you, by \u{2068}lead\u{2069}", "by whom (issue 20, item 11)")
        XCTAssertEqual(unassigned.urgency, "NORMAL", "not red for a record that is no longer mine")

        // Issue 20, item 4: a colleague's note says what it says (before: "modified by alice", nothing else).
        try sim.act("alice", "SAMPL00000001", "Modify", set: ["Note_Entry=Please retest on Linux.\nThe fix is in 4.2."])
        notify.poll(daemon, expecting: "1 change;")
        let note = try XCTUnwrap(lab.waitForBubble { $0.summary.hasPrefix("SAMPL00000001") && $0.body.contains("Note") })
        quote("note", note)
        XCTAssertEqual(note.body.filter { $0 != "\u{2068}" && $0 != "\u{2069}" }.split(separator: "\n").first,
                       "Modified by alice · Note: Please retest on Linux.")

        // The notification server restarts (item 1): the new dunst numbers its bubbles from the start again.
        try lab.restartDunst()
        try sim.act("lead", "SAMPL00000005", "Modify", set: ["Headline=Toolbar icons blurry on HiDPI screens"])
        try sim.act("lead", "SAMPL00000021", "Modify", set: ["Headline=Search ignores accents"])
        notify.poll(daemon, expecting: "2 changes;")
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
        notify.poll(daemon, expecting: "0 changes")  // after every click the daemon had queued
        XCTAssertEqual(try String(contentsOf: opened, encoding: .utf8), recordURL("SAMPL00000005") + "\n",
                       "only the record clicked was opened, not SAMPL00000006 too")
        let muted = try workspace.trackwatch(["mute"]).stdout
        XCTAssertEqual(muted.split(separator: "\n").filter { $0.contains("SAMPL") }.count, 1, "only the record muted, not SAMPL00000001 too: \(muted)")

        // Issue 20, item 8: a right-to-left headline and right-to-left names keep their own direction, isolated;
        // every line of the bubble starts left-to-right, and the page keeps old → new in that order.
        _ = try lab.dunstctl(["close-all"])
        try sim.act("lead", "SAMPL00000017", "Modify", set: ["Headline=\(Self.hebrew)", "Submitter=\(Self.dana)"])
        notify.poll(daemon, expecting: "1 change;")
        try sim.act("alice", "SAMPL00000017", "Modify", set: ["Submitter=\(Self.yael)"])
        notify.poll(daemon, expecting: "1 change;")
        let rtl = try XCTUnwrap(lab.waitForBubble { $0.body.contains(Self.yael) })
        quote("right-to-left text", rtl)
        XCTAssertEqual(rtl.summary, "SAMPL00000017: \u{2068}\(Self.hebrew)\u{2069}")
        XCTAssertEqual(rtl.body, "Modified by \u{2068}alice\u{2069} · \u{2068}Submitter\u{2069}: "
            + "\u{2068}\(Self.dana)\u{2069} → \u{2068}\(Self.yael)\u{2069}")
        for line in (rtl.summary + "\n" + rtl.body).split(separator: "\n") {
            XCTAssertTrue(line.first?.isASCII == true && line.first?.isLetter == true, "starts left-to-right: \(line)")
        }
        try lab.screenshot("8-right-to-left.png", cropToBubbles: true)

        // A summary (items 4, 7): four changes in one poll, critical because a priority-1 record was assigned to
        // me, which comes first with the reason; its click ("Show all") opens the page of recent changes.
        _ = try lab.dunstctl(["close-all"])
        let hostile = #"<img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script> & "quotes" "#
            + "\u{202E}desrever"
        try sim.act("lead", "SAMPL00000013", "Modify", set: ["Headline=\(hostile)"])
        try sim.act("lead", "SAMPL00000014", "Modify", set: ["Owner=engineer", "Priority=1-Resolve Immediately"])
        try sim.act("lead", "SAMPL00000017", "Modify", set: ["Headline=Printing cuts the last line"])
        try sim.act("lead", "SAMPL00000033", "Modify", set: ["Headline=Undo forgets the selection"])
        notify.poll(daemon, expecting: "4 changes;")
        let summary = try XCTUnwrap(lab.waitForBubble { $0.summary == "4 Compass changes" })
        quote("summary", summary)
        XCTAssertEqual(summary.urgency, "CRITICAL")
        XCTAssertTrue(plain(summary.body).hasPrefix("SAMPL00000014 assigned to you by lead (Priority 1)\n"),
                      summary.body)
        XCTAssertTrue(summary.body.hasSuffix("\nand 1 more"), summary.body)
        XCTAssertTrue(plain(summary.body).split(separator: "\n").allSatisfy { $0.count <= 56 },
                      "short lines: \(summary.body)")
        XCTAssertEqual(summary.actions.map(\.key), ["default"])
        XCTAssertEqual(summary.actions.map(\.label), ["Show all"])
        try lab.screenshot("4-summary.png")

        // Issue 20, item 5: a second burst of 4 while the summary is up replaces it in place — and counts 8.
        for record in ["SAMPL00000001", "SAMPL00000005", "SAMPL00000013", "SAMPL00000033"] {
            try sim.act("alice", record, "Modify", set: ["Headline=Second burst \(record.suffix(2))"])
        }
        notify.poll(daemon, expecting: "4 changes;")
        let both = try XCTUnwrap(lab.waitForBubble { $0.id == summary.id && $0.body != summary.body })
        quote("summary, replaced by a second burst", both)
        XCTAssertEqual(both.summary, "8 Compass changes", "what the bubble now stands for")
        XCTAssertEqual(both.urgency, "CRITICAL", "the priority-1 record is still in it")
        XCTAssertTrue(both.body.hasSuffix("\nand 5 more"), both.body)
        XCTAssertEqual(try lab.displayed(), 1, "replaced in place")
        try lab.screenshot("4-summary-8.png")
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
        // Issue 20, item 8: the right-to-left values isolated on the page too, old before new as the arrow says.
        let isolated = "<del>\u{2068}\(Self.dana)\u{2069}</del> → <ins>\u{2068}\(Self.yael)\u{2069}</ins>"
        XCTAssertTrue(body.contains(isolated), "isolated")
        let order = try Chromium.evaluate(page, """
            const row = [...document.querySelectorAll('tr')].find(r => r.textContent.includes('\(Self.yael)'));
            const del = row.querySelector('del').getBoundingClientRect();
            const ins = row.querySelector('ins').getBoundingClientRect();
            const cell = row.querySelector('.headline').getBoundingClientRect();
            return { oldBeforeNew: del.right <= ins.left, headlineLeft: cell.left };
            """)
        XCTAssertEqual(order["oldBeforeNew"] as? Bool, true, "\(order)")
        XCTAssertTrue(plain(body).contains("critical: Priority 1-Resolve Immediately"))
        XCTAssertTrue(plain(body).contains("<strong>assigned to you by lead</strong>"))
        XCTAssertTrue(body.contains("<li>Headline was: <del>"), "the old headline")
        XCTAssertEqual(body.components(separatedBy: "Printing cuts the last line").count - 1, 1, "a changed headline once")
        // `trackwatch log --html` writes the same page.
        let printed = try workspace.trackwatch(["log", "--html"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        func withoutUpdated(_ html: String) -> String { html.split(separator: "\n").filter { !$0.contains("id=\"updated\"") }.joined() }
        XCTAssertEqual(withoutUpdated(printed.stdout), withoutUpdated(try String(contentsOf: page, encoding: .utf8)))

        // An outage and the recovery (item 6): "Compass is unavailable" for an HTTP 503 — one line of cause with the
        // server as written, one of what trackwatch does (issue 20, item 9: before, "next try in 2 s" stayed on
        // screen for minutes, and the error repeated the summary); then "Connected to Compass again" in its place.
        _ = try lab.dunstctl(["close-all"])
        try sim.inject("status", on: "POST /query", count: 3, status: 503)
        kill(daemon.processIdentifier, SIGUSR1)
        let outage = try XCTUnwrap(lab.waitForBubble { $0.summary == "Compass is unavailable" })
        try lab.screenshot("6-outage.png")
        quote("outage", outage)
        XCTAssertEqual(outage.body.split(separator: "\n").map(String.init),
                       ["\(sim.url): HTTP 503: injected fault", "trackwatch retries by itself."], outage.body)
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

extension DunstTests {
    /// Issue 20, items 6 and 7, on Debian's stock dunst (its own dunstrc): installed under ~/.local (make install),
    /// the icon is found — named by its path, since stock dunst looks names up in the system themes only — and a
    /// record opens as the docs say: a left click closes the bubble, a middle click opens the record.
    func test_onStockDunst_anInstallUnderLocal_showsItsIcon_andAMiddleClickOpens() throws {
        let output = try testOutputDirectory("dunst-stock")
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let home = workspace.directory.appendingPathComponent("home")
        let install = try runProduct("/bin/bash",
                                     [packageRoot.appendingPathComponent("scripts/install.sh").path, "install"],
                                     environment: ["HOME": home.path, "BIN": productsDirectory.path,
                                                   "MAN": "/nonexistent",
                                                   "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "", "PATH": "/usr/bin:/bin",
                                                   "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"], timeout: 120)
        XCTAssertEqual(install.status, 0, install.stdout + install.stderr)
        let lab = try DunstLab(output: output, stock: true, home: home)
        let (opener, opened) = try workspace.recordingOpener()
        workspace.interval = "10m"
        workspace.trailer = "[notify]\nopener = \"\(opener.path)\"\nweb_url = \"\(webURL)\""
        try workspace.writeConfig()
        let notify = try NotifySocket()
        let daemon = Process()
        daemon.executableURL = home.appendingPathComponent(".local/bin/trackwatch")  // as installed
        daemon.arguments = ["run", "--config", workspace.configPath]
        var environment = ProcessInfo.processInfo.environment.merging(workspace.environment) { $1 }
        environment.merge(["DBUS_SESSION_BUS_ADDRESS": lab.busAddress, "NOTIFY_SOCKET": notify.path,
                           "HOME": home.path]) { $1 }
        for name in ["DISPLAY", "JOURNAL_STREAM", "INVOCATION_ID", "XDG_DATA_DIRS"] { environment[name] = nil }
        daemon.environment = environment
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") }, "baseline: \(notify.messages)")
        func poll() {
            notify.skipReceived()
            kill(daemon.processIdentifier, SIGUSR1)
            XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains("1 change;") },
                            "\(notify.messages)")
        }

        try sim.act("lead", "SAMPL00000001", "Resolve")
        poll()
        let bubble = try XCTUnwrap(lab.waitForBubble { $0.summary.hasPrefix("SAMPL00000001") })
        let icon = home.appendingPathComponent(".local/share/icons/hicolor/scalable/apps/trackwatch.svg").path
        XCTAssertEqual(bubble.icon, icon, "named by its path: stock dunst does not look in ~/.local/share/icons")
        try lab.screenshot("stock-dunst.png", cropToBubbles: true)
        try lab.click(button: 1)
        XCTAssertTrue(try waitUntil { try lab.displayed() == 0 }, "a left click closes the bubble")
        XCTAssertEqual(try lab.history().first?.icon, icon, "dunst found the icon")

        try sim.act("lead", "SAMPL00000005", "Modify", set: ["Priority=2-Give High Attention"])
        poll()
        XCTAssertNotNil(lab.waitForBubble { $0.summary.hasPrefix("SAMPL00000005") })
        try lab.click(button: 2)
        XCTAssertTrue(waitUntil { ((try? String(contentsOf: opened,
                                                encoding: .utf8)) ?? "").contains("SAMPL00000005") })
        XCTAssertEqual(try String(contentsOf: opened, encoding: .utf8), recordURL("SAMPL00000005") + "\n",
                       "the middle click opened its record; the left click opened nothing")
        let docs = try String(contentsOf: packageRoot.appendingPathComponent("docs/notifications.md"), encoding: .utf8)
        XCTAssertTrue(docs.contains("| dunst (Debian's dunstrc) | **middle click**"), "docs/notifications.md says so")
    }
}

/// Debian's Chromium, headless: one start renders a page to a screenshot and prints the DOM after it ran.
enum Chromium {
    /// Runs `body` (a JavaScript function body returning a JSON-able value) on `page` as Chromium laid it out. The
    /// page allows no script of its own (its Content-Security-Policy), so it is loaded into a frame of a probe page
    /// beside it that reads the frame's layout (file URLs share an origin with --allow-file-access-from-files).
    static func evaluate(_ page: URL, _ body: String) throws -> [String: Any] {
        let probe = page.deletingLastPathComponent().appendingPathComponent("probe-\(UUID().uuidString.prefix(8)).html")
        defer { try? FileManager.default.removeItem(at: probe) }
        let html = """
            <!DOCTYPE html><html><body><pre id="result">pending</pre>
            <iframe src="\(page.lastPathComponent)" style="width:1200px;height:800px"></iframe>
            <script>
            document.querySelector('iframe').onload = () => {
              const document_ = frames[0].document;
              const run = (document) => { \(body) };
              let result;
              try { result = run(document_); } catch (error) { result = { error: String(error) }; }
              document.getElementById('result').textContent = JSON.stringify(result);
            };
            </script></body></html>
            """
        try Data(html.utf8).write(to: probe)
        let profile = FileManager.default.temporaryDirectory
            .appendingPathComponent("tw-chromium-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: profile) }
        let result = try runProduct("/usr/bin/chromium", [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)",
            "--allow-file-access-from-files", "--window-size=1200,800", "--virtual-time-budget=5000", "--dump-dom",
            probe.absoluteString,
        ], environment: ["DBUS_SESSION_BUS_ADDRESS": "disabled:", "DISPLAY": ""], timeout: 90)
        guard let start = result.stdout.range(of: "<pre id=\"result\">"),
            let end = result.stdout.range(of: "</pre>", range: start.upperBound..<result.stdout.endIndex)
        else {
            throw DunstLab.LabError("Chromium printed no result: \(result.stdout.prefix(300))\n\(result.stderr.suffix(300))")
        }
        let json = String(result.stdout[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&quot;",
                                                                                                 with: "\"")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;",
                with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? ["unreadable": json]
    }

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
