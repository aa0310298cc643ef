import TrackwatchCore
import XCTest

/// Issue 32, item 5: Open goes to what changed — the comment or review that caused the change, else the item.
final class ActivityLinkTests: XCTestCase {
    let rules = ActivityRules(me: "me", comparedFields: ["Status"], assignmentFields: ["Assignee"])
    let t0 = Timestamp("2026-11-27 10:00:00")

    func item(_ link: String?) -> ActivityItem {
        ActivityItem(id: "1", record: Record(id: RecordID("WEB-1"), fields: ["Status": "To Do"]), isAssignedToMe: true,
                     facts: ItemFacts(headline: "S", state: "To Do", link: link))
    }

    func changed(_ link: String?, events: [ActivityEvent]) -> Change? {
        let before = ActivityDiff.compare(
            previous: nil, seen: [], observation: ActivityObservation(items: [item(link)], events: []), rules: rules,
            seenUpTo: { _ in nil }, checkpoint: t0)
        return ActivityDiff.compare(
            previous: Snapshot(before.delta.upserts), seen: [],
            observation: ActivityObservation(items: [item(link)], events: events), rules: rules,
            seenUpTo: { _ in nil }, checkpoint: t0
        ).changes.first
    }

    func event(_ id: String, minute: Int, link: String?) -> ActivityEvent {
        ActivityEvent(item: "1", id: id, at: t0.adding(seconds: minute * 60)!, actor: Actor(id: "bob", name: "bob"),
                      changes: [FieldChange(field: "Comment", old: nil, new: id)], link: link)
    }

    func test_theLatestEventsPlace_isAddedToTheItemsLink() {
        let page = "https://jira.example.com/browse/WEB-1"
        let events = [event("c1", minute: 1, link: nil), event("c2", minute: 2, link: "?focusedCommentId=2")]
        let comment = changed(page, events: events)
        XCTAssertEqual(comment?.link, "https://jira.example.com/browse/WEB-1?focusedCommentId=2")
        XCTAssertEqual(changed(page, events: [event("h1", minute: 1, link: nil)])?.link, page, "the item otherwise")
        XCTAssertNil(changed(nil, events: [event("c1", minute: 1, link: "#note_1")])?.link, "no place without a page")
    }
}
