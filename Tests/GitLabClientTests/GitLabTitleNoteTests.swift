import Glibc
import TrackwatchCore
import XCTest

@testable import GitLabClient

/// "changed title from **A** to **B**" read by its markers (issue 37 item 12, issue 32 item 9).
final class GitLabTitleNoteTests: XCTestCase {
    private func title(_ old: String?, _ new: String?) -> [FieldChange] {
        [FieldChange(field: "Title", old: old, new: new)]
    }

    func test_titleChange_whenATitleHoldsTo_orBold_orDiffMarks_readsBothTitlesWhole() {
        let cases: [(String, [FieldChange])] = [
            // issue 37 item 12: bob renaming "Bump terraform to 1.9" was silent.
            (
                "changed title from **Bump terraform to 1.9** to **Bump terraform to 1.10**",
                title("Bump terraform to 1.9", "Bump terraform to 1.10")
            ),
            // issue 32 item 9: GitLab's inline diff marks, as it writes them.
            (
                "changed title from **Bump terraform to 1.9** to **Bump terraform to 1.9{+ · bob 46+}**",
                title("Bump terraform to 1.9", "Bump terraform to 1.9 · bob 46")
            ),
            (
                "changed title from **Move{- logs-} to S3** to **Move{+ backups+} to S3**",
                title("Move logs to S3", "Move backups to S3")
            ),
            ("changed title from **{-Old-} title** to **{+New+} title**", title("Old title", "New title")),
            ("changed title from **to** to **to to**", title("to", "to to")),
            // Bold in a title, and a title that holds the separator itself: the marks tell which one it is.
            (
                "changed title from ****urgent** fix** to ****urgent** fix{+ now+}**",
                title("**urgent** fix", "**urgent** fix now")
            ),
            ("changed title from **x** to **{-y-}** to **x** to **{+z+}**", title("x** to **y", "x** to **z")),
            // An older GitLab without marks, a trailing line break.
            ("changed title from **Old title** to **New title**\n", title("Old title", "New title")),
        ]
        for (body, expected) in cases {
            XCTAssertEqual(GitLabMapping.systemNote(body, stateInNotes: false), expected, body)
        }
    }

    func test_titleChange_thatCannotBeSplit_stillSaysTheTitleChanged() {
        for body in [
            "changed title from **a** to **b** to **c**",  // no marks, two candidate splits
            "changed title from Old to New",  // no bold at all
            "changed title from **",
        ] {
            XCTAssertEqual(GitLabMapping.systemNote(body, stateInNotes: false), title(nil, nil), body)
        }
    }

    func test_titleChange_marksWithControlCharacters_areOneSafeLine() {
        let body = "changed title from **a\u{1B}[31m** to **a{+\nb+}**"
        XCTAssertEqual(GitLabMapping.systemNote(body, stateInNotes: false), title("a[31m", "a b"))
    }
}

/// A system note is read as its first 2,000 scalars (issue 36 item 12): one character of millions of marks too.
final class GitLabNoteBoundsTests: XCTestCase {
    func test_aHugeSystemNote_isReadAsItsHead_quickly() {
        let zalgo = "closed" + String(repeating: "\u{0301}", count: 5_000_000)
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        let changes = GitLabMapping.systemNote(zalgo, stateInNotes: true)
        clock_gettime(CLOCK_MONOTONIC, &end)
        XCTAssertEqual(changes, GitLabMapping.systemNote(String(zalgo.unicodeScalars.prefix(2_000)), stateInNotes: true))
        XCTAssertLessThan(Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9, 0.1)
    }
}
