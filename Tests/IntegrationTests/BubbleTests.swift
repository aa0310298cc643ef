import Foundation
import TestSupport
import XCTest

/// The daemon's bubbles through a real notification server (python-dbusmock on a private session bus):
/// the Open and Mute buttons, quiet hours, the priority threshold.
final class BubbleTests: XCTestCase {
    private var bus: SessionBus!

    override func setUpWithError() throws {
        bus = try SessionBus.shared.get()
        try bus.startNotificationServer(capabilities: "body body-markup actions")
    }

    override func tearDown() {
        bus?.stopServers()
        super.tearDown()
    }

    /// - Parameter stderr: a `Pipe` the test reads after the daemon ends, or a `FileHandle`.
    private func startDaemon(_ workspace: Workspace, notify: NotifySocket, stderr: Any, timeZone: String? = nil) throws -> Process {
        try workspace.startDaemon(notify: notify, stderr: stderr, bus: bus, environment: timeZone.map { ["TZ": $0] } ?? [:])
    }

    func test_openAndMuteButtons() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let (opener, opened) = try workspace.recordingOpener()
        workspace.trailer = "[notify]\nopener = \"\(opener.path)\"\nweb_url = \"https://compass.example.com/cqweb/#/{repo}/{database}/RECORD/{id}\""
        try workspace.writeConfig()
        let notify = try NotifySocket()
        let daemon = try startDaemon(workspace, notify: notify, stderr: Pipe())
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try bus.clearCalls()

        try sim.act("lead", "SAMPL00000001", "Modify", set: ["Priority=1-Resolve Immediately"])
        notify.poll(daemon, expecting: "1 change;")
        let calls = try bus.notifyCalls()
        XCTAssertEqual(calls.count, 1)
        XCTAssertTrue(calls.first?.summary.contains("SAMPL00000001") == true)
        let actions = calls.first?.actions ?? []
        XCTAssertEqual(actions, ["default", "Open", "open", "Open", "mute", "Mute this record"],
                       "the click, a visible Open (dbusmock is not a server known to show the click) and Mute")

        // dbusmock numbers notifications from 1: this is the first one since it started.
        try bus.invokeAction("default", onNotification: 1)
        XCTAssertTrue(waitUntil { ((try? String(contentsOf: opened, encoding: .utf8)) ?? "").contains("SAMPL00000001") })
        XCTAssertEqual(try String(contentsOf: opened, encoding: .utf8),
                       "https://compass.example.com/cqweb/#/2.0.0/SAMPL/RECORD/SAMPL00000001\n", "the opener got the record's URL")

        try bus.invokeAction("mute", onNotification: 1)
        XCTAssertTrue(try waitUntil { try workspace.trackwatch(["mute"]).stdout.contains("SAMPL00000001") }, "muted by the button")

