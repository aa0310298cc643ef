import TrackwatchCore
import XCTest

/// The activity-log mechanism every event tracker shares (Jira now; GitHub and GitLab next), one rule a test.
final class ActivityDiffTests: XCTestCase {
    let me = Actor(id: "acc-me", name: "Eve Engineer")
    let alice = Actor(id: "acc-alice", name: "Alice Example")
    let robot = Actor(id: "acc-bot", name: "Automation for Jira", isApp: true)
    let rules = ActivityRules(me: "acc-me", comparedFields: ["Status", "Summary"], assignmentFields: ["Assignee"])
    let t0 = Timestamp("2026-11-27 10:00:00")

    func item(_ key: String, id: String = "1", assigned: Bool = true, mine: Bool = true, status: String = "To Do")
        -> ActivityItem
    {
        ActivityItem(
            id: id, record: Record(id: RecordID(key), fields: ["Status": status, "Summary": "S"]),
            isAssignedToMe: assigned, isMine: mine, facts: ItemFacts(headline: "S", state: status))
    }

    func event(_ id: String, item: String = "1", by actor: Actor?, at minute: Int = 5, _ changes: [FieldChange])
        -> ActivityEvent
    {
        ActivityEvent(item: item, id: id, at: t0.adding(seconds: minute * 60)!, actor: actor, changes: changes)
    }

    /// The snapshot a baseline of `items` stores.
    func baseline(_ items: [ActivityItem]) -> Snapshot {
        let outcome = ActivityDiff.compare(
            previous: nil, seen: [], observation: ActivityObservation(items: items, events: []), rules: rules,
            seenUpTo: { _ in nil }, checkpoint: t0)
        XCTAssertTrue(outcome.isBaseline)
        XCTAssertTrue(outcome.changes.isEmpty)
        return Snapshot(outcome.delta.upserts)
    }

    func diff(
        _ previous: Snapshot, _ items: [ActivityItem], _ events: [ActivityEvent], seen: Set<HistoryKey> = [],
        gone: Set<String> = [], rules: ActivityRules? = nil, seenUpTo: Timestamp? = nil, partlyRead: Set<String> = []
    ) -> DiffOutcome {
        ActivityDiff.compare(
            previous: previous, seen: seen,
            observation: ActivityObservation(items: items, events: events, gone: gone, partlyRead: partlyRead),
            rules: rules ?? self.rules, seenUpTo: { _ in seenUpTo }, checkpoint: t0)
    }

    let assign = [FieldChange(field: "Assignee", old: "Alice Example", new: "Eve Engineer")]
    let unassign = [FieldChange(field: "Assignee", old: "Eve Engineer", new: "Alice Example")]
    let start = [FieldChange(field: "Status", old: "To Do", new: "In Progress")]

    func test_anItemAssignedToMeByAColleague_isAssigned_namingThem() {
        let before = baseline([item("WEB-1", assigned: false)])
        let outcome = diff(before, [item("WEB-1")], [event("h1", by: alice, assign)])
        XCTAssertEqual(outcome.changes.map(\.kind), [.assigned])
        XCTAssertEqual(outcome.changes.first?.by, "Alice Example")
        XCTAssertEqual(outcome.changes.first?.changes, assign)
    }

    func test_anItemITookMyself_isSilent() {
        let outcome = diff(baseline([]), [item("WEB-1")], [event("h1", by: me, assign)])
        XCTAssertTrue(outcome.changes.isEmpty)
        XCTAssertEqual(outcome.silentUpdates, 1)
        XCTAssertEqual(outcome.delta.upserts.map(\.id), [RecordID("WEB-1")], "still stored")
    }

    func test_anItemNewToMe_assignedWithNoEventRead_isReportedWithoutAName() {
        let outcome = diff(baseline([]), [item("WEB-1")], [])
        XCTAssertEqual(outcome.changes.map(\.kind), [.assigned])
        XCTAssertNil(outcome.changes.first?.by)
        XCTAssertEqual(outcome.unexplained, 1)
    }

    func test_reassignedByAColleague_isUnassigned_andLeavesWhenNoLongerMine() {
        let before = baseline([item("WEB-1")])
        let outcome = diff(before, [item("WEB-1", assigned: false, mine: false)], [event("h1", by: alice, unassign)])
        XCTAssertEqual(outcome.changes.map(\.kind), [.unassigned])
        XCTAssertEqual(outcome.changes.first?.changes, unassign)
        XCTAssertEqual(outcome.delta.removals, [RecordID("WEB-1")])
    }

    func test_anItemMissingFromARead_isNeverUnassigned() {
        let before = baseline([item("WEB-1"), item("WEB-2", id: "2")])
        let outcome = diff(before, [item("WEB-2", id: "2")], [])
        XCTAssertTrue(outcome.changes.isEmpty)
        XCTAssertTrue(outcome.delta.removals.isEmpty)
    }

    func test_anItemConfirmedGone_isDroppedSilently() {
        let before = baseline([item("WEB-1"), item("WEB-2", id: "2")])
        let outcome = diff(before, [], [], gone: ["2"])
        XCTAssertTrue(outcome.changes.isEmpty)
        XCTAssertEqual(outcome.delta.removals, [RecordID("WEB-2")])
    }

