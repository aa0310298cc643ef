import Foundation
import TrackwatchCore
import XCTest

/// The page of recent changes as text; `ChangesPageBrowserTests` renders it in Chromium.
final class ChangesPageTests: XCTestCase {
    /// Server text as the page writes it: in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE.
    private func iso(_ text: String) -> String { "\u{2068}\(text)\u{2069}" }

    private let url = "https://compass.example.com/cqweb/#/2.0.0/SAMPL/RECORD/SAMPL00000001"

    private func entry(_ change: Change, url: String? = nil) -> ChangesPage.Entry {
        ChangesPage.Entry(change: change, detected: "2026-11-22 10:05", url: url ?? self.url)
    }

    func test_eachChange_isARow_withItsLink_whoWhat_andOldToNew() {
        let resolved = Change(record: RecordID("SAMPL00000001"), kind: .modified, headline: "Crash on save", by: "lead",
                              action: "Resolve", changes: [FieldChange(field: "State", old: "Opened", new: "Resolved")])
        let page = ChangesPage.render([entry(resolved)], updated: "2026-11-22 10:06", limited: false)
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(page.contains("<a href=\"\(url)\" rel=\"noreferrer noopener\">SAMPL00000001</a>"), page)
        XCTAssertTrue(page.contains("<strong>resolved by \(iso("lead"))</strong>"))
        let field = "<li>\(iso("State")): <del>\(iso("Opened"))</del> → <ins>\(iso("Resolved"))</ins></li>"
        XCTAssertTrue(page.contains(field),
                      page)
        XCTAssertTrue(page.contains("<td class=\"when\">2026-11-22 10:05"))
        XCTAssertTrue(page.contains("Updated 2026-11-22 10:06"))
        XCTAssertTrue(ChangesPage.render([], updated: "10:06", limited: false).contains("No changes yet."))
    }

