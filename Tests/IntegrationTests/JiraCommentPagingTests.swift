import Foundation
import XCTest

/// Issue 37 item 5: an issue's comments beyond one page, against jira-sim over real HTTP. Jira Cloud embeds only the
/// first comments in a search answer and serves the rest in pages; every page is read.
final class JiraCommentPagingTests: XCTestCase {
    var sim: JiraSim!
    var workspace: Workspace!

    override func setUpWithError() throws {
        sim = try JiraSim()
        workspace = try Workspace(serverURL: sim.url)
        try workspace.useJira(sim)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    func test_fiveNewComments_withPagesOfThree_areEachReported() throws {
        try sim.switches(#"{"embeddedLimit": 3, "maxResults": 3}"#)
        for number in 1...5 { try sim.act("alice", "comment", "WEB-5", "Remark \(number)") }
        try sim.resetStats()
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["WEB-5 modified"])
        let lines = (changes.first?["changes"] as? [[String: Any]] ?? []).compactMap { $0["new"] as? String }
        XCTAssertEqual(lines, (1...5).map { "Remark \($0)" }, "\(changes)")
        XCTAssertEqual(try sim.requestsByRoute()["GET /issue/{idOrKey}/comment"], 2, "two pages of three")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "each reported once")
    }
}
