@testable import CompassClient
import Foundation
import TrackwatchCore
import XCTest

final class SnapshotDiffTests: XCTestCase {
    private func record(_ n: Int, state: String = "Opened", priority: String = "3-Normal Queue", headline: String? = nil)
        -> Record
    {
        Record(id: RecordID("SAMPL\(String(format: "%08d", n))"), fields: [
            "dbid": "\(33_554_432 + n)", "Headline": headline ?? "Defect \(n)", "State": state,
            "Priority": priority, "Severity": "3-Average", "Submitter": "admin", "Owner": "engineer",
        ])
    }

    private func entry(_ n: Int, _ action: String, by user: String, at time: String, from: String = "", to: String = "")
        -> HistoryEntry
    {
        HistoryEntry(record: RecordID("SAMPL\(String(format: "%08d", n))"), headline: "Defect \(n)", action: action,
                     timestamp: Timestamp("2026-11-22 \(time)"), user: user, oldState: from, newState: to)
    }

    private func compare(_ previous: [Record]?, seen: [HistoryEntry] = [], now records: [Record],
                         history: [HistoryEntry] = [], checkpoint: String? = nil, seenUpTo: String? = nil) -> HistoryDiffOutcome {
        SnapshotDiff.compare(
            previous: previous.map { Snapshot($0) }, seen: Set(seen.map(\.key)),
            observation: PollObservation(records: records, history: history),
            previousCheckpoint: checkpoint.map { Timestamp("2026-11-22 \($0)") }, me: "engineer",
            seenUpTo: seenUpTo.map { Timestamp("2026-11-22 \($0)") })
    }

