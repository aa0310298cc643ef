import TrackwatchCore
import XCTest

/// What `mute`, `unmute` and `log --record` take as a record id (`RecordID.typed`).
final class TypedRecordIDTests: XCTestCase {
    func test_typed_takesEverySourcesKeys_asTheyAreStored() throws {
        let table: [(typed: String, id: String)] = [
            ("SAMPL00000042", "SAMPL00000042"),  // Compass
            ("WEB-42", "WEB-42"),  // Jira
            ("acme/web.site#7", "acme/web.site#7"),  // GitHub
            ("group/sub/project#3", "group/sub/project#3"),  // GitLab issue
            ("group/sub/project!4", "group/sub/project!4"),  // GitLab merge request
            ("DEMO-9", "DEMO-9"), ("DEMO/defect/7", "DEMO/defect/7"), ("DEMO/project", "DEMO/project"),  // Qase
            ("jd123@duke.edu", "jd123@duke.edu"), ("Room 101", "Room 101"), ("-1.5e3", "-1.5e3"),  // JSON lists
            ("Gerät \"Küche\"; 7", "Gerät \"Küche\"; 7"),
            (" \tWEB-42 ", "WEB-42"),  // as a JSON list trims its keys
        ]
        for (typed, id) in table {
            XCTAssertEqual(try RecordID.typed(typed), RecordID(id), typed)
        }
        let longest = String(repeating: "é", count: RecordID.longestTyped / 2)
        XCTAssertEqual(try RecordID.typed(longest).rawValue, longest)
    }

    func test_typed_refusesEmptyControlsAndOverlongText_sayingWhy_withoutEchoingControls() {
        let table: [(typed: String, problem: String)] = [
            ("", "it is empty"), ("  ", "it is empty"),
            ("WEB-42\u{1B}[31m", "it holds a control character"),
            ("WEB-42\nSAMPL00000001", "it holds a control character"),
            ("WEB\t42", "it holds a control character"),
            ("\u{202E}24-BEW", "it holds a control character"),
            ("WEB-42\u{2028}", "it holds a control character"),
            ("WEB-42\u{9B}2J", "it holds a control character"),
            (String(repeating: "a", count: RecordID.longestTyped + 1), "it is longer than 300 bytes"),
            (String(repeating: "é", count: RecordID.longestTyped / 2 + 1), "it is longer than 300 bytes"),
        ]
        for (typed, problem) in table {
            XCTAssertThrowsError(try RecordID.typed(typed), typed.debugDescription) { error in
                let refusal = error as? TypedRecordIDError
                XCTAssertEqual(refusal?.problem, problem, typed.debugDescription)
                let said = refusal?.description ?? ""
                XCTAssertTrue(said.contains("'platform/web!4'"), said)
                XCTAssertFalse(said.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E },
                               said.debugDescription)
                XCTAssertLessThan(said.utf8.count, 300, "a long text is cut")
            }
        }
    }
}
