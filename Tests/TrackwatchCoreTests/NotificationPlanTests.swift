import TrackwatchCore
import XCTest

final class NotificationPlanTests: XCTestCase {
    /// Server text as bubbles carry it: in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE.
    private func iso(_ text: String) -> String { "\u{2068}\(text)\u{2069}" }

    /// The words alone, without the isolates.
    private func words(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{2068}", with: "").replacingOccurrences(of: "\u{2069}", with: "")
    }

    private func change(_ n: Int, headline: String = "Crash on save", priority: String = "3-Normal Queue",
                        severity: String = "3-Average", fields: [FieldChange] = [FieldChange(field: "State", old: "Opened", new: "Resolved")])
        -> Change
    {
        Change(record: RecordID("SAMPL0000000\(n)"), kind: .modified, headline: headline, by: "lead", action: "Resolve",
               changes: fields, priority: priority, severity: severity, state: "Resolved")
    }

    private func assigned(_ n: Int, priority: String = "2-Give High Attention", severity: String = "3-Average") -> Change {
        Change(record: RecordID("SAMPL0000000\(n)"), kind: .assigned, headline: "Dark mode contrast too low", by: "lead",
               action: "Assign", priority: priority, severity: severity, state: "Opened")
    }

    func test_oneBubblePerChange_withHeadlineAndFieldChanges_andOneOpenOneMute() {
        let plan = NotificationPlan.make(changes: [change(1)], threshold: 3, bodyMarkup: true)
        let record = RecordID("SAMPL00000001")
        XCTAssertEqual(plan, [DesktopNotification(
            summary: "SAMPL00000001: \(iso("Crash on save"))",
            body: "Resolved by \(iso("lead")) · \(iso("State")): \(iso("Opened")) → \(iso("Resolved"))",
            urgency: .normal, category: "x-trackwatch.record.changed",
            buttons: [BubbleButton(key: "default", label: "Open", action: .open(record)),
                      BubbleButton(key: "mute", label: "Mute this record", action: .mute(record))],
            record: record)])
        // Servers that draw every action as a button (xfce4-notifyd, dunst's menu) must not show "Open" twice.
        XCTAssertEqual(plan[0].buttons.map(\.label).filter { $0 == "Open" }.count, 1)
    }

    /// Issue 13, item 3: the bubble says who assigned the record and what a person decides on.
    func test_assignedBubble_saysWhoPriorityAndState_andSeverityWhereItMatters() {
        let plain = NotificationPlan.make(changes: [assigned(6)], threshold: 3, bodyMarkup: false)[0]
        XCTAssertEqual(plain.summary, "SAMPL00000006: \(iso("Dark mode contrast too low"))")
        XCTAssertEqual(words(plain.body), "Assigned to you by lead · Priority: 2-Give High Attention · State: Opened")
        let major = NotificationPlan.make(changes: [assigned(6, severity: "2-Major")], threshold: 3, bodyMarkup: false)[0]
        XCTAssertEqual(words(major.body),
                       "Assigned to you by lead · Priority: 2-Give High Attention · Severity: 2-Major · State: Opened")
    }

