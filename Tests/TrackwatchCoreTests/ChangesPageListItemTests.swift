import TrackwatchCore
import XCTest

/// Issue 32, item 8: a list's item on the page is named as everywhere else, and a value set where there was none is
/// not a struck-through ∅.
final class ChangesPageListItemTests: XCTestCase {
    private func iso(_ text: String) -> String { "\u{2068}\(text)\u{2069}" }

    private func page(_ change: Change) -> String {
        ChangesPage.render([ChangesPage.Entry(change: change, detected: "10:05", url: "https://devices.example.com/2")],
                           updated: "10:06", limited: false)
    }

    func test_listItem_isLinkedByItsTitle_notByItsBareKey() {
        var titled = Change(record: RecordID("2"), kind: .changed, headline: "Pixel 8 (Android 14)", by: "Sam Carter",
                            changes: [FieldChange(field: "Checked out", old: "no", new: "yes")], watch: "devices")
        titled.naming = .title
        let link = "rel=\"noreferrer noopener\">\(iso("Pixel 8 (Android 14)"))</a>"
        XCTAssertTrue(page(titled).contains(link), page(titled))
        var untitled = titled
        untitled.naming = .key
        XCTAssertTrue(page(untitled).contains("rel=\"noreferrer noopener\">Item \(iso("2"))</a>"), page(untitled))
    }

    func test_aValueWithNothingBefore_showsTheValueAlone() {
        var entered = Change(record: RecordID("3"), kind: .entered, headline: "Pixel 9",
                             changes: [FieldChange(field: "Owner", old: nil, new: "Sam")], watch: "devices")
        entered.naming = .title
        XCTAssertTrue(page(entered).contains("<li>\(iso("Owner")): <ins>\(iso("Sam"))</ins></li>"), page(entered))
        XCTAssertFalse(page(entered).contains("∅"))
        let emptied = Change(record: RecordID("SAMPL00000001"), kind: .modified, headline: "x", by: "lead",
                             action: "Modify",
                             changes: [FieldChange(field: "Owner", old: "", new: "lead")])
        XCTAssertTrue(page(emptied).contains("<li>\(iso("Owner")): <ins>\(iso("lead"))</ins></li>"), page(emptied))
    }
}
