import Foundation
import XCTest

/// What a person sees on GNOME Shell 43 (issue 21): the real daemon against compass-sim, its bubbles on a headless
/// GNOME Shell (`GnomeLab`, one shell for the class), read back through Eval, hovered and clicked with a virtual
/// pointer. Screenshots and a transcript go to `.build/test-output/gnome/`.
final class GnomeTests: XCTestCase {
    nonisolated(unsafe) private static var lab: Result<GnomeLab, any Error>?
    nonisolated(unsafe) private static var transcript = ""
    private static let webURL = "https://compass.example.com/cqweb/#/{repo}/{database}/RECORD/{id}"
    /// A right-to-left headline: it keeps its own direction, and the bubble's lines stay left-to-right.
    private static let hebrew = "שגיאה בשמירת הקובץ כאשר הדיסק מלא"

    override class func setUp() {
        super.setUp()
        lab = Result { try GnomeLab(output: try testOutputDirectory("gnome")) }
    }

    override class func tearDown() {
        if case .success(let lab) = lab {
            try? Data(transcript.utf8).write(to: lab.output.appendingPathComponent("bubbles.txt"))
            lab.stop()
        }
        lab = nil
        super.tearDown()
    }

    private var lab: GnomeLab { get throws { try XCTUnwrap(Self.lab).get() } }

    override func setUpWithError() throws { try lab.reset() }

    /// The daemon (from the build tree, its icon not installed) on a fresh compass-sim, its baseline taken.
    private final class Run {
        let sim: Simulator
        let workspace: Workspace
        let notify: NotifySocket
        let daemon: Process
        let opened: URL

        init(lab: GnomeLab) throws {
            sim = try Simulator()
            workspace = try Workspace(serverURL: sim.url)
            let (opener, opened) = try workspace.recordingOpener()
            self.opened = opened
            workspace.interval = "10m"  // only the polls the test asks for
            workspace.trailer = "[notify]\nopener = \"\(opener.path)\"\nweb_url = \"\(GnomeTests.webURL)\""
            try workspace.writeConfig()
            notify = try NotifySocket()
            daemon = try workspace.startDaemon(
                notify: notify, environment: ["DBUS_SESSION_BUS_ADDRESS": lab.busAddress])
            XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") }, "baseline: \(notify.messages)")
        }

        deinit { stopAndWait(daemon) }

        func poll(expecting changes: String) {
            notify.poll(daemon, expecting: changes)
        }

        func waitForOpened(_ text: String) -> String {
            var content = ""
            _ = waitUntil {
                content = (try? String(contentsOf: opened, encoding: .utf8)) ?? ""
                return content.contains(text)
            }
            return content
        }
    }

    private func quote(_ title: String, _ value: Any) {
        Self.transcript += "## \(title)\n\(value)\n\n"
    }

    /// A banner's region with a margin, for a cropped screenshot.
    private func region(_ banner: GnomeLab.Banner) -> [Int] {
        [banner.box[0] - 12, banner.box[1] - 12, banner.box[2] + 24, banner.box[3] + 24]
    }

