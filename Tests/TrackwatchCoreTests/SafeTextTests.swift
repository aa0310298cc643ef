import TrackwatchCore
import XCTest

/// Text from the server on its way into a terminal, a log line or sd_notify: one literal line.
final class SafeTextTests: XCTestCase {
    func test_oneLine_removesControlsAndTurnsEveryLineBreakIntoASpace() {
        XCTAssertEqual(SafeText.oneLine("a\nb\r\nc\u{0B}d\u{0C}e\u{85}f\u{2028}g\u{2029}h\ti"), "a b  c d e f g h i")
        XCTAssertEqual(SafeText.oneLine("\u{1B}]0;title\u{07}x\u{9B}31my\u{9D}z\u{7F}\u{0}"), "]0;titlex31myz")
        XCTAssertEqual(SafeText.oneLine("\u{202E}abc\u{202C}\u{2066}d\u{2069}\u{200E}\u{200F}\u{061C}"), "abcd")
        XCTAssertEqual(SafeText.oneLine("Crash on save — ünïcødé ✔ 日本"), "Crash on save — ünïcødé ✔ 日本", "text stays")
    }

    func test_oneLine_bounded_cutsAtACharacterAndMarksTheCut() {
        XCTAssertEqual(SafeText.oneLine("abcdef", maxUTF8: 6), "abcdef")
        XCTAssertEqual(SafeText.oneLine("abcdefg", maxUTF8: 6), "abc…")
        let cut = SafeText.oneLine(String(repeating: "👍🏽", count: 100), maxUTF8: 50)
        XCTAssertLessThanOrEqual(cut.utf8.count, 50)
        XCTAssertTrue(cut.hasSuffix("👍🏽…"), cut)
    }

    /// Issue 20, item 16: "Z" + 200,000 combining accents is one Character; a bound by characters alone let it
    /// through whole. Bounds count characters and Unicode scalars.
    func test_bounded_countsScalarsToo_soCombiningMarksCannotDefeatIt() {
        let zalgo = "Z" + String(repeating: "\u{0301}", count: 200_000)
        XCTAssertEqual(zalgo.count, 1)
        let cut = SafeText.bounded(zalgo, 100)
        XCTAssertLessThanOrEqual(cut.unicodeScalars.count, 400)
        XCTAssertTrue(cut.hasSuffix("…"))
        XCTAssertEqual(SafeText.bounded("abcdef", 6), "abcdef")
        XCTAssertEqual(SafeText.bounded("abcdefg", 6), "abcde…")
        XCTAssertEqual(SafeText.bounded("Crash on save — ünïcødé", 100), "Crash on save — ünïcødé")
    }

    func test_escapingControlsInJSON_keepsTheValue_writesNoControlByte() throws {
        let json = #"{"headline":"a\u001b]0;x\u0007"# + "\u{9B}b\u{202E}c\u{2028}d\u{7F}\"}"
        let escaped = SafeText.escapingControls(inJSON: json)
        XCTAssertEqual(escaped, #"{"headline":"a\u001b]0;x\u0007\u009bb\u202ec\u2028d\u007f"}"#)
    }
}
