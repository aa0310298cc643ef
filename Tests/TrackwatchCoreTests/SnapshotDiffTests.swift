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
                     timestamp: CompassTimestamp("2026-11-22 \(time)"), user: user, oldState: from, newState: to)
    }

    private func compare(_ previous: [Record]?, seen: [HistoryEntry] = [], now records: [Record],
                         history: [HistoryEntry] = [], checkpoint: String? = nil) -> DiffOutcome {
        SnapshotDiff.compare(
            previous: previous.map { Snapshot($0) }, seen: Set(seen.map(\.key)),
            observation: PollObservation(records: records, history: history),
            previousCheckpoint: checkpoint.map { CompassTimestamp("2026-11-22 \($0)") })
    }

    func test_firstPoll_isSilentBaselineThatStoresEverythingAndMarksHistorySeen() {
        let history = [entry(1, "Assign", by: "lead", at: "10:00:00")]
        let outcome = compare(nil, now: [record(1), record(2)], history: history)
        XCTAssertTrue(outcome.isBaseline)
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.delta.upserts.map(\.id.rawValue), ["SAMPL00000001", "SAMPL00000002"])
        XCTAssertEqual(outcome.newlySeen, history.map(\.key))
        XCTAssertEqual(outcome.checkpoint, CompassTimestamp("2026-11-22 10:00:00"))
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

    func test_recordEnteringWithoutColleagueHistory_isMyOwnDoingAndSilent() {
        let outcome = compare([record(1)], now: [record(1), record(4)])
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.delta.upserts.map(\.id), [RecordID("SAMPL00000004")])
        XCTAssertEqual(outcome.silentUpdates, 1)
    }

    func test_colleagueResolvesMyDefect_isModifiedWithStateOldAndNew() {
        let history = [entry(1, "Resolve", by: "lead", at: "11:00:00", from: "Opened", to: "Resolved")]
        let outcome = compare([record(1)], now: [record(1, state: "Resolved")], history: history)
        XCTAssertEqual(outcome.changes, [
            Change(record: RecordID("SAMPL00000001"), kind: .modified, headline: "Defect 1", by: "lead", action: "Resolve",
                   changes: [FieldChange(field: "State", old: "Opened", new: "Resolved")],
                   at: CompassTimestamp("2026-11-22 11:00:00"), priority: "3-Normal Queue", severity: "3-Average",
                   state: "Resolved"),
        ])
        XCTAssertEqual(outcome.changes[0].summary, "SAMPL00000001 resolved by lead")
    }

    func test_myOwnEdit_updatesSnapshotSilently() {
        let outcome = compare([record(1)], now: [record(1, priority: "2-Give High Attention")])
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.delta.upserts.map(\.id), [RecordID("SAMPL00000001")])
        XCTAssertEqual(outcome.silentUpdates, 1)
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

    func test_duplicateHistoryRows_countOnce() {
        let row = entry(1, "Modify", by: "lead", at: "11:00:00")
        let outcome = compare([record(1)], now: [record(1)], history: [row, row])
        XCTAssertEqual(outcome.changes.count, 1)
        XCTAssertEqual(outcome.newlySeen.count, 1)
    }

    func test_historyForRecordOutsideTheSet_isLeftForTheNextPoll() {
        let row = entry(9, "Assign", by: "lead", at: "12:00:00")
        let outcome = compare([record(1)], now: [record(1)], history: [row], checkpoint: "11:00:00")
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.newlySeen, [])
        XCTAssertEqual(outcome.checkpoint, CompassTimestamp("2026-11-22 11:00:00"))
    }

    func test_checkpoint_neverMovesBackwards() {
        let old = entry(1, "Modify", by: "lead", at: "09:00:00")
        let outcome = compare([record(1)], now: [record(1)], history: [old], checkpoint: "11:00:00")
        XCTAssertEqual(outcome.checkpoint, CompassTimestamp("2026-11-22 11:00:00"))
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

    func test_pruneBoundary_isCheckpointMinusOverlap() {
        XCTAssertEqual(SnapshotDiff.pruneBoundary(checkpoint: CompassTimestamp("2026-11-22 00:05:00"), overlap: 600),
                       CompassTimestamp("2026-11-21 23:55:00"))
        XCTAssertNil(SnapshotDiff.pruneBoundary(checkpoint: nil, overlap: 600))
    }
}