    /// Items 2, 3 and 5 (and issue 20, item 8): a hovered banner shows an "Open" button, which opens the record; the
    /// icon is found although trackwatch runs from the build tree; record, what happened and who stay visible in
    /// the banner and in the message list; a right-to-left headline turns no line around.
    func test_aChange_opensFromAVisibleButton_andKeepsWhoAndWhatVisible_inTheBannerAndTheList() throws {
        let lab = try lab
        let run = try Run(lab: lab)
        try run.sim.act(
            "lead", "SAMPL00000005", "Modify",
            set: ["Priority=2-Give High Attention", "Headline=Toolbar icons blurry on HiDPI screens"])
        run.poll(expecting: "1 change;")
        let banner = try XCTUnwrap(try lab.waitForBanner { $0.title.contains("SAMPL00000005") }, lab.describeTray())
        quote("a change: the banner", banner)
        XCTAssertTrue(banner.titleShown.contains("SAMPL00000005"), banner.titleShown)
        let firstLine = try XCTUnwrap(banner.bodyShown.lines.first).text
        XCTAssertTrue(
            firstLine.contains("lead") && firstLine.contains("Priority"),
            "who and what, in the one line shown: \(firstLine)")
        XCTAssertTrue(banner.iconFound, "an icon GNOME finds, not a broken image: \(banner.icon ?? "none")")

        let hovered = try XCTUnwrap(try lab.hoverBanner(), "the banner expands under the pointer")
        quote("a change: hovered", hovered)
        try lab.screenshot("1-change-hovered.png", crop: region(hovered))  // docs/images/gnome.png
        XCTAssertEqual(hovered.buttons.map(\.label), ["Open", "Mute this record"], "one visible way to open")
        let open = try XCTUnwrap(hovered.buttons.first { $0.label == "Open" })
        try lab.click(at: open.at)
        XCTAssertEqual(
            run.waitForOpened("SAMPL00000005"), "https://compass.example.com/cqweb/#/2.0.0/SAMPL/RECORD/SAMPL00000005\n"
        )

        // A colleague resolves another record, whose headline is right-to-left (issue 20, item 8): it keeps its
        // own direction, and no line of the bubble turns around. Then the banner goes to the message list.
        try run.sim.act(
            "alice", "SAMPL00000001", "Modify", set: ["Headline=\(Self.hebrew)", "Priority=4-Low Priority"])
        run.poll(expecting: "1 change;")
        XCTAssertNotNil(try lab.waitForBanner { $0.title.contains("SAMPL00000001") })
        let rtl = try XCTUnwrap(try lab.hoverBanner())
        quote("a right-to-left headline: hovered", rtl)
        try lab.screenshot("2-right-to-left.png", crop: region(rtl))
        XCTAssertEqual(rtl.title, "SAMPL00000001: \u{2068}\(Self.hebrew)\u{2069}", "the headline, whole, isolated")
        XCTAssertFalse(rtl.titleRTL, "the title stays left-to-right: \(rtl.title)")
        XCTAssertEqual(rtl.bodyShown.lines.filter(\.rtl).map(\.text), [], "no line turned right-to-left")

        let cards = try lab.openMessageList()
        quote("the message list", cards)
        try lab.screenshot("3-message-list.png", crop: [180, 30, 920, 330])
        let card = try XCTUnwrap(cards.first { $0.title.contains("SAMPL00000001") }, "\(cards)")
        XCTAssertTrue(card.titleShown.contains("SAMPL00000001"), "the record: \(card.titleShown)")
        XCTAssertTrue(
            card.bodyShown.contains("Modified") && card.bodyShown.contains("alice")
                && card.bodyShown.contains("Priority"),
            "what happened and who, in the line the list shows: \(card.bodyShown)")
        XCTAssertFalse(cards.contains { $0.title.contains("SAMPL00000005") }, "the record opened left the list")
        // In the list, a click on the card opens the record too (the bubble's click, `default`).
        try lab.click(at: [card.box[0] + card.box[2] / 2, card.box[1] + card.box[3] / 2])
        XCTAssertTrue(
            run.waitForOpened("SAMPL00000001").hasSuffix("/RECORD/SAMPL00000001\n"), "opened from the message list")
    }

    /// Items 1 and 2: a summary says what it stands for within the six lines an expanded GNOME banner shows — the
    /// count in its title, a line per change named, `and N more` — and its "Show all" is a button.
    func test_aSummary_saysWhatItStandsFor_withinWhatGnomeShows_andShowAllIsAButton() throws {
        let lab = try lab
        let run = try Run(lab: lab)
        for record in ["SAMPL00000001", "SAMPL00000005", "SAMPL00000013", "SAMPL00000017", "SAMPL00000033"] {
            try run.sim.act(
                "lead", record, "Modify",
                set: ["Headline=A fairly long headline about record \(record.suffix(2)) that wraps"])
        }
        run.poll(expecting: "5 changes;")
        XCTAssertNotNil(try lab.waitForBanner { $0.title.contains("5 Compass changes") }, lab.describeTray())
        let hovered = try XCTUnwrap(try lab.hoverBanner())
        quote("a summary: hovered", hovered)
        try lab.screenshot("4-summary-hovered.png", crop: region(hovered))
        XCTAssertTrue(
            hovered.titleShown.hasPrefix("5 Compass changes"), "the count, always visible: \(hovered.titleShown)")
        XCTAssertFalse(hovered.bodyShown.cut, "nothing left out: \(hovered.bodyShown.text)")
        XCTAssertEqual(hovered.bodyShown.text.last, "and 2 more", "\(hovered.bodyShown.text)")
        XCTAssertEqual(hovered.bodyShown.lines.count, 4, "one line per change named: \(hovered.bodyShown.text)")
        XCTAssertEqual(hovered.buttons.map(\.label), ["Show all"])

        try lab.click(at: try XCTUnwrap(hovered.buttons.first).at)
        let page = run.workspace.directory.appendingPathComponent("xdg-state/trackwatch/changes.html")
        XCTAssertEqual(run.waitForOpened("file://"), "file://\(page.path)\n")
    }

