import Foundation
import XCTest

/// Issue 27, item 2: the fields of one list item, their names, what one change stores and what one change shows on
/// the page are bounded where they arrive, so that one hostile item changing every poll cannot grow the state folder
/// by megabytes a poll nor make the page of recent changes huge and slow (json-sim's `/mess/wide`, `/mess/long-name`).
final class JSONFieldBoundsTests: JSONSimTestCase {
    /// Every file under the state folder, in bytes (the database, its journal, the page).
    private func stateSize(_ workspace: Workspace) -> Int {
        let state = workspace.directory.appendingPathComponent("xdg-state/trackwatch")
        let files = FileManager.default.enumerator(at: state, includingPropertiesForKeys: [.fileSizeKey])
        return (files?.allObjects as? [URL] ?? []).reduce(0) { total, file in
            total + ((try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
        }
    }

    /// Before: ~10.8 MB more a poll (100,000 members stored in the snapshot and again in the change), and a 269 MB
    /// page for 21 such changes (120 s, 1.1 GB to write). Now the item keeps its first fields and a fingerprint of the rest, the change says
    /// how many more fields changed, and the page shows a few of them.
    func test_anItemOfManyChangingMembers_growsTheStateByLittle_andThePageStaysSmall() throws {
        let workspace = try listWorkspace("/mess/wide")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
        let before = stateSize(workspace)
        let polls = 20
        for poll in 1...polls {
            let changes = try workspace.checkChanges()
            XCTAssertEqual(changeSummaries(changes), ["1 changed"], "poll \(poll): the item changes every answer")
            // 100,007 members: the first 199 by name kept (`assignee`, `estimate`, `f000001`…`f000197`), the
            // other 99,808 one field; 198 of them change, of which the change keeps 49 and counts the rest.
            let fields = fieldChanges(changes.first)
            XCTAssertEqual(fields.count, 50, "poll \(poll)")
            XCTAssertTrue(fields.first?.hasPrefix("(other fields): 99808 fields, #") == true, "\(fields.first ?? "")")
            let member = { (answer: Int) in "answer \(answer), one of 100,000 members" }
            XCTAssertEqual(fields.dropFirst().first, "f000001: \(member(poll - 1)) → \(member(poll))")
            XCTAssertEqual(fields.last, "and 149 more fields: ∅ → ∅", "poll \(poll): \(fields.suffix(2))")
        }
        let perPoll = (stateSize(workspace) - before) / polls
        XCTAssertLessThanOrEqual(perPoll, 1_000_000, "the state folder grew by \(perPoll) bytes a poll")

        let started = Date()
        let page = try workspace.trackwatch(["log", "--html"])
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(page.status, 0, page.stderr)
        XCTAssertLessThanOrEqual(page.rawStdout.count, 5_000_000, "the page is \(page.rawStdout.count) bytes")
        XCTAssertTrue(page.stdout.contains("<li>and 188 more fields</li>"), String(page.stdout.suffix(2_000)))
        print("wide item: \(perPoll) bytes a poll; page \(page.rawStdout.count) bytes in \(seconds) s")
    }

    /// Before: ~10 MB more a poll (the name stored in the snapshot and in the change). Now a long name is cut as a
    /// long value is, its length and a fingerprint kept, so that it still names one field.
    func test_aFiveMegabyteFieldName_isCut_andGrowsTheStateByLittle() throws {
        let workspace = try listWorkspace("/mess/long-name")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
        let before = stateSize(workspace)
        let polls = 3
        for poll in 1...polls {
            let changes = try workspace.checkChanges()
            XCTAssertEqual(changeSummaries(changes), ["1 changed"], "poll \(poll)")
            let field = try XCTUnwrap((changes.first?["changes"] as? [[String: Any]])?.first?["field"] as? String)
            XCTAssertLessThanOrEqual(field.count, 200, "poll \(poll)")
            XCTAssertTrue(field.hasPrefix("nnnn") && field.contains("5000000 characters"), String(field.suffix(60)))
        }
        let perPoll = (stateSize(workspace) - before) / polls
        XCTAssertLessThanOrEqual(perPoll, 1_000_000, "the state folder grew by \(perPoll) bytes a poll")
        print("long name: \(perPoll) bytes a poll")
    }
}
