import TrackwatchCore
import XCTest

/// Issue 32, items 1–3: what people read of an activity log's change (Jira, GitHub, GitLab) is said in the
/// tracker's own words; the change keeps its kind, and Compass's and Qase's words stay as they were.
final class ActivityWordingTests: XCTestCase {
    private func words(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{2068}", with: "").replacingOccurrences(of: "\u{2069}", with: "")
    }

    private func change(_ kind: ChangeKind, by: String? = "bob", _ fields: [FieldChange], record: String = "acme/web#7",
                        headline: String = "Refactor the router", state: String? = "open") -> Change {
        Change(record: RecordID(record), kind: kind, headline: headline, by: by, changes: fields, state: state,
               link: "https://github.com/acme/web/pull/7")
    }

    private func body(_ change: Change) -> String {
        words(NotificationPlan.single(change, bodyMarkup: false).body)
    }

    private func field(_ name: String, _ old: String?, _ new: String?) -> FieldChange {
        FieldChange(field: name, old: old, new: new)
    }

    func test_reviewRequest_saysSo_andKeepsItsKind_whileAnAssignmentStaysAnAssignment() {
        let asked = change(.assigned, [field("Review request", nil, "added engineer")])
        XCTAssertEqual(body(asked), "bob asked for your review · State: open")
        XCTAssertEqual(
            asked.sentence, "acme/web#7 review requested by bob: Refactor the router (Review request: added engineer)")
        XCTAssertEqual(asked.kind, .assigned)
        let withdrawn = change(.unassigned, [field("Review request", nil, "removed engineer")])
        XCTAssertEqual(body(withdrawn), "bob withdrew the review request")
        XCTAssertEqual(withdrawn.summary, "acme/web#7 review request withdrawn by bob")
        // The demo's line: a real assignment reads as one.
        let assigned = change(.assigned, by: "alice", [field("Assignees", nil, "added engineer")], record: "acme/web#2")
        XCTAssertEqual(body(assigned), "Assigned to you by alice · State: open")
        XCTAssertTrue(assigned.sentence.hasPrefix("acme/web#2 assigned to you by alice"), assigned.sentence)
    }

    func test_merge_isOneLine_theSameForGitHubAndGitLab() {
        let github = change(.modified, by: "dave", [field("State", "open", "merged"), field("State", "open", "closed")])
        let gitlab = change(.modified, by: "dave", [field("State", nil, "merged")], record: "platform/web!4")
        XCTAssertEqual(body(github), "Merged by dave")
        XCTAssertEqual(body(gitlab), "Merged by dave")
        XCTAssertEqual(github.summary, "acme/web#7 merged by dave")
    }

    func test_eachDeed_readsAsTheTrackersOwnMail() {
        let long = "Looks good to me, but the retry loop in the fetcher should back off exponentially please"
        for (fields, expected) in [
            ([field("Comment", nil, long)], "bob commented: \(long)"),
            ([field("Review", nil, "approved")], "bob approved"),
            ([field("Review", nil, "changes requested: Please add tests")], "bob requested changes: Please add tests"),
            ([field("Approval", nil, "approved")], "bob approved"),
            ([field("Status", "To Do", "In Review")], "bob moved it to In Review"),
            ([field("State", "open", "closed")], "Closed by bob"),
            ([field("Labels", nil, "added bug"), field("Comment", nil, "Same here")],
             "bob commented: Same here · Labels: added bug"),
        ] {
            XCTAssertEqual(body(change(.modified, fields)), expected)
        }
    }

    /// Issue 32.7: a summary's lines say what was done, not only who; its title is short enough for every server;
    /// a Jira issue put in my hands at Highest is urgent as a Compass priority 1 is, and named first.
    func test_summary_saysWhatWasDone_andAJiraHighestIsUrgent() {
        func jira(priority: String) -> Change {
            Change(record: RecordID("WEB-6"), kind: .assigned, headline: "Footer links broken", by: "lead",
                   changes: [field("Assignee", nil, "Engineer")], priority: priority, state: "To Do",
                   link: "https://jira.example.com/browse/WEB-6")
        }
        let highest = jira(priority: "Highest")
        let digest = BubbleDigest([
            change(.modified, [field("Comment", nil, "Can you look at this?")]),
            change(.modified, by: "dave", [field("State", nil, "merged")], record: "platform/web!4"),
            change(.modified, by: "carol", [field("Review", nil, "approved")], record: "acme/web#9"),
        ], tracker: "GitHub")
        var all = digest
        all.add([highest], tracker: "Jira")
        let summary = NotificationPlan.summary(all, bodyMarkup: false)
        XCTAssertEqual(summary.summary, "4 changes")
        XCTAssertEqual(summary.urgency, .critical)
        XCTAssertEqual(words(summary.body).split(separator: "\n").map(String.init), [
            "WEB-6 assigned to you by lead (Priority Highest)", "acme/web#9: carol approved",
            "platform/web!4: Merged by dave", "and 1 more", "3 in GitHub · 1 in Jira",
        ])
        XCTAssertEqual(NotificationPlan.criticalReason(highest), "Priority Highest")
        XCTAssertNil(NotificationPlan.criticalReason(jira(priority: "Medium")), "only the top level is urgent")
    }

    func test_rename_doesNotRepeatTheNewTitle() {
        let renamed = change(.modified, [field("Title", "Router cleanup", "Refactor the router")])
        XCTAssertEqual(body(renamed), "bob renamed it from Router cleanup")
        let alongside = change(
            .modified, [field("Comment", nil, "Renamed"), field("Title", "Old", "Refactor the router")])
        XCTAssertEqual(body(alongside), "bob commented: Renamed · Title was: Old")
    }

    func test_reassignmentAwayFromMe_saysToWhom() {
        let jira = change(
            .unassigned, by: "Bob Brown", [field("Assignee", "Eve Engineer", "Carol Jones")], record: "WEB-3")
        XCTAssertEqual(body(jira), "Bob Brown reassigned it to Carol Jones")
        XCTAssertEqual(jira.summary, "WEB-3 reassigned to Carol Jones by Bob Brown")
        let github = change(
            .unassigned, [field("Assignees", nil, "removed engineer"), field("Assignees", nil, "added carol")])
        XCTAssertEqual(body(github), "bob reassigned it to carol")
    }

    func test_muteButton_namesAnItem_whereTheChangeIsAnActivityLogs() {
        let labels = NotificationPlan.single(change(.modified, [field("Comment", nil, "x")]), bodyMarkup: false)
            .buttons.map(\.label)
        XCTAssertEqual(labels, ["Open", "Mute this item"])
    }

    /// Qase's changes name fields too ("Status"), without an item's own link: their words do not change.
    func test_changesWithoutTheirOwnLink_keepTheirWords() {
        let qase = Change(record: RecordID("DEMO-12"), kind: .modified, headline: "Login", by: "bob",
                          changes: [field("Status", "Open", "Done")])
        XCTAssertEqual(body(qase), "Changed by bob · Status: Open → Done")
        XCTAssertEqual(
            NotificationPlan.single(qase, bodyMarkup: false).buttons.map(\.label), ["Open", "Mute this record"])
    }
}
