import TrackwatchCore
import XCTest

final class NotificationPlanTests: XCTestCase {
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
            summary: "SAMPL00000001 resolved by lead", body: "<b>Crash on save</b>\nState: Opened → Resolved",
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
        XCTAssertEqual(plain.summary, "SAMPL00000006 assigned to you by lead")
        XCTAssertEqual(plain.body, "Dark mode contrast too low\nPriority: 2-Give High Attention · State: Opened")
        let major = NotificationPlan.make(changes: [assigned(6, severity: "2-Major")], threshold: 3, bodyMarkup: false)[0]
        XCTAssertEqual(major.body.split(separator: "\n").last, "Priority: 2-Give High Attention · Severity: 2-Major · State: Opened")
    }

    func test_serverTextIsEscapedForMarkup_andLiteralWithout() {
        let hostile = change(1, headline: "<b>&\"x\"</b>")
        XCTAssertEqual(NotificationPlan.make(changes: [hostile], threshold: 3, bodyMarkup: true)[0].body.split(separator: "\n")[0],
                       "<b>&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;</b>")
        XCTAssertEqual(NotificationPlan.make(changes: [hostile], threshold: 3, bodyMarkup: false)[0].body.split(separator: "\n")[0],
                       "<b>&\"x\"</b>")
    }

    func test_controlAndBidiCharacters_areRemoved_andLongTextBounded() {
        XCTAssertEqual(Markup.plain("a\u{0}b\u{1B}[31mc\u{202E}d\u{2066}e\nf\u{200F}g\u{200E}h\u{61C}i\tj"), "ab[31mcde fghi j")
        let long = NotificationPlan.make(changes: [change(1, headline: String(repeating: "x", count: 1_000_000))],
                                         threshold: 3, bodyMarkup: false)[0]
        XCTAssertLessThanOrEqual(long.body.count, 1_000)
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
            XCTAssertEqual(lines.count, 1 + 1 + 6 + 1, "headline, the old one, six field lines, and N more: \(lines)")
            for line in lines {
                let text = markup ? line.replacingOccurrences(of: "<b>", with: "").replacingOccurrences(of: "</b>", with: "") : line
                XCTAssertLessThanOrEqual(text.count, 120, text)
            }
            XCTAssertEqual(bubble.body.components(separatedBy: "New word").count - 1, 1, "the new headline once: \(lines)")
            XCTAssertTrue(lines[1].hasPrefix("Headline was: Old word"), lines[1])
            XCTAssertFalse(lines.contains { $0.hasPrefix("Headline:") }, "no Headline: old → new line")
            XCTAssertEqual(lines.last, "and 4 more fields")
            XCTAssertLessThanOrEqual(bubble.summary.count, 120)
        }
    }

    /// A headline cannot add lines that look like field changes, and cutting long text never splits an
    /// entity or leaves the bold tag open.
    func test_headlineCannotFakeLines_andCuttingKeepsMarkupWellFormed() {
        let faked = NotificationPlan.make(changes: [change(1, headline: "Crash\nState: Closed → Opened")], threshold: 3, bodyMarkup: true)[0]
        XCTAssertEqual(faked.body, "<b>Crash State: Closed → Opened</b>\nState: Opened → Resolved")
        let ampersands = NotificationPlan.make(changes: [change(1, headline: String(repeating: "&", count: 5_000))], threshold: 3, bodyMarkup: true)[0]
        XCTAssertTrue(ampersands.body.hasPrefix("<b>&amp;&amp;"), ampersands.body)
        XCTAssertTrue(ampersands.body.contains("…</b>\nState: Opened → Resolved"), "the cut is inside the bold text: \(ampersands.body.suffix(60))")
        let unescaped = ampersands.body.replacingOccurrences(of: "&amp;", with: "").replacingOccurrences(of: "<b>", with: "")
            .replacingOccurrences(of: "</b>", with: "")
        XCTAssertFalse(unescaped.contains("&") || unescaped.contains("<"), "no broken entity or tag: \(unescaped.prefix(80))")
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
        XCTAssertTrue(NotificationPlan.make(changes: [assigned(1, severity: "1-Critical")], threshold: 3, bodyMarkup: false)[0]
            .body.contains("Severity: 1-Critical"))
        XCTAssertEqual(NotificationPlan.make(changes: [raised], threshold: 3, bodyMarkup: false)[0].body.split(separator: "\n")[1],
                       "Priority: 3-Normal Queue → 1-Resolve Immediately")
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
        XCTAssertEqual(summary.body.split(separator: "\n").first,
                       "SAMPL00000009 assigned to you by lead (Priority 1-Resolve Immediately): Dark mode contrast too low")
    }

    /// Issue 13, item 7: a summary has somewhere to go — "Show all", its click, opens the page of changes.
    func test_moreThanThreshold_becomesOneSummaryBubble_withShowAll() {
        let plan = NotificationPlan.make(changes: (1...5).map { change($0) }, threshold: 3, bodyMarkup: true,
                                         tracker: "Compass")
        XCTAssertEqual(plan.count, 1)
        XCTAssertEqual(plan[0].slot, NotificationPlan.summarySlot)
        XCTAssertEqual(plan[0].summary, "5 Compass changes")
        XCTAssertEqual(plan[0].body.split(separator: "\n").count, 4)
        XCTAssertTrue(plan[0].body.hasSuffix("and 2 more"))
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
}