    func test_aColleaguesFieldChangesAndComment_areOneModifiedChange_inOrder() {
        let before = baseline([item("WEB-1")])
        let comment = [FieldChange(field: "Comment", old: nil, new: "Can you look?")]
        let outcome = diff(
            before, [item("WEB-1", status: "In Progress")],
            [event("c1", by: alice, at: 7, comment), event("h1", by: alice, at: 6, start)])
        XCTAssertEqual(outcome.changes.count, 1)
        XCTAssertEqual(outcome.changes.first?.kind, .modified)
        XCTAssertEqual(outcome.changes.first?.changes, start + comment)
        XCTAssertEqual(outcome.changes.first?.by, "Alice Example")
    }

    func test_myOwnEdits_areSilent_evenBesideAnOldColleaguesEventSeenBefore() {
        let before = baseline([item("WEB-1")])
        let old = event("h0", by: alice, at: 1, start)
        let outcome = diff(
            before, [item("WEB-1", status: "Done")],
            [old, event("h1", by: me, [FieldChange(field: "Status", old: "In Progress", new: "Done")])],
            seen: [old.key])
        XCTAssertTrue(outcome.changes.isEmpty)
        XCTAssertEqual(outcome.silentUpdates, 1)
        XCTAssertEqual(outcome.newlySeen.map(\.action), ["h1"])
    }

    func test_eachEventCountsOnce_acrossOverlappingPolls() {
        let before = baseline([item("WEB-1")])
        let events = [event("h1", by: alice, start)]
        let first = diff(before, [item("WEB-1", status: "In Progress")], events)
        XCTAssertEqual(first.changes.count, 1)
        var after = before
        after = Snapshot(after.sortedRecords.filter { $0.id != RecordID("WEB-1") } + first.delta.upserts)
        let second = diff(after, [item("WEB-1", status: "In Progress")], events, seen: Set(first.newlySeen))
        XCTAssertTrue(second.changes.isEmpty)
        XCTAssertEqual(second.unexplained, 0, "the log was read: nothing to explain")
    }

    func test_eventsUpToSeenUpTo_areNotReported_butRemembered() {
        let before = baseline([item("WEB-1")])
        let outcome = diff(
            before, [item("WEB-1")], [event("h1", by: alice, at: 1, start)], seenUpTo: t0.adding(seconds: 120))
        XCTAssertTrue(outcome.changes.isEmpty)
        XCTAssertEqual(outcome.newlySeen.count, 1)
    }

    /// Whole-second times: a colleague's change in the same second as the stored state is in no unseen event, but
    /// the difference is still told — without a name, never taken for my own.
    func test_aDifferenceThatNoUnseenEventExplains_isToldWithoutAName() {
        let before = baseline([item("WEB-1")])
        let outcome = diff(
            before, [item("WEB-1", status: "In Progress")], [event("h1", by: alice, at: 1, start)],
            seenUpTo: t0.adding(seconds: 120))
        XCTAssertEqual(outcome.changes.map(\.kind), [.modified])
        XCTAssertNil(outcome.changes.first?.by)
        XCTAssertEqual(outcome.unexplained, 1)
        XCTAssertEqual(outcome.newlySeen.count, 1)
    }

    func test_aDifferenceToldWithoutAName_speaksThePeoplesWordsForStoredValues() {
        let shown = ActivityRules(
            me: "acc-me", comparedFields: ["Status", "Summary"], assignmentFields: ["Assignee"],
            shownValues: ["Status": ["opened": "open"]])
        let before = baseline([item("WEB-1", status: "opened")])
        let outcome = diff(before, [item("WEB-1", status: "closed")], [], rules: shown)
        XCTAssertEqual(outcome.changes.first?.changes, [FieldChange(field: "Status", old: "open", new: "closed")])
        // What is stored stays the tracker's own word: the next poll compares like with like.
        XCTAssertEqual(outcome.delta.upserts.first?["Status"], "closed")
    }

    func test_appsAndIgnoredPeople_areSilentOnlyWhenAsked() {
        let before = baseline([item("WEB-1")])
        let items = [item("WEB-1", status: "In Progress")]
        XCTAssertEqual(diff(before, items, [event("h1", by: robot, start)]).changes.first?.by, "Automation for Jira")
        let quiet = ActivityRules(
            me: "acc-me", ignoreApps: true, ignoredPeople: ["ALICE EXAMPLE"], comparedFields: [], assignmentFields: [])
        XCTAssertTrue(diff(before, items, [event("h1", by: robot, start)], rules: quiet).changes.isEmpty)
        XCTAssertTrue(diff(before, items, [event("h1", by: alice, start)], rules: quiet).changes.isEmpty)
    }