    /// Server text is hostile: markup, quotes that would end an attribute, control and bidi characters, a
    /// megabyte of text — all arrive as bounded literal text; a URL that is not http(s) is never a link.
    func test_hostileText_isEscaped_andBounded_andOnlyWebURLsAreLinks() {
        let hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'&\u{202E}\u{1B}[31m" + String(repeating: "x", count: 1_000_000)
        let change = Change(record: RecordID("SAMPL\"><script>"), kind: .modified, headline: hostile, by: "<b>lead</b>",
                            action: "Modify", changes: [FieldChange(field: "Headline", old: "</td>", new: hostile)])
        let page = ChangesPage.render([entry(change, url: "javascript:alert(3)")], updated: "<now>", limited: true)
        let body = String(page[page.range(of: "<body>")!.upperBound...])
        XCTAssertFalse(body.contains("<script"), "no element from server text")
        XCTAssertFalse(body.contains("<img"))
        XCTAssertFalse(body.contains("javascript:"), "no link to a script URL")
        XCTAssertTrue(body.contains("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;[31mx"))
        XCTAssertFalse(body.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
        XCTAssertLessThan(page.count, 5_000, "bounded")
        XCTAssertTrue(page.contains("the latest 1; older ones"))
    }

    /// Issue 20, item 16: combining marks cannot grow a row past its bounds.
    func test_combiningMarks_cannotDefeatTheRowsBounds() {
        let zalgo = "Z" + String(repeating: "\u{0301}", count: 200_000)
        let change = Change(record: RecordID("SAMPL00000001"), kind: .modified, headline: zalgo, by: zalgo,
                            action: "Modify", changes: [FieldChange(field: zalgo, old: zalgo, new: zalgo)])
        let page = ChangesPage.render([entry(change, url: "https://x/" + zalgo)], updated: "now", limited: false)
        XCTAssertLessThan(page.utf8.count, 40_000, "bounded in bytes, not only in characters")
    }

    /// The style sheet is allowed by its hash, so the policy needs no 'unsafe-inline': recompute it.
    func test_contentSecurityPolicy_allowsNothingButTheStyleSheet_byItsHash() throws {
        let page = ChangesPage.render([], updated: "now", limited: false)
        let policy = try XCTUnwrap(page.range(of: "content=\"default-src 'none'; style-src 'sha256-").map { page[$0.lowerBound...] })
        XCTAssertTrue(policy.hasPrefix("content=\"default-src 'none'; style-src 'sha256-"))
        XCTAssertFalse(page.contains("unsafe-inline"))
        let style = try XCTUnwrap(page.range(of: "<style>").flatMap { start in
            page.range(of: "</style>").map { String(page[start.upperBound..<$0.lowerBound]) }
        })
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["dgst", "-sha256", "-binary"]
        let input = Pipe(), output = Pipe()
        openssl.standardInput = input
        openssl.standardOutput = output
        try openssl.run()
        input.fileHandleForWriting.write(Data(style.utf8))
        try input.fileHandleForWriting.close()
        let digest = output.fileHandleForReading.readDataToEndOfFile()
        openssl.waitUntilExit()
        XCTAssertEqual(digest.count, 32)
        XCTAssertTrue(page.contains("style-src 'sha256-\(digest.base64EncodedString())'"),
                      "the hash in the policy is the style sheet's: sha256-\(digest.base64EncodedString())")
    }

    /// Critical changes are marked in words, not by colour alone.
    func test_criticalChange_isMarkedWithItsReason() {
        let assigned = Change(record: RecordID("SAMPL00000006"), kind: .assigned, headline: "Data loss", by: "lead",
                              action: "Assign", priority: "1-Resolve Immediately", state: "Opened")
        let page = ChangesPage.render([entry(assigned)], updated: "now", limited: false)
        XCTAssertTrue(page.contains("<tr class=\"critical\">"))
        XCTAssertTrue(page.contains("<span class=\"badge\">critical: \(iso("Priority 1-Resolve Immediately"))</span>"))
        XCTAssertTrue(page.contains("<strong>assigned to you by \(iso("lead"))</strong>"))
        XCTAssertTrue(page.contains("Priority: \(iso("1-Resolve Immediately")) · State: \(iso("Opened"))"))
    }

    /// Issue 20, item 8: every value from the server is isolated in its own direction, so that a right-to-left
    /// value reorders nothing around it (Chromium's layout is checked in `DunstTests`); the server's own isolates are
    /// removed like every other bidirectional control, and a cut leaves none open.
    func test_serverText_isIsolatedInItsOwnDirection_andNoIsolateIsLeftOpen() {
        let hebrew = "שגיאה בשמירה"
        let change = Change(record: RecordID("SAMPL00000017"), kind: .modified,
                            headline: hebrew + "\u{2068}open" + String(repeating: "א", count: 900),
                            by: "דנה", action: "Modify", changes: [FieldChange(field: "Submitter", old: "דנה",
                                                                               new: "יעל\u{2069}\u{2069}")])
        let page = ChangesPage.render([entry(change)], updated: "now", limited: false)
        XCTAssertTrue(page.contains("<strong>modified by \(iso("דנה"))</strong>"), page)
        let field = "<li>\(iso("Submitter")): <del>\(iso("דנה"))</del> → <ins>\(iso("יעל"))</ins></li>"
        XCTAssertTrue(page.contains(field),
                      page)
        let headline = String(page[page.range(of: "<span class=\"headline\">")!.upperBound...].prefix { $0 != "<" })
        XCTAssertTrue(headline.hasPrefix("\u{2068}\(hebrew)open"),
                      "the server's own isolate removed: \(headline.prefix(20))")
        XCTAssertTrue(headline.hasSuffix("…\u{2069}"), "cut, and the isolate closed: \(headline.suffix(5))")
        var open = 0
        for scalar in page.unicodeScalars {
            if scalar == "\u{2068}" { open += 1 }
            if scalar == "\u{2069}" { open -= 1; XCTAssertGreaterThanOrEqual(open, 0) }
        }
        XCTAssertEqual(open, 0, "balanced")
    }

    /// Issue 27, item 2: one change of many fields is one short row: its first fields, then how many more, counting
    /// those the stored change already counted (`FieldChange.more`).
    func test_aChangeOfManyFields_showsTheFirst_andHowManyMore() {
        let fields = (1...49).map { FieldChange(field: "f\($0)", old: "0", new: "1") } + [.more(951)]
        let change = Change(record: RecordID("1"), kind: .changed, headline: "Item 1", changes: fields, watch: "items")
        let page = ChangesPage.render(Array(repeating: entry(change), count: 200), updated: "10:06", limited: true)
        let row = self.row(change)
        XCTAssertTrue(row.contains("<li>\(iso("f10")): <del>"), row)
        XCTAssertFalse(row.contains(iso("f11")), row)
        XCTAssertTrue(row.hasSuffix("<li>and 990 more fields</li></ul></td></tr>"), row)
        XCTAssertLessThan(page.utf8.count, 1_000_000)

        let long = String(repeating: "\u{1F600}", count: 1_000)
        let wide = Change(record: RecordID("1"), kind: .changed, headline: "Item 1",
                          changes: (1...10).map { FieldChange(field: long + "\($0)", old: long, new: long) })
        XCTAssertLessThan(self.row(wide).utf8.count, 25_000, "bounded in bytes too")
        XCTAssertTrue(self.row(wide).contains("more fields</li>"))
    }

    /// The one row of a page of `change`.
    private func row(_ change: Change) -> String {
        let page = ChangesPage.render([entry(change)], updated: "10:06", limited: false)
        let start = page.range(of: "<tbody>\n")!.upperBound, end = page.range(of: "\n</tbody>")!.lowerBound
        return String(page[start..<end])
    }
}
