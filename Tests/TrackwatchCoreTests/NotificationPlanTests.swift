import TrackwatchCore
import XCTest

final class NotificationPlanTests: XCTestCase {
    private func change(_ n: Int, headline: String = "Crash on save", priority: String = "3-Normal Queue",
                        severity: String = "3-Average") -> Change {
        Change(record: RecordID("SAMPL0000000\(n)"), kind: .modified, headline: headline, by: "lead", action: "Resolve",
               changes: [FieldChange(field: "State", old: "Opened", new: "Resolved")], priority: priority, severity: severity)
    }

    func test_oneBubblePerChange_withHeadlineAndFieldChanges() {
        let plan = NotificationPlan.make(changes: [change(1)], threshold: 3, bodyMarkup: true)
        XCTAssertEqual(plan, [DesktopNotification(
            summary: "SAMPL00000001 resolved by lead", body: "<b>Crash on save</b>\nState: Opened → Resolved",
            urgency: .normal, category: "x-trackwatch.record.changed", isSummary: false, record: RecordID("SAMPL00000001"))])
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
        XCTAssertTrue(many.body.hasSuffix("&lt;…") || many.body.hasSuffix("more"), String(many.body.suffix(40)))
        XCTAssertFalse(many.body.replacingOccurrences(of: "&lt;", with: "").contains("&"), "every entity whole")
    }

    func test_urgency_isCriticalForTopPriorityOrSeverity() {
        XCTAssertEqual(NotificationPlan.make(changes: [change(1, priority: "1-Resolve Immediately")], threshold: 3, bodyMarkup: false)[0].urgency, .critical)
        XCTAssertEqual(NotificationPlan.make(changes: [change(1, severity: "1-Critical")], threshold: 3, bodyMarkup: false)[0].urgency, .critical)
        XCTAssertEqual(NotificationPlan.make(changes: [change(1, severity: "2-Major")], threshold: 3, bodyMarkup: false)[0].urgency, .normal)
    }

    func test_moreThanThreshold_becomesOneSummaryBubble() {
        let plan = NotificationPlan.make(changes: (1...5).map { change($0) }, threshold: 3, bodyMarkup: true)
        XCTAssertEqual(plan.count, 1)
        XCTAssertTrue(plan[0].isSummary)
        XCTAssertEqual(plan[0].summary, "5 Compass changes")
        XCTAssertEqual(plan[0].body.split(separator: "\n").count, 4)
        XCTAssertTrue(plan[0].body.hasSuffix("and 2 more"))
        XCTAssertEqual(NotificationPlan.make(changes: (1...3).map { change($0) }, threshold: 3, bodyMarkup: true).count, 3)
    }
}