    func test_aMovedItem_isOneChangeUnderItsNewKey_neverUnassignedPlusAssigned() {
        let before = baseline([item("WEB-1")])
        let move = [FieldChange(field: "Key", old: "WEB-1", new: "OPS-9")]
        let outcome = diff(before, [item("OPS-9")], [event("h1", by: alice, move)])
        XCTAssertEqual(outcome.changes.map(\.kind), [.modified])
        XCTAssertEqual(outcome.changes.first?.record, RecordID("OPS-9"))
        XCTAssertEqual(outcome.delta.removals, [RecordID("WEB-1")])
        XCTAssertEqual(outcome.delta.upserts.map(\.id), [RecordID("OPS-9")])
    }

    func test_aDifferenceNoLogWasReadFor_isReportedWithoutAName() {
        let before = baseline([item("WEB-1")])
        let outcome = diff(before, [item("WEB-1", status: "Done")], [])
        XCTAssertEqual(outcome.changes.first?.changes, [FieldChange(field: "Status", old: "To Do", new: "Done")])
        XCTAssertNil(outcome.changes.first?.by)
        XCTAssertEqual(outcome.unexplained, 1)
    }

    func test_aNewlyWatchedItem_isAdoptedSilently() {
        let outcome = diff(baseline([]), [item("WEB-1", assigned: false)], [event("c1", by: alice, [])])
        XCTAssertTrue(outcome.changes.isEmpty)
        XCTAssertEqual(outcome.delta.upserts.count, 1)
    }

    func test_assignedCount_isTheStoredAssignmentsWithThePollsRemovalsAndUpsertsApplied() {
        func stored(_ key: String, _ assigned: Bool) -> Record {
            Record(id: RecordID(key), fields: ["Status": "To Do", ActivityDiff.assignedField: assigned ? "yes" : "no"])
        }
        let previous = Snapshot([stored("A-1", true), stored("A-2", true), stored("A-3", false), stored("A-4", true)])
        let steady = DiffOutcome(
            changes: [], delta: SnapshotDelta(), isBaseline: false, newlySeen: [], checkpoint: nil, silentUpdates: 0)
        XCTAssertEqual(ActivityDiff.assignedCount(previous: previous, outcome: steady), 3)
        var outcome = steady
        // A-1 gone, A-2 no longer mine, A-3 now mine, A-5 new and mine, A-6 stored twice: the last one counts.
        outcome.delta = SnapshotDelta(
            upserts: [
                stored("A-2", false), stored("A-3", true), stored("A-5", true),
                stored("A-6", true), stored("A-6", false),
            ],
            removals: [RecordID("A-1")])
        XCTAssertEqual(ActivityDiff.assignedCount(previous: previous, outcome: outcome), 3, "A-3, A-4, A-5")
        XCTAssertEqual(ActivityDiff.assignedCount(previous: nil, outcome: outcome), 2, "A-3, A-5")
    }

    // A log that left out entries it could not read (`partlyRead`): what no read event names is told, unnamed.

    func test_aPartlyReadLog_ofMyOwnEventsOnly_stillTellsTheDifferenceNoEventNames() {
        let before = baseline([item("WEB-1")])
        let note = [FieldChange(field: "Comment", old: nil, new: "my note")]
        let now = [item("WEB-1", status: "In Progress")]
        XCTAssertTrue(diff(before, now, [event("c1", by: me, note)]).changes.isEmpty, "a log read whole: my doing")
        let partly = diff(before, now, [event("c1", by: me, note)], partlyRead: ["1"])
        XCTAssertEqual(partly.changes.map(\.kind), [.modified])
        XCTAssertNil(partly.changes.first?.by)
        XCTAssertEqual(partly.changes.first?.changes, start)
        XCTAssertEqual(partly.unexplained, 1)
    }

    func test_aPartlyReadLog_addsWhatNoEventNames_toAColleaguesChange_butNotWhatAnEventNamed() {
        let before = baseline([item("WEB-1")])
        let note = [FieldChange(field: "Comment", old: nil, new: "see the logs")]
        let now = [item("WEB-1", status: "In Progress")]
        let outcome = diff(before, now, [event("c1", by: alice, note)], partlyRead: ["1"])
        XCTAssertEqual(outcome.changes.count, 1)
        XCTAssertEqual(outcome.changes.first?.by, "Alice Example")
        XCTAssertEqual(outcome.changes.first?.changes, note + start)
        XCTAssertTrue(diff(before, now, [event("h1", by: me, start)], partlyRead: ["1"]).changes.isEmpty, "mine, named")
    }

    func test_aPartlyReadLog_ofAnItemNoLongerAssignedToMe_withNoAssignmentEventRead_isUnassignedUnnamed() {
        let before = baseline([item("WEB-1")])
        let note = [FieldChange(field: "Comment", old: nil, new: "my note")]
        let outcome = diff(before, [item("WEB-1", assigned: false)], [event("c1", by: me, note)], partlyRead: ["1"])
        XCTAssertEqual(outcome.changes.map(\.kind), [.unassigned])
        XCTAssertNil(outcome.changes.first?.by)
        let mine = diff(before, [item("WEB-1", assigned: false)], [event("h1", by: me, unassign)], partlyRead: ["1"])
        XCTAssertTrue(mine.changes.isEmpty, "my own unassignment, read")
    }
}
