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
        XCTAssertEqual(Markup.plain("a\u{0}b\u{1B}[31mc\u{202E}d\u{2066}e\nf"), "ab[31mcde\nf")
        let long = NotificationPlan.make(changes: [change(1, headline: String(repeating: "x", count: 1_000_000))],
                                         threshold: 3, bodyMarkup: false)[0]
        XCTAssertLessThanOrEqual(long.body.count, 1_000)
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
