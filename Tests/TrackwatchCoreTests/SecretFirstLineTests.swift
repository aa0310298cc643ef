import TrackwatchCore
import XCTest

/// What a credential file's first line gives: the secret without the blanks and line endings around it.
final class SecretFirstLineTests: XCTestCase {
    private func line(_ text: String) -> Secret.FirstLine { Secret.firstLine(of: Array(text.utf8)) }

    func test_theFirstLine_trimmedOfSpacesTabsAndCarriageReturns() {
        XCTAssertEqual(line("s3cret\n"), .secret(Secret("s3cret")))
        XCTAssertEqual(line(" \t s3cret \r\r\nsecond line\n"), .secret(Secret("s3cret")))
        XCTAssertEqual(line("pass word with inner spaces"), .secret(Secret("pass word with inner spaces")))
        XCTAssertEqual(line("tab\tinside"), .controlCharacter, "a tab inside is a control character")
        XCTAssertEqual(line("é-ü ✓\r\n"), .secret(Secret("é-ü ✓")))
    }

    func test_blankOrEmpty_isEmpty() {
        for text in ["", "\n", " \t\r\n", "\r", "\nsecret on the second line\n"] {
            XCTAssertEqual(line(text), .empty, text.debugDescription)
        }
    }

    func test_aControlCharacterInside_isRefused() {
        XCTAssertEqual(line("to\u{1B}ken\n"), .controlCharacter)
        XCTAssertEqual(line("to\u{7F}ken"), .controlCharacter)
        XCTAssertEqual(line("to\u{85}ken"), .controlCharacter)
    }
}
