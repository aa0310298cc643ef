import TrackwatchCore
import XCTest

/// Issue 27, items 11 and 13: a list's item is named by its title (or `Item <key>`, never a bare number first) and
/// the words say who; a summary of several sources counts each.
final class ListItemWordingTests: XCTestCase {
    private func words(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{2068}", with: "").replacingOccurrences(of: "\u{2069}", with: "")
    }

    private func checkOut(_ key: String, title: String?, by: String? = "Sam Carter", kind: ChangeKind = .changed)
        -> Change
    {
        var change = Change(
            record: RecordID(key), kind: kind, headline: title ?? key, by: by,
            changes: kind == .changed ? [FieldChange(field: "Checked out", old: "no", new: "yes")] : [],
            watch: "devices", source: "devices")
        change.naming = title == nil ? .key : .title
        return change
    }

    func test_aTitledItem_isNamedByItsTitle_andTheSentenceSaysWho() {
        let change = checkOut("3", title: "Pixel (Android 7.1)")
        XCTAssertEqual(change.sentence, "Pixel (Android 7.1) changed by Sam Carter in devices (Checked out: no → yes)")
        let bubble = NotificationPlan.single(change, bodyMarkup: false)
        XCTAssertEqual(words(bubble.summary), "Pixel (Android 7.1)")
        XCTAssertEqual(words(bubble.body), "Changed by Sam Carter in devices · Checked out: no → yes")
    }

    func test_anItemWithoutTitle_isNamedItemAndKey_neverABareNumberFirst() {
        let change = checkOut("3", title: nil, by: nil)
        XCTAssertEqual(change.sentence, "Item 3 changed in devices (Checked out: no → yes)")
        XCTAssertEqual(words(NotificationPlan.single(change, bodyMarkup: false).summary), "Item 3")
    }

    func test_anItemEntering_saysWho_andLeaving_namesItsTitle() {
        XCTAssertEqual(checkOut("7", title: "Pixel 9", kind: .entered).sentence, "Pixel 9 now in devices, by Sam Carter")
        XCTAssertEqual(checkOut("7", title: "Pixel 9", by: nil, kind: .left).sentence, "Pixel 9 no longer in devices")
    }

    func test_aTrackersWatchedRecord_keepsItsWording() {
        let change = Change(
            record: RecordID("A-8"), kind: .changed, headline: "Crash on save", by: "lead",
            changes: [FieldChange(field: "State", old: "Opened", new: "Resolved")], watch: "Team P1s")
        XCTAssertEqual(change.sentence, "A-8 changed in Team P1s: Crash on save (State: Opened → Resolved)")
        XCTAssertEqual(words(NotificationPlan.single(change, bodyMarkup: false).summary), "A-8: Crash on save")
    }

    func test_aSummaryOfSeveralSources_countsEach_andItsLinesNameTheItems() {
        var digest = BubbleDigest()
        digest.add([
            SourceChanges(tracker: "devices", changes: (1...5).map { checkOut("\($0)", title: "Phone \($0)") }),
            SourceChanges(tracker: "Qase", changes: [
                Change(record: RecordID("DEMO/defect/1"), kind: .modified, headline: "Login fails", by: "lead"),
                Change(record: RecordID("DEMO/case/4"), kind: .modified, headline: "Checkout", by: "alice"),
            ]),
        ])
        let summary = NotificationPlan.summary(digest, bodyMarkup: false)
        XCTAssertEqual(summary.summary, "7 changes")
        XCTAssertEqual(words(summary.body).split(separator: "\n").map(String.init), [
            "DEMO/case/4 changed by alice: Checkout", "DEMO/defect/1 changed by lead: Login fails",
            "Phone 5 changed by Sam Carter in devices", "and 4 more", "5 in devices · 2 in Qase",
        ])
    }

    func test_aSummaryOfOneSource_keepsItsTitle() {
        let digest = BubbleDigest((1...4).map { checkOut("\($0)", title: "Phone \($0)") }, tracker: "Compass")
        XCTAssertEqual(NotificationPlan.summary(digest, bodyMarkup: false).summary, "4 Compass changes")
    }
}