    func test_serverTextIsEscapedForMarkup_andLiteralWithout() {
        let hostile = change(1, fields: [FieldChange(field: "State", old: "<b>&\"x\"</b>", new: "y")])
        XCTAssertEqual(NotificationPlan.make(changes: [hostile], threshold: 3, bodyMarkup: true)[0].body,
                       "Resolved by \(iso("lead")) · \(iso("State")): "
                           + "\(iso("&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;")) → \(iso("y"))")
        XCTAssertEqual(NotificationPlan.make(changes: [hostile], threshold: 3, bodyMarkup: false)[0].body,
                       "Resolved by \(iso("lead")) · \(iso("State")): \(iso("<b>&\"x\"</b>")) → \(iso("y"))")
        XCTAssertEqual(NotificationPlan.make(changes: [change(1, headline: "<b>&</b>")], threshold: 3,
                                             bodyMarkup: true)[0].summary,
                       "SAMPL00000001: \(iso("<b>&</b>"))", "a title is plain text: servers escape it themselves")
    }

    func test_controlAndBidiCharacters_areRemoved_andLongTextBounded() {
        XCTAssertEqual(Markup.plain("a\u{0}b\u{1B}[31mc\u{202E}d\u{2066}e\nf\u{200F}g\u{200E}h\u{61C}i\tj"), "ab[31mcde fghi j")
        let long = NotificationPlan.make(changes: [change(1, headline: String(repeating: "x", count: 1_000_000))],
                                         threshold: 3, bodyMarkup: false)[0]
        XCTAssertLessThanOrEqual(long.body.count, 1_000)
    }

    /// Issue 20, item 16: a headline of one character and 200,000 combining accents was a 400 KB bubble.
    func test_combiningMarks_cannotDefeatTheBounds() {
        let zalgo = "Z" + String(repeating: "\u{0301}", count: 200_000)
        let bubbles = NotificationPlan.make(
            changes: [change(1, headline: zalgo, fields: [FieldChange(field: "Keywords", old: zalgo, new: zalgo)])],
            threshold: 3, bodyMarkup: true)
        XCTAssertLessThanOrEqual(bubbles[0].body.utf8.count, 8_000, "bounded in bytes, not only in characters")
        XCTAssertLessThanOrEqual(bubbles[0].summary.utf8.count, 1_000)
        let summary = NotificationPlan.make(changes: (1...5).map { change($0, headline: zalgo) }, threshold: 3,
                                            bodyMarkup: true)
        XCTAssertLessThanOrEqual(summary[0].body.utf8.count, 8_000)
    }

    /// Issue 13, item 5: every line is bounded, the field lines too, and a changed headline is shown once.
    func test_everyLineIsBounded_andAChangedHeadlineIsShownOnce() {
        let long = String(repeating: "word ", count: 400)
        let fields = [FieldChange(field: "Headline", old: "Old " + long, new: "New " + long),
                      FieldChange(field: String(repeating: "F", count: 300), old: long, new: long)]
            + (1...9).map { FieldChange(field: "Custom\($0)", old: "a", new: "b") }
        for markup in [false, true] {
            let bubble = NotificationPlan.make(changes: [change(1, headline: "New " + long, fields: fields)], threshold: 3,
                                               bodyMarkup: markup)[0]
            let lines = bubble.body.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.count, 6 + 1 + 1, "who and six field lines, and N more, the old headline: \(lines)")
            for line in lines { XCTAssertLessThanOrEqual(line.count, 120, line) }
            XCTAssertEqual((bubble.summary + bubble.body).components(separatedBy: "New word").count - 1, 1,
                           "the new headline once")
            XCTAssertTrue(bubble.summary.hasPrefix("SAMPL00000001: \u{2068}New word"), bubble.summary)
            XCTAssertTrue(words(lines[0]).hasPrefix("Resolved by lead · FFFF"), lines[0])
            XCTAssertEqual(words(lines[6]), "and 4 more fields")
            XCTAssertTrue(words(lines[7]).hasPrefix("Headline was: Old word"), lines[7])
            XCTAssertFalse(lines.contains { $0.hasPrefix("Headline:") }, "no Headline: old → new line")
            XCTAssertLessThanOrEqual(bubble.summary.count, 120)
        }
    }

    /// A headline cannot add lines that look like field changes, and cutting long text never splits an
    /// entity or leaves the bold tag open.
    func test_headlineCannotFakeLines_andCuttingKeepsMarkupWellFormed() {
        let faked = NotificationPlan.make(changes: [change(1, headline: "Crash\nState: Closed → Opened")], threshold: 3, bodyMarkup: true)[0]
        XCTAssertEqual(faked.summary, "SAMPL00000001: \(iso("Crash State: Closed → Opened"))")
        XCTAssertEqual(faked.body.split(separator: "\n").count, 1)
        let long = String(repeating: "&", count: 5_000)
        let ampersands = NotificationPlan.make(changes: [change(1,
            fields: [FieldChange(field: "Headline", old: long, new: "x"),
                                                                            FieldChange(field: "State", old: "a",
                                                                                        new: "b")])],
                                               threshold: 3, bodyMarkup: true)[0]
        let was = String(ampersands.body.split(separator: "\n")[1])
        XCTAssertTrue(was.hasPrefix("Headline was: \u{2068}&amp;&amp;"), was)
        XCTAssertTrue(was.hasSuffix("&amp;…\u{2069}"), "cut, the isolate closed: \(was.suffix(30))")
        XCTAssertFalse(was.replacingOccurrences(of: "&amp;", with: "").contains("&"),
                       "no broken entity: \(was.suffix(30))")
        let many = NotificationPlan.make(changes: (1...5).map { change($0, headline: String(repeating: "<", count: 400)) }, threshold: 3, bodyMarkup: true)[0]
        XCTAssertTrue(many.body.hasSuffix("more"), String(many.body.suffix(40)))
        XCTAssertFalse(many.body.replacingOccurrences(of: "&lt;", with: "").contains("&"), "every entity whole")
    }

    /// Issue 13, item 4: urgency follows what the change means for me, not the record's current level.
    func test_urgency_followsWhatTheChangeMeansForMe() {
        func urgency(_ change: Change) -> DesktopNotification.Urgency {
            NotificationPlan.make(changes: [change], threshold: 3, bodyMarkup: false)[0].urgency
        }
        XCTAssertEqual(urgency(assigned(1, priority: "1-Resolve Immediately")), .critical, "a priority-1 record assigned to me")
        XCTAssertEqual(urgency(assigned(1, severity: "1-Critical")), .critical, "a critical-severity record assigned to me")
        XCTAssertEqual(urgency(assigned(1)), .normal)
        let raised = change(1, priority: "1-Resolve Immediately",
                            fields: [FieldChange(field: "State", old: "Opened", new: "Resolved"),
                                     FieldChange(field: "Priority", old: "3-Normal Queue", new: "1-Resolve Immediately")])
        XCTAssertEqual(urgency(raised), .critical, "raised to priority 1")
        XCTAssertEqual(urgency(change(1, priority: "1-Resolve Immediately", severity: "1-Critical")), .normal,
                       "a priority-1 record resolved by a colleague: its level did not change")
        let dropped = change(1, priority: "4-Low Priority",
                             fields: [FieldChange(field: "Priority", old: "1-Resolve Immediately", new: "4-Low Priority")])
        XCTAssertEqual(urgency(dropped), .normal, "a drop is no emergency")
        let gone = Change(record: RecordID("SAMPL00000003"), kind: .unassigned, headline: "Old", priority: "1-Resolve Immediately",
                          severity: "1-Critical")
        XCTAssertEqual(urgency(gone), .normal, "a record leaving my hands")
        let watched = Change(record: RecordID("SAMPL00000008"), kind: .entered, headline: "P1", priority: "1-Resolve Immediately",
                             watch: "Team P1s")
        XCTAssertEqual(urgency(watched), .normal, "a watched query's view of a colleague's record")

        // Whatever makes it critical is in the bubble: the priority line, or the raised field first.
        XCTAssertTrue(words(NotificationPlan.make(changes: [assigned(1, severity: "1-Critical")], threshold: 3,
                                                  bodyMarkup: false)[0]
            .body).contains("Severity: 1-Critical"))
        XCTAssertEqual(words(NotificationPlan.make(changes: [raised], threshold: 3, bodyMarkup: false)[0].body),
                       "Resolved by lead · Priority: 3-Normal Queue → 1-Resolve Immediately\nState: Opened → Resolved",
                       "the raised field first, in the line every server shows")
    }

    /// A summary is critical only for a critical change, which it names first with the reason; a priority drop
    /// in a summary is not.
    func test_summary_isCriticalOnlyForACriticalChange_andSaysWhy() {
        let dropped = (1...4).map { n in
            change(n, priority: "1-Resolve Immediately",
                   fields: [FieldChange(field: "Priority", old: "1-Resolve Immediately", new: "2-Give High Attention")])
        }
        XCTAssertEqual(NotificationPlan.make(changes: dropped, threshold: 3, bodyMarkup: false)[0].urgency, .normal)
        let mixed = (1...4).map { change($0) } + [assigned(9, priority: "1-Resolve Immediately")]
        let summary = NotificationPlan.make(changes: mixed, threshold: 3, bodyMarkup: false)[0]
        XCTAssertEqual(summary.urgency, .critical)
        XCTAssertEqual(summary.body.split(separator: "\n").first.map { words(String($0)) },
                       "SAMPL00000009 assigned to you by lead (Priority 1)",
                       "no headline where only a word of it would fit")
    }

    /// Issue 13, item 7: a summary has somewhere to go — "Show all", its click, opens the page of changes.
    func test_moreThanThreshold_becomesOneSummaryBubble_withShowAll() {
        let plan = NotificationPlan.make(changes: (1...5).map { change($0) }, threshold: 3, bodyMarkup: true,
                                         tracker: "Compass")
        XCTAssertEqual(plan.count, 1)
        XCTAssertEqual(plan[0].slot, NotificationPlan.summarySlot)
        XCTAssertEqual(plan[0].summary, "5 Compass changes")
        XCTAssertEqual(plan[0].body.split(separator: "\n").map { words(String($0)) }, [
            "SAMPL00000005 resolved by lead: Crash on save", "SAMPL00000004 resolved by lead: Crash on save",
            "SAMPL00000003 resolved by lead: Crash on save", "and 2 more",
        ], "the newest first")
        XCTAssertEqual(plan[0].buttons, [BubbleButton(key: "default", label: "Show all", action: .showAll)])
        XCTAssertEqual(NotificationPlan.make(changes: (1...3).map { change($0) }, threshold: 3, bodyMarkup: true).count, 3)
        XCTAssertEqual(NotificationPlan.quietHoursSummary(changes: [change(1)], bodyMarkup: false)?.buttons.map(\.action), [.showAll])
    }

    /// Issue 13, item 6: the outage bubble and its recovery share one slot per server, so one replaces the other.
    func test_outageAndRecovery_shareTheServersSlot() {
        let down = NotificationPlan.serviceProblem(summary: "Compass is unavailable",
                                                   body: ["trackwatch keeps retrying by itself; next try at 10:35.", "HTTP 503"],
                                                   resolved: false, server: "prod", bodyMarkup: true)
        let up = NotificationPlan.serviceProblem(summary: "Connected to Compass again", body: ["Polls work again."], resolved: true,
                                                 server: "prod", bodyMarkup: true)
        let other = NotificationPlan.serviceProblem(summary: "Cannot reach Compass", body: [], resolved: false, server: "test",
                                                    bodyMarkup: true)
        XCTAssertNotNil(down.slot)
        XCTAssertEqual(down.slot, up.slot)
        XCTAssertNotEqual(down.slot, other.slot)
        XCTAssertEqual(down.body, "trackwatch keeps retrying by itself; next try at 10:35.\nHTTP 503")
        XCTAssertEqual([down.urgency, up.urgency], [.normal, .low])
        XCTAssertTrue(down.buttons.isEmpty)
    }

    /// Issue 21, item 3: the title is the record and its headline, and the body's first line says what happened and
    /// who — GNOME's message list shows about 22 characters of a title and one line of the body.
    func test_titleIsRecordAndHeadline_andTheFirstLineSaysWhatAndWho() {
        let bubble = NotificationPlan.make(changes: [change(1)], threshold: 3, bodyMarkup: true)[0]
        XCTAssertTrue(bubble.summary.hasPrefix("SAMPL00000001: "), bubble.summary)
        XCTAssertEqual(words(bubble.body), "Resolved by lead · State: Opened → Resolved")
        let gone = Change(record: RecordID("SAMPL00000003"), kind: .unassigned, headline: "Old")
        XCTAssertEqual(NotificationPlan.make(changes: [gone], threshold: 3, bodyMarkup: true)[0].body,
                       "No longer assigned to you")
        let watched = Change(record: RecordID("SAMPL00000008"), kind: .entered, headline: "P1",
                             priority: "2-Give High Attention",
                             state: "Opened", watch: "Team P1s")
        XCTAssertEqual(words(NotificationPlan.make(changes: [watched], threshold: 3, bodyMarkup: true)[0].body),
                       "Now in Team P1s · Priority: 2-Give High Attention · State: Opened")
    }

    /// Issue 21, item 1: a summary names at most three changes in lines short enough for one line of a GNOME
    /// banner each, then `and N more`: with the count in the title, all of it within GNOME's six lines.
    func test_summary_namesFewChangesInShortLines_andHowManyMore() {
        let long = String(repeating: "A long headline ", count: 20)
        let plan = NotificationPlan.make(changes: (1...9).map { change($0, headline: long) }, threshold: 20,
                                         bodyMarkup: false)
        XCTAssertEqual(plan.count, 9, "up to the threshold, one bubble each")
        let digest = BubbleDigest((1...9).map { change($0, headline: long) }, tracker: "Compass")
        let summary = NotificationPlan.summary(digest, bodyMarkup: true)
        let lines = summary.body.split(separator: "\n").map(String.init)
        XCTAssertEqual(summary.summary, "9 Compass changes")
        XCTAssertEqual(lines.count, 4)
        XCTAssertEqual(lines.last, "and 6 more")
        for line in lines { XCTAssertLessThanOrEqual(line.count, 56, line) }
    }

    /// Issue 20, item 5: what a summary stands for adds up across bursts; it names the critical ones first.
    func test_digest_countsEveryChange_andNamesCriticalOnesFirst_newestFirst() {
        var digest = BubbleDigest((1...4).map { change($0) }, tracker: "Compass")
        XCTAssertEqual(digest.count, 4)
        XCTAssertFalse(digest.isCritical)
        digest.add([assigned(8, priority: "1-Resolve Immediately")] + (5...7).map { change($0) }, tracker: "Compass")
        XCTAssertEqual(digest.count, 8)
        XCTAssertTrue(digest.isCritical)
        XCTAssertEqual(digest.changes.map(\.record.rawValue), ["SAMPL00000008", "SAMPL00000007", "SAMPL00000006"])
        let summary = NotificationPlan.summary(digest, bodyMarkup: false)
        XCTAssertEqual(summary.summary, "8 Compass changes")
        XCTAssertEqual(summary.urgency, .critical)
        XCTAssertEqual(summary.body.split(separator: "\n").last, "and 5 more")
        digest.add([change(9)], tracker: "Qase")
        let several = NotificationPlan.summary(digest, bodyMarkup: false)
        XCTAssertEqual(several.summary, "9 changes", "a title no server cuts (issue 32.7)")
        XCTAssertEqual(several.body.split(separator: "\n").last, "8 in Compass · 1 in Qase",
                       "changes of several trackers: each counted (issue 27, item 13), the largest first")
        digest.add([change(10)])
        XCTAssertEqual(NotificationPlan.summary(digest, bodyMarkup: false).summary, "10 changes",
                       "changes of a tracker not named: none counted by name")
    }

    /// Issue 32.6: what GNOME dropped unseen adds up in one running summary, every change counted under its tracker.
    func test_missedSummary_addsUpWhatWasDropped_andSaysSinceWhen() {
        var missed = BubbleDigest()
        missed.add(BubbleDigest([change(1)], tracker: "Compass"))
        missed.add(BubbleDigest([assigned(8, priority: "1-Resolve Immediately"), change(2)], tracker: "Compass"))
        missed.add(BubbleDigest([change(3), change(4)], tracker: "Qase"))
        XCTAssertEqual(missed.count, 5)
        XCTAssertTrue(missed.isCritical)
        let bubble = NotificationPlan.missed(missed, since: "9:40", bodyMarkup: false)
        XCTAssertEqual(bubble.summary, "5 changes since 9:40")
        XCTAssertEqual(bubble.slot, NotificationPlan.missedSlot)
        XCTAssertEqual(bubble.urgency, .normal, "it stays in the list; it holds no banner back")
        XCTAssertEqual(bubble.buttons.map(\.action), [.showAll])
        let lines = bubble.body.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("SAMPL00000008 assigned") == true, "the critical one first: \(lines)")
        XCTAssertEqual(lines.suffix(2), ["and 2 more", "3 in Compass · 2 in Qase"])
        XCTAssertEqual(NotificationPlan.missed(BubbleDigest([change(1)], tracker: "Compass"), since: "9:40", bodyMarkup: false)
            .summary, "1 Compass change since 9:40")
    }

    /// Issue 21, item 2: exactly one visible way to open on each server — a button where the server only runs the
    /// click (GNOME Shell, most others), none added where it shows the click itself (dunst's menu, xfce4-notifyd).
    func test_eachServer_getsExactlyOneVisibleWayToOpen() {
        let record = RecordID("SAMPL00000001")
        let buttons = [BubbleButton(key: "default", label: "Open", action: .open(record)),
                       BubbleButton(key: "mute", label: "Mute this record", action: .mute(record))]
        XCTAssertEqual(NotificationServerStyle(serverName: "gnome-shell").buttons(buttons).map(\.key),
                       ["default", "open", "mute"])
        XCTAssertEqual(NotificationServerStyle(serverName: "gnome-shell").buttons([BubbleButton(key: "default",
            label: "Show all", action: .showAll)]).map(\.label),
                       ["Show all", "Show all"])
        for shown in ["dunst", "Xfce Notify Daemon"] {
            XCTAssertEqual(NotificationServerStyle(serverName: shown).buttons(buttons), buttons, shown)
        }
        XCTAssertTrue(NotificationServerStyle(serverName: "gnome-shell").queuesBehindCritical)
        XCTAssertFalse(NotificationServerStyle(serverName: "dunst").queuesBehindCritical)
    }

    /// Issue 20, item 8: right-to-left server text is isolated, every line starts with trackwatch's own
    /// left-to-right words (or the record), and a cut never leaves an isolate open.
    func test_rightToLeftText_isIsolated_andEveryLineStartsLeftToRight() {
        let hebrew = "שגיאה בשמירת הקובץ"
        let rtl = Change(record: RecordID("SAMPL00000017"), kind: .modified, headline: hebrew, by: "דנה",
                         action: "Modify",
                         changes: [FieldChange(field: "Submitter", old: "דנה", new: "יעל"),
                                   FieldChange(field: "Headline", old: String(repeating: "א", count: 500),
                                               new: hebrew)])
        let bubble = NotificationPlan.make(changes: [rtl], threshold: 3, bodyMarkup: true)[0]
        XCTAssertEqual(bubble.summary, "SAMPL00000017: \(iso(hebrew))")
        XCTAssertEqual(bubble.body.split(separator: "\n").first,
                       "Modified by \(iso("דנה")) · \(iso("Submitter")): \(iso("דנה")) → \(iso("יעל"))")
        for line in (bubble.summary + "\n" + bubble.body).split(separator: "\n") {
            XCTAssertTrue(line.first?.isASCII == true && line.first?.isLetter == true, String(line))
            XCTAssertEqual(line.filter { $0 == "\u{2068}" }.count, line.filter { $0 == "\u{2069}" }.count,
                           "balanced: \(line)")
        }
        XCTAssertEqual(Markup.oneLine("a\u{2069}b\u{2068}c\u{2066}d"), "ab\u{2068}cd\u{2069}",
                       "unmatched ones dropped, open ones closed")
    }
}