    /// Item 6: GNOME holds every later banner back while a critical one is up; a later change is folded into the
    /// critical bubble, replaced in place, which stays critical.
    func test_aCriticalBubble_doesNotHoldBackLaterChanges() throws {
        let lab = try lab
        let run = try Run(lab: lab)
        try run.sim.act("lead", "SAMPL00000006", "Modify", set: ["Owner=engineer", "Priority=1-Resolve Immediately"])
        run.poll(expecting: "1 change;")
        let critical = try XCTUnwrap(try lab.waitForBanner { $0.title.contains("SAMPL00000006") })
        XCTAssertEqual(critical.urgency, 3, "critical: a priority-1 record is now mine")

        try run.sim.act("lead", "SAMPL00000021", "Modify", set: ["Headline=Search ignores accents"])
        run.poll(expecting: "1 change;")
        let folded = try XCTUnwrap(
            try lab.waitForBanner(timeout: 10) { $0.body.contains("SAMPL00000021") },
            "the later change is visible: " + lab.describeTray())
        quote("a critical bubble, a later change folded in", folded)
        try lab.screenshot("5-critical-folded.png", crop: region(folded))
        XCTAssertEqual(folded.title, "2 Compass changes")
        XCTAssertEqual(folded.urgency, 3, "still critical: the priority-1 record is in it")
        XCTAssertTrue(
            folded.body.hasPrefix("SAMPL00000006 assigned to you by \u{2068}lead\u{2069} (Priority 1)\n"),
            "the critical change first, with why: \(folded.body)")
        let tray = try lab.tray()
        XCTAssertEqual(tray.queued, [], "nothing waits behind it")
        XCTAssertEqual(tray.notifications.count, 1, "replaced in place: \(tray.notifications.map(\.title))")
    }

    /// Issue 32.6: GNOME keeps three notifications of one application, each fourth expiring the oldest at once. What
    /// it dropped unseen is folded into a running summary that stays (`N changes since H:MM`, Show all): five
    /// changes in two polls leave the summary of the three dropped and the two newest, every change findable.
    func test_whatGnomeDropsUnseen_isFoldedIntoARunningSummary_thatStays() throws {
        let lab = try lab
        let run = try Run(lab: lab)
        let first = ["SAMPL00000001", "SAMPL00000005", "SAMPL00000013"], then = ["SAMPL00000017", "SAMPL00000033"]
        for record in first {
            try run.sim.act("lead", record, "Modify", set: ["Headline=Headline of \(record.suffix(2))"])
        }
        run.poll(expecting: "3 changes;")
        XCTAssertTrue(try waitUntil(timeout: 20) { try lab.tray().notifications.count == 3 }, lab.describeTray())
        for record in then {
            try run.sim.act("lead", record, "Modify", set: ["Headline=Headline of \(record.suffix(2))"])
        }
        run.poll(expecting: "2 changes;")
        var tray = try lab.tray()
        let settled = try waitUntil(timeout: 20) {
            tray = try lab.tray()
            return tray.notifications.contains { $0.title.hasPrefix("3 Compass changes since ") }
        }
        quote("what GNOME dropped, folded", tray.notifications.map { "\($0.title)\n\($0.body)" }.joined(separator: "\n--\n"))
        XCTAssertTrue(settled, "the three dropped are one summary: \(tray)")
        XCTAssertEqual(tray.notifications.count, 3, "GNOME's three: \(tray.notifications.map(\.title))")
        let summary = try XCTUnwrap(tray.notifications.first { $0.title.contains(" since ") })
        XCTAssertNotNil(summary.title.firstMatch(of: /^3 Compass changes since \d{1,2}:\d\d$/), summary.title)
        XCTAssertEqual(summary.actions.contains("Show all"), true, "\(summary.actions)")
        let everything = tray.notifications.map { $0.title + "\n" + $0.body }.joined(separator: "\n")
        for record in first + then {
            XCTAssertTrue(everything.contains(record), "\(record) is findable: \(everything)")
        }
        for record in first { XCTAssertTrue(summary.body.contains(record), "\(record) in the summary: \(summary.body)") }
    }

