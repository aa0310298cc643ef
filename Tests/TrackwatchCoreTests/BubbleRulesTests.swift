@testable import CompassClient
import TrackwatchCore
import XCTest

final class BubbleRulesTests: XCTestCase {
    private func change(_ kind: ChangeKind = .modified, fields: [String] = ["Priority"], priority: String? = "3-Normal Queue",
                        severity: String? = "3-Average") -> Change {
        Change(record: RecordID("SAMPL00000001"), kind: kind, headline: "h",
               changes: fields.map { FieldChange(field: $0, old: "a", new: "b") }, priority: priority, severity: severity)
    }

    func test_quietHours_parseAndWrapPastMidnight() throws {
        let night = try XCTUnwrap(QuietHours(parsing: "22:00-08:00"))
        XCTAssertTrue(night.contains(minuteOfDay: 23 * 60))
        XCTAssertTrue(night.contains(minuteOfDay: 7 * 60 + 59))
        XCTAssertFalse(night.contains(minuteOfDay: 8 * 60))
        XCTAssertFalse(night.contains(minuteOfDay: 21 * 60 + 59))
        XCTAssertEqual(night.minutesUntilEnd(from: 23 * 60), 9 * 60)
        XCTAssertEqual(night.minutesUntilEnd(from: 12 * 60), 0)
        let lunch = try XCTUnwrap(QuietHours(parsing: " 12:00 - 13:30 "))
        XCTAssertTrue(lunch.contains(minuteOfDay: 12 * 60 + 45))
        XCTAssertEqual("\(lunch)", "12:00-13:30")
        for bad in ["22-08", "25:00-08:00", "22:00", "10:00-10:00", "ab:cd-01:00", "1:000-2:00"] {
            XCTAssertNil(QuietHours(parsing: bad), bad)
        }
    }

    func test_verdicts() {
        var rules = BubbleRules(quiet: QuietHours(parsing: "22:00-08:00"), minPriority: 2)
        let noon = 12 * 60, night = 23 * 60
        XCTAssertEqual(rules.verdict(for: change(priority: "1-Resolve Immediately"), muted: false, minuteOfDay: noon).0, .show)
        XCTAssertEqual(rules.verdict(for: change(priority: "1-Resolve Immediately"), muted: false, minuteOfDay: night).0, .hold)
        XCTAssertEqual(rules.verdict(for: change(priority: "4-Low Priority"), muted: false, minuteOfDay: noon).0, .journalOnly)
        XCTAssertEqual(rules.verdict(for: change(priority: nil, severity: nil), muted: false, minuteOfDay: noon).0, .show,
                       "nothing to judge by: not hidden")
        rules.minSeverity = 2
        XCTAssertEqual(rules.verdict(for: change(priority: "4-Low Priority", severity: "1-Critical"), muted: false, minuteOfDay: noon).0,
                       .show, "severity alone is enough")

        let plain = BubbleRules()
        XCTAssertTrue(plain.verdict(for: change(), muted: true, minuteOfDay: noon) == (.journalOnly, false), "muted")
        XCTAssertTrue(plain.verdict(for: change(fields: ["State"]), muted: true, minuteOfDay: noon) == (.show, true), "State lifts it")
        XCTAssertTrue(plain.verdict(for: change(.unassigned, fields: []), muted: true, minuteOfDay: noon) == (.show, true))
        XCTAssertTrue(plain.verdict(for: change(fields: ["State"]), muted: false, minuteOfDay: noon) == (.show, false))
    }

    /// Issue 20, item 10: a change that makes a muted record critical is what a mute must never hide.
    func test_aMutedRecordMadeCritical_breaksThroughTheMute() {
        let raised = Change(record: RecordID("SAMPL00000001"), kind: .modified, headline: "h",
                            changes: [FieldChange(field: "Priority", old: "3-Normal Queue", new: "1-Resolve Immediately")],
                            priority: "1-Resolve Immediately")
        let noon = 12 * 60
        XCTAssertTrue(BubbleRules().verdict(for: raised, muted: true, minuteOfDay: noon) == (.show, false),
                      "shown, and the mute stays for what is not critical")
        let quiet = BubbleRules(quiet: QuietHours(parsing: "11:00-13:00"))
        XCTAssertTrue(quiet.verdict(for: raised, muted: true, minuteOfDay: noon) == (.hold, false), "quiet hours still hold it")
        XCTAssertTrue(BubbleRules().verdict(for: change(), muted: true, minuteOfDay: noon) == (.journalOnly, false))
    }

    func test_recordURL_fillsTheTemplate_andEncodesValues() {
        let server = ServerConfig(url: "https://compass.example.com:8190/ccmweb/rest/", repo: "2.0.0", database: "SAMPL DB",
                                  username: "engineer")
        XCTAssertEqual(server.recordURL(RecordID("SAMPL00000042")),
                       "https://compass.example.com:8190/cqweb/#/2.0.0/SAMPL%20DB/RECORD/SAMPL00000042&recordType=Defect&format=HTML&noframes=false")
        var custom = server
        custom.webURL = "https://web/{id}?x={id}"
        XCTAssertEqual(custom.recordURL(RecordID("A&B")), "https://web/A%26B?x=A%26B")
    }

    /// The journal's `action=` reads as words, not as Swift's `Optional("devices")` (issue 27, item 14).
    func test_bubbleActions_readAsWords() {
        XCTAssertEqual("\(BubbleAction.open(RecordID("3"), source: "devices"))", "open 3 in devices")
        XCTAssertEqual("\(BubbleAction.mute(RecordID("SAMPL00000042")))", "mute SAMPL00000042")
        XCTAssertEqual("\(BubbleAction.showAll)", "show all")
    }
}
