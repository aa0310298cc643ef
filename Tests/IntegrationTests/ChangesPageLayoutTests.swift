import Foundation
import TrackwatchCore
import XCTest

/// Issue 20, item 11: the page of recent changes as Chromium lays it out — values in the Changes column wrap
/// between words, never inside one, and a long headline does not take the Changes column's width.
final class ChangesPageLayoutTests: XCTestCase {
    func test_changesColumn_wrapsBetweenWords_andLongHeadlinesLeaveItItsWidth() throws {
        let long = String(repeating: "Printing cuts the last line of every report ", count: 12)
        let fields = [FieldChange(field: "Priority", old: "2-Give High Attention", new: "1-Resolve Immediately"),
                      FieldChange(field: "Severity", old: "3-Average", new: "1-Critical"),
                      FieldChange(field: "Keywords", old: "printing, reports, layout", new: "printing, pagination")]
        let entries = (1...3).map { number in
            ChangesPage.Entry(
                change: Change(record: RecordID("SAMPL0000000\(number)"), kind: .modified, headline: long, by: "lead",
                               action: "Modify", changes: fields),
                detected: "2026-11-24 10:0\(number)", url: "https://compass.example.com/\(number)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tw-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("changes.html")
        try Data(ChangesPage.render(entries, updated: "now", limited: false).utf8).write(to: page)

        let layout = try Chromium.evaluate(page, """
            const table = document.querySelector('table').getBoundingClientRect();
            const cell = document.querySelector('td.changes');
            const split = [];
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              for (const match of node.data.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                if (tops.size > 1) split.push(match[0]);
              }
            }
            return { split, share: cell.getBoundingClientRect().width / table.width };
            """)
        XCTAssertEqual(layout["split"] as? [String], [], "words broken across lines: \(layout)")
        XCTAssertGreaterThanOrEqual(layout["share"] as? Double ?? 0, 0.3, "the Changes column's share of the width: \(layout)")
    }
}
