import Foundation
@testable import JiraClient
import TrackwatchCore
import XCTest

/// Issue 32.3: a Jira issue's state is its Status, in Jira's word, wherever people read it.
final class JiraWordsTests: XCTestCase {
    func test_anIssuesState_isItsStatus_inJirasWord() throws {
        let mapping = JiraMapping(me: "me", url: "https://jira.example.com")
        let issue = try JSONDecoder().decode(JiraIssue.self, from: Data(
            #"{"id":"10001","key":"WEB-6","fields":{"summary":"Footer","status":{"name":"To Do"},"assignee":{"accountId":"me"}}}"#.utf8))
        let item = try XCTUnwrap(mapping.item(issue, isMine: true))
        XCTAssertEqual(item.facts.state, "To Do")
        XCTAssertEqual(item.facts.stateField, "Status")
        var change = Change(record: item.record.id, kind: .assigned, headline: item.facts.headline, by: "Bob Brown",
                            changes: [FieldChange(field: "Assignee", old: nil, new: "Engineer")], state: item.facts.state,
                            link: item.facts.link)
        change.stateField = item.facts.stateField
        let body = NotificationPlan.single(change, bodyMarkup: false).body
            .replacingOccurrences(of: "\u{2068}", with: "").replacingOccurrences(of: "\u{2069}", with: "")
        XCTAssertEqual(body, "Assigned to you by Bob Brown · Status: To Do")
    }
}