        // Muted: a change that does not touch Owner or State is journaled only.
        try sim.act("alice", "SAMPL00000001", "Modify", set: ["Priority=3-Normal Queue"])  // another user: Compass stamps seconds
        notify.poll(daemon, expecting: "1 change;")
        XCTAssertEqual(try bus.notifyCalls().filter { $0.summary.contains("SAMPL00000001") }.count, 1, "no bubble while muted")
        // A state change lifts the mute: shown again.
        try sim.act("lead", "SAMPL00000001", "Resolve")
        notify.poll(daemon, expecting: "1 change;")
        XCTAssertEqual(try bus.notifyCalls().filter { $0.summary.contains("SAMPL00000001") }.count, 2, "shown after it changed state")
        XCTAssertFalse(try workspace.trackwatch(["mute"]).stdout.contains("SAMPL00000001"), "the mute is gone")
    }

    /// Issue 20, item 10: a muted record raised to priority 1 breaks through the mute (before: silent), and the page
    /// of recent changes marks the changes the mute kept off the desktop (before: nothing said they were muted).
    func test_mutedRecordMadeCritical_breaksThrough_andThePageMarksMutedChanges() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let notify = try NotifySocket()
        let daemon = try startDaemon(workspace, notify: notify, stderr: FileHandle.nullDevice)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        XCTAssertEqual(try workspace.trackwatch(["mute", "SAMPL00000001"]).status, 0)
        try bus.clearCalls()

        try sim.act("alice", "SAMPL00000001", "Modify", set: ["Priority=3-Normal Queue", "Keywords=muted"])
        notify.poll(daemon, expecting: "1 change;")
        XCTAssertEqual(try bus.notifyCalls().count, 0, "muted: journaled only")
        try sim.act("lead", "SAMPL00000001", "Modify", set: ["Priority=1-Resolve Immediately"])
        notify.poll(daemon, expecting: "1 change;")
        let calls = try bus.notifyCalls()
        XCTAssertEqual(calls.count, 1, "raised to priority 1: shown although muted")
        XCTAssertEqual(calls.first?.hints["urgency"] as? Int, 2, "critical")
        XCTAssertTrue(try workspace.trackwatch(["mute"]).stdout.contains("SAMPL00000001"), "still muted for the rest")

        let page = try String(contentsOf: workspace.directory.appendingPathComponent("xdg-state/trackwatch/changes.html"),
                              encoding: .utf8)
        let rows = page.components(separatedBy: "<tr").filter { $0.contains("SAMPL00000001") }
        XCTAssertEqual(rows.count, 2, page)
        XCTAssertFalse(rows[0].contains("muted"), "the raise was shown: \(rows[0])")
        XCTAssertTrue(rows[1].contains("<span class=\"badge muted\">muted</span>"), "the mute kept it off the desktop: \(rows[1])")
        let log = try workspace.trackwatch(["log", "--json"])
        XCTAssertEqual(log.objects.map { $0["muted"] as? Bool ?? false }, [false, true], log.stdout)
    }

    /// Issue 27, item 8: the page as the poll that found a muted record's change leaves it marks that change muted
    /// (before: the page was written before delivery decided, and not again after).
    func test_thePageAfterAPoll_marksTheChangeAMuteKeptOffTheDesktop() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let notify = try NotifySocket()
        let daemon = try startDaemon(workspace, notify: notify, stderr: FileHandle.nullDevice)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        XCTAssertEqual(try workspace.trackwatch(["mute", "SAMPL00000001"]).status, 0)
        try bus.clearCalls()

        try sim.act("alice", "SAMPL00000001", "Modify", set: ["Priority=3-Normal Queue", "Keywords=muted"])
        notify.poll(daemon, expecting: "1 change;")
        XCTAssertEqual(try bus.notifyCalls().count, 0, "muted: journaled only")
        let page = try String(contentsOf: workspace.directory.appendingPathComponent("xdg-state/trackwatch/changes.html"),
                              encoding: .utf8)
        let rows = page.components(separatedBy: "<tr").filter { $0.contains("SAMPL00000001") }
        XCTAssertEqual(rows.count, 1, page)
        XCTAssertTrue(rows.first?.contains("<span class=\"badge muted\">muted</span>") == true, "\(rows)")
    }

    func test_quietHours_holdBubbles_thenOneSummary_andMinPriorityKeepsLowOnesInTheJournal() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let now = Calendar.current.dateComponents([.hour, .minute], from: Date())
        let minute = (now.hour ?? 0) * 60 + (now.minute ?? 0)
        func clock(_ minutes: Int) -> String {
            let wrapped = (minutes % 1_440 + 1_440) % 1_440
            return String(format: "%02d:%02d", wrapped / 60, wrapped % 60)
        }
        workspace.trailer = "[notify]\nquiet = \"\(clock(minute - 60))-\(clock(minute + 60))\"\nmin_priority = 2"
        try workspace.writeConfig()
        let notify = try NotifySocket()
        let stderr = Pipe()
        let daemon = try startDaemon(workspace, notify: notify, stderr: stderr)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try bus.clearCalls()

        try bus.startNotificationServer()  // dbusmock's defaults: no "actions", so bubbles get no buttons
        try sim.act("lead", "SAMPL00000001", "Modify", set: ["Priority=1-Resolve Immediately"])
        try sim.act("lead", "SAMPL00000005", "Modify", set: ["Priority=4-Low Priority"])
        notify.poll(daemon, expecting: "2 changes;")
        XCTAssertEqual(try bus.notifyCalls().count, 0, "quiet hours: nothing shown")

        // Quiet hours moved elsewhere, configuration reloaded: they are over, one summary follows.
        workspace.trailer = "[notify]\nquiet = \"\(clock(minute + 120))-\(clock(minute + 180))\"\nmin_priority = 2"
        try workspace.writeConfig()
        kill(daemon.processIdentifier, SIGHUP)
        let calls = try bus.waitForNotifyCalls(1)
        XCTAssertEqual(calls.map(\.summary), ["1 Compass change during quiet hours"], "only the important one was held")
        XCTAssertTrue(calls.first?.body.contains("SAMPL00000001") == true, calls.first?.body ?? "")
        XCTAssertEqual(calls.first?.actions, [], "no buttons for a server without actions")
        notify.poll(daemon, expecting: "0 changes")
        XCTAssertEqual(try bus.notifyCalls().count, 1, "the summary is shown once")

        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(log.contains("SAMPL00000005 modified by lead"), "the low-priority change is journaled: \(log)")
        XCTAssertTrue(log.contains("SAMPL00000001 modified by lead"), log)
    }

    /// Two `[[server]]` profiles in one daemon, one with a `[[watch]]`: a record entering the watched query is a
    /// bubble naming the query, and its Open button opens the record on the server that reported it.
    func test_watchedQueryOnTheSecondServer_isABubble_andOpenGoesToThatServer() throws {
        let prod = try Simulator(), test = try Simulator()
        let workspace = try Workspace(serverURL: prod.url)
        let (opener, opened) = try workspace.recordingOpener()
        try test.act("alice", "SAMPL00000003", "Modify", set: ["Priority=3-Normal Queue"])
        func profile(_ name: String, _ url: String) -> String {
            "[[server]]\nname = \"\(name)\"\nurl = \"\(url)\"\nrepo = \"2.0.0\"\ndatabase = \"SAMPL\"\nusername = \"engineer\"\n"
                + "password_file = \"\(workspace.passwordFile)\"\ntimeout = \"5s\"\n\n"
        }
        workspace.customConfig = profile("prod", prod.url) + profile("test", test.url) + """
            [[watch]]
            server = "test"
            query = "Public Queries/Team P1s"
            [poll]
            interval = "10m"
            [notify]
            opener = "\(opener.path)"
            web_url = "{url}/r/{id}"
            """
        try workspace.writeConfig()
        let notify = try NotifySocket()
        let daemon = try startDaemon(workspace, notify: notify, stderr: Pipe())
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") }, "\(notify.messages)")
        try bus.clearCalls()

        try test.act("alice", "SAMPL00000003", "Modify", set: ["Priority=1-Resolve Immediately"])
        notify.poll(daemon, expecting: "in watched queries, 1 change;")
        XCTAssertTrue(notify.messages.contains { $0.contains(": prod: 8 assigned, 0 changes; test: 8 assigned, 9 in watched queries, 1 change;") },
                      "one status line, each server named: \(notify.messages)")
        let calls = try bus.notifyCalls()
        XCTAssertEqual(calls.map(\.summary), ["SAMPL00000003: \u{2068}\"Save as\" dialog forgets folder\u{2069}"])
        XCTAssertEqual(calls.first?.body.hasPrefix("Now in \u{2068}Team P1s\u{2069} · "), true, calls.first?.body ?? "")

        try bus.invokeAction("default", onNotification: 1)
        XCTAssertTrue(waitUntil { ((try? String(contentsOf: opened, encoding: .utf8)) ?? "").contains("SAMPL00000003") })
        XCTAssertEqual(try String(contentsOf: opened, encoding: .utf8), "\(test.url)/r/SAMPL00000003\n",
                       "opened on the server whose watch reported it")

        // Muted from the command line while the daemon runs: leaving the watched query is journaled only
        // (entering or leaving a watched query does not lift a mute).
        XCTAssertEqual(try workspace.trackwatch(["mute", "SAMPL00000003"]).status, 0)
        try test.act("alice", "SAMPL00000003", "Modify", set: ["Priority=3-Normal Queue"])
        notify.poll(daemon, expecting: "in watched queries, 1 change;")
        XCTAssertEqual(try bus.notifyCalls().count, 1, "no bubble for a muted record")
        XCTAssertEqual(try workspace.trackwatch(["log", "--record", "SAMPL00000003"]).lines.count, 2, "but it is logged")

        // Steady state of the daemon: the query's id is remembered, 2 requests for the watch per poll.
        let before = try test.stats()["requestsByRoute"] as? [String: Int] ?? [:]
        notify.poll(daemon, expecting: "in watched queries, 0 changes;")
        let after = try test.stats()["requestsByRoute"] as? [String: Int] ?? [:]
        XCTAssertEqual(after["GET /workspace/folders"], before["GET /workspace/folders"], "no new lookup of the query")
        XCTAssertEqual((after["POST /workspace/queryDefs/{id}/resultsets"] ?? 0) - (before["POST /workspace/queryDefs/{id}/resultsets"] ?? 0), 1)
        XCTAssertEqual(after["POST /authenticate"], before["POST /authenticate"], "no login per poll")
    }

    /// A colleague's headline full of markup, terminal escapes, bidirectional marks, a fake second line and a
    /// megabyte of text, and then bytes that are not UTF-8: each bubble shows literal, bounded, well-formed text.
    func test_hostileHeadline_reachesTheDesktopAsLiteralBoundedText() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        workspace.interval = "10m"  // only the polls the test asks for
        try workspace.writeConfig()
        let notify = try NotifySocket()
        // Its log repeats the megabyte headline: nobody reads it here, so it must not fill a pipe.
        let daemon = try startDaemon(workspace, notify: notify, stderr: FileHandle.nullDevice)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try bus.clearCalls()

        let hostile = "<b>Bold</b> & <a href='x'>link</a>\u{1B}[31m red\u{200F}\u{202E}desrever\nState: Closed → Opened "
            + String(repeating: "long ", count: 210_000)
        let file = workspace.directory.appendingPathComponent("headline")
        try Data(hostile.utf8).write(to: file)
        XCTAssertGreaterThan(try Data(contentsOf: file).count, 1_000_000)
        try sim.act("lead", "SAMPL00000001", "Modify", setFile: ["Headline=\(file.path)"])
        notify.poll(daemon, expecting: "1 change;")
        let bubble = try XCTUnwrap(try bus.notifyCalls().first)
        // The headline is in the title, which is plain text (servers escape it themselves), one line, bounded.
        XCTAssertTrue(bubble.summary.hasPrefix("SAMPL00000001: \u{2068}<b>Bold</b> & <a href='x'>link</a>[31m "
                                               + "reddesrever "
                                               + "State: Closed → Opened long long"),
                      String(bubble.summary.prefix(200)))
        XCTAssertTrue(bubble.summary.hasSuffix("…\u{2069}"), String(bubble.summary.suffix(40)))
        XCTAssertLessThanOrEqual(bubble.summary.count, 120, "bounded")
        let lines = bubble.body.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines,
            ["Modified by \u{2068}lead\u{2069} · Headline was: "
                + "\u{2068}Crash on save &amp; exit &lt;b&gt;now&lt;/b&gt;\u{2069}"],
                       "who, and the old headline, escaped: nothing faked")
        XCTAssertFalse((bubble.summary + bubble.body).unicodeScalars.contains {
            $0.value < 0x20 && $0 != "\n" || [0x200F, 0x202E].contains($0.value)
        })

        // Bytes that are not UTF-8 in the result page: the poll fails and shows nothing (repaired text would make
        // up changes, issue 12 item 3); the next poll shows the change once, as it is.
        // alice: lead's second Modify within the same second would share the first one's history key.
        try sim.act("alice", "SAMPL00000001", "Modify", set: ["Headline=Crash on save", "Priority=4-Low Priority"])
        try bus.clearCalls()
        try sim.inject("bad-utf8", on: "GET /query/{id}")  // the first page: "assigned to me", with record 1's headline
        notify.poll(daemon, expecting: "not valid UTF-8")
        XCTAssertEqual(try bus.notifyCalls().count, 0, "a broken page shows nothing")
        notify.poll(daemon, expecting: "1 change;")
        let bodies = try bus.notifyCalls().map { $0.summary + "\n" + $0.body }
        XCTAssertEqual(bodies.count, 1, "\(bodies.map { $0.prefix(80) })")
        XCTAssertTrue(bodies[0].contains("Crash on save") && !bodies[0].contains("\u{FFFD}"), String(bodies[0].prefix(200)))
    }

    /// An outage on the desktop: one "Compass is unavailable" (HTTP 502) after three failed polls (the daemon's own
    /// retries), saying what and where, and that trackwatch retries by itself; "Connected to Compass again" in its
    /// place; then the change made meanwhile — on a server without action buttons, so the change's bubble has none.
    func test_outageAndRecovery_areOneBubbleEach_andNoButtonsWithoutActions() throws {
        try bus.startNotificationServer()  // dbusmock's defaults: no "actions"
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        workspace.interval = "10m"
        workspace.extraPollLines = ["first_retry = \"1s\""]
        try workspace.writeConfig()
        let notify = try NotifySocket()
        let daemon = try startDaemon(workspace, notify: notify, stderr: FileHandle.nullDevice)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") })
        try bus.clearCalls()

        // 502: an outage (a 500 from POST /query would be taken for a server without ad-hoc queries).
        try sim.inject("status", on: "POST /query", count: 3, status: 502)
        try sim.act("lead", "SAMPL00000001", "Resolve")
        kill(daemon.processIdentifier, SIGUSR1)
        // Retried after 1 s and 2 s, then announced; the retry after 4 s succeeds.
        let calls = try bus.waitForNotifyCalls(3, timeout: 20)
        XCTAssertEqual(calls.map(\.summary), ["Compass is unavailable", "Connected to Compass again",
                                              "SAMPL00000001: \u{2068}Crash on save & exit <b>now</b>\u{2069}"],
                       "the server answered 502: unavailable, not unreachable")
        XCTAssertEqual(calls[0].body, "\(sim.url): HTTP 502: injected fault\ntrackwatch retries by itself.")
        XCTAssertEqual(calls[0].replacesID, 0)
        XCTAssertGreaterThan(calls[1].replacesID, 0, "the recovery replaces the outage bubble in place")
        XCTAssertEqual(calls[2].actions, [], "no buttons for a server without actions")
        XCTAssertEqual(try sim.stats()["loginFailures"] as? Int, 0)
        notify.poll(daemon, expecting: "0 changes")
        XCTAssertEqual(try bus.notifyCalls().count, 3, "nothing repeated")
    }

    /// Quiet hours end on the daemon's own timer, with an injected clock: the daemon's time zone is set so that
    /// its local time is 00:00:45 now, inside quiet hours 23:00-00:01. The change is held, and when the local
    /// clock reaches 00:01 the one summary bubble follows by itself — no signal, no reload.
    func test_quietHoursEnd_onTheDaemonsOwnClock_withOneSummary() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        workspace.interval = "10m"
        workspace.trailer = "[notify]\nquiet = \"23:00-00:01\""
        try workspace.writeConfig()
        // POSIX TZ "QHT+hh:mm:ss": local time = UTC − offset. Pick the offset that makes it 00:00:45 now.
        let secondOfDay = Int(Date().timeIntervalSince1970) % 86_400
        let offset = ((secondOfDay - 45) % 86_400 + 86_400) % 86_400
        let timeZone = String(format: "QHT+%02d:%02d:%02d", offset / 3_600, offset / 60 % 60, offset % 60)
        let notify = try NotifySocket()
        let daemon = try startDaemon(workspace, notify: notify, stderr: FileHandle.nullDevice, timeZone: timeZone)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll 00:00:") }, "the daemon's clock reads 00:00: \(notify.messages)")
        try bus.clearCalls()

        try sim.act("lead", "SAMPL00000001", "Resolve")
        notify.poll(daemon, expecting: "1 change;")
        XCTAssertEqual(try bus.notifyCalls().count, 0, "held during quiet hours")
        let started = Date()
        let calls = try bus.waitForNotifyCalls(1, timeout: 40)
        XCTAssertEqual(calls.map(\.summary), ["1 Compass change during quiet hours"])
        XCTAssertTrue(calls.first?.body.contains("SAMPL00000001 resolved by \u{2068}lead\u{2069}") == true,
                      calls.first?.body ?? "")
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "shown when quiet hours ended, about 00:01:01 local")

        try sim.act("lead", "SAMPL00000005", "Modify", set: ["Priority=1-Resolve Immediately"])
        notify.poll(daemon, expecting: "1 change;")
        XCTAssertEqual(try bus.notifyCalls().last?.body.hasPrefix("Modified by \u{2068}lead\u{2069} · "), true,
                       "shown at once after quiet hours")
    }
}