    func test_firstPoll_isSilentBaselineThatStoresEverythingAndMarksHistorySeen() {
        let history = [entry(1, "Assign", by: "lead", at: "10:00:00")]
        let outcome = compare(nil, now: [record(1), record(2)], history: history)
        XCTAssertTrue(outcome.isBaseline)
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.delta.upserts.map(\.id.rawValue), ["SAMPL00000001", "SAMPL00000002"])
        XCTAssertEqual(outcome.newlySeen, history.map(\.key))
        XCTAssertEqual(outcome.checkpoint, Timestamp("2026-11-22 10:00:00"))
    }

    func test_colleagueAssignsAndChangesPriority_isOneAssignedChangeByThatColleague() {
        let history = [
            entry(3, "Assign", by: "lead", at: "10:00:00", from: "Submitted", to: "Assigned"),
            entry(3, "Modify", by: "lead", at: "10:00:05", from: "Assigned", to: "Assigned"),
        ]
        let outcome = compare([record(1)], now: [record(1), record(3, state: "Assigned", priority: "1-Resolve Immediately")],
                              history: history)
        XCTAssertEqual(outcome.changes.count, 1)
        let change = outcome.changes[0]
        XCTAssertEqual(change.kind, .assigned)
        XCTAssertEqual(change.record, RecordID("SAMPL00000003"))
        XCTAssertEqual(change.by, "lead")
        XCTAssertEqual(change.action, "Assign")
        XCTAssertEqual(change.priority, "1-Resolve Immediately")
        XCTAssertEqual(outcome.delta.upserts.map(\.id), [RecordID("SAMPL00000003")])
        XCTAssertEqual(outcome.newlySeen.count, 2)
    }

    /// A record entering the set brings its whole history in the window: an Assign from hours ago is not what put
    /// it in my hands now.
    func test_recordEntering_isCausedByARecentAssign_notAnOldOne() {
        let history = [
            entry(3, "Assign", by: "lead", at: "01:00:00"),
            entry(3, "Modify", by: "alice", at: "11:00:00"),
        ]
        let outcome = compare([record(1)], now: [record(1), record(3)], history: history, checkpoint: "01:05:00")
        XCTAssertEqual(outcome.changes.map(\.by), ["alice"])
        XCTAssertEqual(outcome.changes.map(\.action), ["Modify"])
    }

    func test_recordEnteringWithOnlyMyOwnHistory_isMyOwnDoingAndSilent() {
        let mine = [entry(4, "Assign", by: "Engineer", at: "10:00:00")]  // login names in any letter case
        let outcome = compare([record(1)], now: [record(1), record(4)], history: mine)
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.delta.upserts.map(\.id), [RecordID("SAMPL00000004")])
        XCTAssertEqual(outcome.silentUpdates, 1)
        XCTAssertEqual(outcome.newlySeen, mine.map(\.key))
    }

    func test_recordEnteringWithNoHistoryAtAll_isReportedWithoutAName_neverTakenForMine() {
        let outcome = compare([record(1)], now: [record(1), record(4)])
        XCTAssertEqual(outcome.changes.map(\.kind), [.assigned])
        XCTAssertNil(outcome.changes[0].by)
        XCTAssertEqual(outcome.changes[0].summary, "SAMPL00000004 assigned to you")
        XCTAssertEqual(outcome.unexplained, 1)
        XCTAssertEqual(outcome.silentUpdates, 0)
    }

    func test_colleagueResolvesMyDefect_isModifiedWithStateOldAndNew() {
        let history = [entry(1, "Resolve", by: "lead", at: "11:00:00", from: "Opened", to: "Resolved")]
        let outcome = compare([record(1)], now: [record(1, state: "Resolved")], history: history)
        XCTAssertEqual(outcome.changes, [
            Change(record: RecordID("SAMPL00000001"), kind: .modified, headline: "Defect 1", by: "lead", action: "Resolve",
                   changes: [FieldChange(field: "State", old: "Opened", new: "Resolved")],
                   at: Timestamp("2026-11-22 11:00:00"), priority: "3-Normal Queue", severity: "3-Average",
                   state: "Resolved"),
        ])
        XCTAssertEqual(outcome.changes[0].summary, "SAMPL00000001 resolved by lead")
    }

    func test_myOwnEdit_updatesSnapshotSilently() {
        let outcome = compare([record(1)], now: [record(1, priority: "2-Give High Attention")],
                              history: [entry(1, "Modify", by: "engineer", at: "11:00:00")])
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.delta.upserts.map(\.id), [RecordID("SAMPL00000001")])
        XCTAssertEqual(outcome.silentUpdates, 1)
    }

    /// The zone blind spot's worst effect: a colleague's entry the server did not return. Their field change must
    /// not look like my own edit.
    func test_fieldChangeWithoutAnyHistoryEntry_isReportedWithoutAName() {
        let outcome = compare([record(1)], now: [record(1, priority: "1-Resolve Immediately")])
        XCTAssertEqual(outcome.changes.count, 1)
        XCTAssertEqual(outcome.changes[0].kind, .modified)
        XCTAssertNil(outcome.changes[0].by)
        XCTAssertEqual(outcome.changes[0].changes, [FieldChange(field: "Priority", old: "3-Normal Queue", new: "1-Resolve Immediately")])
        XCTAssertEqual(outcome.changes[0].sentence,
                       "SAMPL00000001 changed: Defect 1 [1-Resolve Immediately] (Priority: 3-Normal Queue → 1-Resolve Immediately)")
        XCTAssertEqual(outcome.delta.upserts.map(\.id), [RecordID("SAMPL00000001")])
        XCTAssertEqual(outcome.unexplained, 1)
    }

    func test_myEntryAndAColleaguesOnOneRecord_isTheColleaguesChange() {
        let history = [entry(1, "Modify", by: "lead", at: "11:00:00"), entry(1, "Modify", by: "engineer", at: "11:01:00")]
        let outcome = compare([record(1)], now: [record(1, priority: "1-Resolve Immediately")], history: history)
        XCTAssertEqual(outcome.changes.map(\.by), ["lead"])
    }

    func test_myOwnActionWithoutFieldChange_isNothing() {
        let outcome = compare([record(1)], now: [record(1)], history: [entry(1, "Modify", by: "engineer", at: "11:00:00")])
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.delta, SnapshotDelta())
        XCTAssertEqual(outcome.newlySeen.count, 1)
    }

    /// State from a version with the 10-minute window: entries up to its checkpoint were dealt with by it, and the
    /// wide window returning them must not report them again.
    func test_entriesUpToTheOldCheckpoint_countAsSeenWhenMigrating() {
        let old = entry(1, "Modify", by: "lead", at: "09:00:00")
        let new = entry(2, "Resolve", by: "lead", at: "11:00:00", from: "Opened", to: "Resolved")
        let outcome = compare([record(1), record(2)], now: [record(1), record(2, state: "Resolved")], history: [old, new],
                              checkpoint: "10:00:00", seenUpTo: "10:00:00")
        XCTAssertEqual(outcome.changes.map(\.record), [RecordID("SAMPL00000002")])
        XCTAssertEqual(Set(outcome.newlySeen), Set([old.key, new.key]))
    }

    func test_secondLook_isForRecordsWithAnUnseenEntryButNoFieldChange() {
        let history = [
            entry(1, "Modify", by: "lead", at: "11:00:00"),  // fields the same: the change may not be visible yet
            entry(2, "Resolve", by: "lead", at: "11:00:00"),  // visible already
            entry(3, "Modify", by: "lead", at: "09:00:00"),  // seen before
            entry(9, "Assign", by: "lead", at: "11:00:00"),  // not in the set
        ]
        let previous = Snapshot([record(1), record(2), record(3)])
        let observation = PollObservation(records: [record(1), record(2, state: "Resolved"), record(3)], history: history)
        XCTAssertEqual(SnapshotDiff.secondLook(previous: previous, seen: [history[2].key], observation: observation),
                       [RecordID("SAMPL00000001")])
        XCTAssertEqual(SnapshotDiff.secondLook(previous: nil, seen: [], observation: observation), [])
    }

    func test_colleagueActionWithoutWatchedFieldChange_isStillReported() {
        let history = [entry(1, "Modify", by: "alice", at: "11:00:00", from: "Opened", to: "Opened")]
        let outcome = compare([record(1)], now: [record(1)], history: history)
        XCTAssertEqual(outcome.changes.map(\.kind), [.modified])
        XCTAssertEqual(outcome.changes[0].changes, [])
        XCTAssertEqual(outcome.delta, SnapshotDelta())
    }

    func test_recordLeavingTheSet_isUnassignedAndRemoved() {
        let outcome = compare([record(1), record(2, priority: "1-Resolve Immediately")], now: [record(1)])
        XCTAssertEqual(outcome.changes.map(\.kind), [.unassigned])
        XCTAssertEqual(outcome.changes[0].record, RecordID("SAMPL00000002"))
        XCTAssertEqual(outcome.changes[0].priority, "1-Resolve Immediately")
        XCTAssertEqual(outcome.delta.removals, [RecordID("SAMPL00000002")])
    }

    func test_historyAlreadySeen_inOverlapWindow_isNotReportedAgain() {
        let seenEntry = entry(1, "Resolve", by: "lead", at: "11:00:00", from: "Opened", to: "Resolved")
        let outcome = compare([record(1, state: "Resolved")], seen: [seenEntry], now: [record(1, state: "Resolved")],
                              history: [seenEntry], checkpoint: "11:00:00")
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.newlySeen, [])
    }

    /// Two identical rows in one window are two real actions (a script's Modify + Modify within a second; a page
    /// the server repeated is caught by the client's paging check): one change for the record, both remembered.
    func test_identicalHistoryRowsInOnePoll_areOneChange_andBothRemembered() {
        let row = entry(1, "Modify", by: "lead", at: "11:00:00")
        let outcome = compare([record(1)], now: [record(1)], history: [row, row])
        XCTAssertEqual(outcome.changes.count, 1)
        XCTAssertEqual(outcome.newlySeen, [row.key, row.key.occurrence(2)])
    }

    func test_keys_numberIdenticalEntries_inTheOrderGiven() {
        let a = entry(1, "Modify", by: "lead", at: "11:00:00"), b = entry(1, "Modify", by: "alice", at: "11:00:00")
        XCTAssertEqual(HistoryEntry.keys(of: [a, b, a, a]).map(\.occurrence), [1, 1, 2, 3])
        XCTAssertEqual(HistoryEntry.keys(of: [a, b, a, a])[2], a.key.occurrence(2))
        XCTAssertNotEqual(a.key, a.key.occurrence(2))
    }

    /// The same colleague acting twice on a record within one second, the second entry arriving a poll later (it
    /// was committed after the first poll read the history): it is a new action, reported with its name — before,
    /// its key equalled the first's, so a note vanished and a field change came without a name.
    func test_identicalEntryArrivingInALaterPoll_isReportedWithItsName() {
        let row = entry(1, "Modify", by: "lead", at: "11:00:00")
        let first = SnapshotDiff.compare(
            previous: Snapshot([record(1)]), seen: [],
            observation: PollObservation(records: [record(1, priority: "2-High")], history: [row]),
            previousCheckpoint: nil, me: "engineer")
        XCTAssertEqual(first.changes.map(\.by), ["lead"])
        for later in [record(1, priority: "2-High"), record(1, priority: "1-Resolve Immediately")] {
            let second = SnapshotDiff.compare(
                previous: Snapshot([record(1, priority: "2-High")]), seen: Set(first.newlySeen),
                observation: PollObservation(records: [later], history: [row, row]),
                previousCheckpoint: first.checkpoint, me: "engineer")
            XCTAssertEqual(second.changes.map(\.by), ["lead"], "\(later.fields)")
            XCTAssertEqual(second.changes.map(\.action), ["Modify"])
            XCTAssertEqual(second.unexplained, 0)
            XCTAssertEqual(second.newlySeen, [row.key.occurrence(2)])
            // And once remembered, neither comes back.
            let third = SnapshotDiff.compare(
                previous: Snapshot([later]), seen: Set(first.newlySeen + second.newlySeen),
                observation: PollObservation(records: [later], history: [row, row]),
                previousCheckpoint: second.checkpoint, me: "engineer")
            XCTAssertEqual(third.changes, [])
            XCTAssertEqual(third.newlySeen, [])
        }
    }

    /// The second look (an action with no visible field change) sees the second identical entry as unseen too.
    func test_secondLook_includesARecordWhoseIdenticalEntryIsNew() {
        let row = entry(1, "Modify", by: "lead", at: "11:00:00")
        let ids = SnapshotDiff.secondLook(
            previous: Snapshot([record(1)]), seen: [row.key],
            observation: PollObservation(records: [record(1)], history: [row, row]))
        XCTAssertEqual(ids, [RecordID("SAMPL00000001")])
    }

    // MARK: - Entries dated later than any zone allows

    private func dated(_ n: Int, _ timestamp: String, by user: String = "lead") -> HistoryEntry {
        HistoryEntry(record: RecordID("SAMPL\(String(format: "%08d", n))"), headline: "Defect \(n)", action: "Modify",
                     timestamp: Timestamp(timestamp), user: user, oldState: "", newState: "")
    }

    func test_latestPlausible_isNowPlusTheZoneFurthestAheadAndAnHour() throws {
        let now = try XCTUnwrap(Timestamp("2026-11-22 12:00:00").secondsSinceEpoch)
        XCTAssertEqual(HistoryWindow.latestPlausible(now: Double(now) + 0.9), Timestamp("2026-11-23 03:00:00"))
        for bad in [Double.nan, .infinity, -1, 1e300] { XCTAssertNil(HistoryWindow.latestPlausible(now: bad)) }
        let latest = Timestamp("2026-11-23 03:00:00")
        XCTAssertEqual(HistoryWindow.plausible(latest, latest: latest), latest)
        XCTAssertNil(HistoryWindow.plausible(Timestamp("2099-01-01 00:00:00"), latest: latest))
        XCTAssertNil(HistoryWindow.plausible(nil, latest: latest))
        XCTAssertEqual(HistoryWindow.plausible(Timestamp("2099-01-01 00:00:00"), latest: nil),
                       Timestamp("2099-01-01 00:00:00"), "no clock to judge by: kept")
    }

    /// An entry dated 2099 is a change like any other, remembered like any other, but the checkpoint stays with the
    /// plausible entries: before, it went to 2099 and every later window was empty.
    func test_entryDatedLaterThanAnyZone_isDiffedAndRemembered_butDoesNotMoveTheCheckpoint() {
        let latest = Timestamp("2026-11-23 03:00:00")
        let future = dated(1, "2099-01-01 00:00:00"), real = dated(2, "2026-11-22 11:30:00", by: "alice")
        let outcome = SnapshotDiff.compare(
            previous: Snapshot([record(1), record(2)]), seen: [],
            observation: PollObservation(records: [record(1), record(2, state: "Resolved")], history: [future, real]),
            previousCheckpoint: Timestamp("2026-11-22 11:00:00"), me: "engineer", latestPlausible: latest)
        XCTAssertEqual(outcome.changes.map(\.by), ["lead", "alice"])
        XCTAssertEqual(Set(outcome.newlySeen), [future.key, real.key])
        XCTAssertEqual(outcome.checkpoint, Timestamp("2026-11-22 11:30:00"))
        XCTAssertEqual(outcome.implausible, [future])
        // Seen: not reported, nor logged, again.
        let again = SnapshotDiff.compare(
            previous: Snapshot([record(1), record(2, state: "Resolved")]), seen: Set(outcome.newlySeen),
            observation: PollObservation(records: [record(1), record(2, state: "Resolved")], history: [future, real]),
            previousCheckpoint: outcome.checkpoint, me: "engineer", latestPlausible: latest)
        XCTAssertEqual(again.changes, [])
        XCTAssertEqual(again.implausible, [])
        XCTAssertEqual(again.checkpoint, Timestamp("2026-11-22 11:30:00"))
    }

    /// Within the bound is plausible (a server at UTC+14 whose clock is a little fast): the checkpoint moves.
    func test_entryWithinTheBound_movesTheCheckpoint() {
        let ahead = dated(1, "2026-11-23 02:59:59")
        let outcome = SnapshotDiff.compare(
            previous: Snapshot([record(1)]), seen: [],
            observation: PollObservation(records: [record(1)], history: [ahead]),
            previousCheckpoint: nil, me: "engineer", latestPlausible: Timestamp("2026-11-23 03:00:00"))
        XCTAssertEqual(outcome.checkpoint, ahead.timestamp)
        XCTAssertEqual(outcome.implausible, [])
    }

    func test_historyForRecordOutsideTheSet_isLeftForTheNextPoll() {
        let row = entry(9, "Assign", by: "lead", at: "12:00:00")
        let outcome = compare([record(1)], now: [record(1)], history: [row], checkpoint: "11:00:00")
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.newlySeen, [])
        XCTAssertEqual(outcome.checkpoint, Timestamp("2026-11-22 11:00:00"))
    }

    func test_checkpoint_neverMovesBackwards() {
        let old = entry(1, "Modify", by: "lead", at: "09:00:00")
        let outcome = compare([record(1)], now: [record(1)], history: [old], checkpoint: "11:00:00")
        XCTAssertEqual(outcome.checkpoint, Timestamp("2026-11-22 11:00:00"))
    }

    func test_severalColleagueActions_giveOneChangeNamingTheLatest() {
        let history = [
            entry(1, "Resolve", by: "lead", at: "11:00:00", from: "Opened", to: "Resolved"),
            entry(1, "Close", by: "alice", at: "11:05:00", from: "Resolved", to: "Closed"),
        ]
        let outcome = compare([record(1)], now: [record(1, state: "Closed")], history: history)
        XCTAssertEqual(outcome.changes.count, 1)
        XCTAssertEqual(outcome.changes[0].by, "alice")
        XCTAssertEqual(outcome.changes[0].action, "Close")
        XCTAssertEqual(outcome.changes[0].changes, [FieldChange(field: "State", old: "Opened", new: "Closed")])
    }

    func test_historyWindow_reachesBackFifteenHoursPlusOverlap_andKeepsKeysForAnotherFifteen() {
        let checkpoint = Timestamp("2026-11-22 12:05:00")
        XCTAssertEqual(HistoryWindow.since(checkpoint: checkpoint, overlap: 600), Timestamp("2026-11-21 20:55:00"))
        XCTAssertEqual(HistoryWindow.pruneBoundary(checkpoint: checkpoint, overlap: 600), Timestamp("2026-11-21 05:55:00"))
        XCTAssertNil(HistoryWindow.since(checkpoint: nil, overlap: 600))
        XCTAssertNil(HistoryWindow.pruneBoundary(checkpoint: nil, overlap: 600))
        XCTAssertEqual(HistoryWindow.since(checkpoint: Timestamp("0001-01-01 03:00:00"), overlap: 0),
                       Timestamp("0001-01-01 00:00:00"), "clamped, never a trap or year 0")
    }

    /// Every zone offset and both DST changes, for the window's promise: an entry written after the poll that set
    /// the checkpoint is inside the next window whatever offset lies between the stored timestamps and the server's
    /// reading of the filter value.
    func test_historyWindow_coversAnyZoneOffsetAndTheRepeatedHour() throws {
        let checkpoint = try XCTUnwrap(Timestamp("2026-11-01 01:55:00").secondsSinceEpoch)
        let since = try XCTUnwrap(HistoryWindow.since(checkpoint: Timestamp(secondsSinceEpoch: checkpoint), overlap: 600)?
            .secondsSinceEpoch)
        // The server compares an entry's stored time with the filter value read in its filter zone, i.e. with
        // `since + d`, d the difference of the two zones' offsets: −14 h … +14 h. An entry written after the poll
        // that set the checkpoint is stored at checkpoint − 1 h or later (the hour repeated in autumn).
        let entry = checkpoint - 3_600
        for d in stride(from: -14 * 3_600, through: 14 * 3_600, by: 900) {
            XCTAssertGreaterThan(entry, since + d, "offset \(d / 60) min")
        }
    }
}