    /// Item 4: installed under ~/.local (not on GNOME's PATH), the desktop entry names the binary by its absolute
    /// path, so GNOME matches the bubbles to it (its name and per-app settings apply); `doctor` checks the entry
    /// and the icon as GNOME finds them, and fails an entry GNOME would ignore.
    func test_theInstalledDesktopEntry_isFoundByGnome_andDoctorChecksItAndTheIcon() throws {
        let installed = try GnomeLab(output: lab.output) { home in
            let result = try runProduct(
                "/bin/bash", [packageRoot.appendingPathComponent("scripts/install.sh").path, "install"],
                environment: [
                    "HOME": home.path, "BIN": productsDirectory.path, "MAN": "/nonexistent",
                    "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "", "PATH": "/usr/bin:/bin",
                    "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent",
                ], timeout: 120)
            XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        }
        defer { installed.stop() }
        let binary = installed.home.appendingPathComponent(".local/bin/trackwatch").path
        struct App: Decodable { let id: String; let name: String; let exec: String?; let tryExec: String? }
        let app = try installed.read(
            App.self,
            """
            (() => { const a = imports.gi.Shell.AppSystem.get_default().lookup_app('trackwatch.desktop');
              return a && { id: a.get_id(), name: a.get_name(), exec: a.app_info.get_executable(),
                            tryExec: a.app_info.get_string('TryExec') }; })()
            """)
        quote("GNOME's app for trackwatch.desktop", app as Any)
        XCTAssertEqual(app?.exec, binary, "Exec= names the binary by its absolute path")
        XCTAssertEqual(app?.tryExec, binary)

        let environment = installed.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        let test = try runProduct(binary, ["notify-test"], environment: environment)
        XCTAssertTrue(test.stdout.contains("✔ bubble shown by gnome-shell"), test.stdout)
        var source: GnomeLab.Source?
        _ = try waitUntil {
            source = try installed.tray().sources.first; return source != nil
        }
        XCTAssertEqual(source?.app, "trackwatch.desktop", "GNOME matched the bubble to the entry")
        XCTAssertEqual(source?.notifications.first?.iconFound, true, "\(String(describing: source))")

        let doctor = try runProduct(
            binary, ["doctor", "--config", "/nonexistent/config.toml"], environment: environment)
        quote("doctor, installed", doctor.stdout)
        let entry = installed.home.appendingPathComponent(".local/share/applications/trackwatch.desktop").path
        XCTAssertTrue(doctor.lines.contains("✔ desktop entry \(entry) (Exec=\(binary))"), doctor.stdout)
        let icon = installed.home.appendingPathComponent(".local/share/icons/hicolor/scalable/apps/trackwatch.svg").path
        XCTAssertTrue(doctor.lines.contains("✔ icon \(icon)"), doctor.stdout)

        // An entry that names the command alone, ~/.local/bin not on the PATH: GNOME ignores it, and so does doctor.
        let bare = installed.directory.appendingPathComponent("bare/applications/trackwatch.desktop")
        try FileManager.default.createDirectory(at: bare.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(
            try String(contentsOfFile: entry, encoding: .utf8).replacingOccurrences(of: binary, with: "trackwatch").utf8
        )
        .write(to: bare)
        XCTAssertEqual(
            try installed.eval("imports.gi.Gio.DesktopAppInfo.new_from_filename('\(bare.path)') === null"), "true",
            "GNOME does not take an entry whose program it cannot find")
        let ignored = try runProduct(
            binary, ["doctor", "--config", "/nonexistent/config.toml"],
            environment: environment.merging(
                ["XDG_DATA_HOME": bare.deletingLastPathComponent().deletingLastPathComponent().path]) { $1 })
        XCTAssertTrue(ignored.stdout.contains("✘ desktop entry \(bare.path): GNOME ignores it"), ignored.stdout)
    }
}
