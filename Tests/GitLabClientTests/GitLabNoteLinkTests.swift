import Foundation
@testable import GitLabClient
import SourceKit
import TrackwatchCore
import XCTest

/// Issue 32, items 3 and 5: a comment is its anchor on the item's page; an open item's state reads "open".
final class GitLabNoteLinkTests: XCTestCase {
    let mapping = GitLabMapping(me: ActivityIdentity(id: "2", login: "engineer"), web: "https://gitlab.com")

    func test_aComment_carriesItsNoteAnchor_aSystemNoteNone() throws {
        let notes = try JSONDecoder().decode([GitLabNote].self, from: Data("""
            [{"id":31,"body":"Looks good","author":{"id":3,"username":"bob"},"created_at":"2026-01-17T12:00:00Z",
              "system":false},
             {"id":32,"body":"assigned to @carol","author":{"id":3,"username":"bob"},
              "created_at":"2026-01-17T12:01:00Z","system":true}]
            """.utf8))
        let events = notes.compactMap { mapping.event($0, item: "i9", stateInNotes: false) }
        XCTAssertEqual(events.map(\.link), ["#note_31", nil])
    }

    func test_anOpenedItem_readsOpen_itsStoredStateUnchanged() throws {
        let issue = try JSONDecoder().decode(GitLabItem.self, from: Data("""
            {"id":9,"iid":2,"title":"Add dark mode","state":"opened","references":{"full":"platform/web#2"}}
            """.utf8))
        let item = try XCTUnwrap(mapping.item(issue, mergeRequest: false, reviewRequested: false, isMine: true))
        XCTAssertEqual(item.facts.state, "open")
        XCTAssertEqual(item.record["State"], "opened", "stored as before: no spurious change after an upgrade")
    }
}
