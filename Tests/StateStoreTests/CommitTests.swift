@testable import StateStore
import TrackwatchCore
import XCTest

final class CommitTests: StoreTestCase {
    func test_snapshot_beforeAnyBaseline_isNil() throws {
        let store = try makeStore()
        XCTAssertNil(try store.snapshot(watch: "assigned"))
        XCTAssertNil(try store.checkpoint(watch: "assigned"))
    }

    func test_baselineCommit_thenSnapshot_returnsTheSameRecords() throws {
        let store = try makeStore()
        let records = (1...5).map { record($0) } + [Record(id: RecordID("EMPTY"), fields: [:])]
        try store.commit(baseline(records))
        XCTAssertEqual(try store.snapshot(watch: "assigned"), Snapshot(records))
        XCTAssertNil(try store.snapshot(watch: "other"))
    }

    func test_baselineOfNoRecords_isAnEmptySnapshotNotNil() throws {
        let store = try makeStore()
        try store.commit(baseline([]))
        XCTAssertEqual(try store.snapshot(watch: "assigned"), Snapshot())
    }

    func test_delta_appliesUpsertsAndRemovalsExactly() throws {
        let store = try makeStore()
        try store.commit(baseline((1...4).map { record($0) }))
        try store.commit(poll(upserts: [record(2, state: "Resolved"), record(9)], removals: [recordID(3), recordID(77)]))
        let expected = Snapshot([record(1), record(2, state: "Resolved"), record(4), record(9)])
        XCTAssertEqual(try store.snapshot(watch: "assigned"), expected)
    }

    func test_watches_areKeptApart() throws {
        let store = try makeStore()
        try store.commit(baseline([record(1)], watch: "assigned"))
        try store.commit(baseline([record(2)], watch: "mine"))
        XCTAssertEqual(try store.snapshot(watch: "assigned"), Snapshot([record(1)]))
        XCTAssertEqual(try store.snapshot(watch: "mine"), Snapshot([record(2)]))
    }

    func test_fieldsWithQuotesControlCharactersAndUnicode_roundTrip() throws {
        let store = try makeStore()
        let awkward = record(1, extra: [
            "Description": "line one\nline \"two\"\t\\ end \u{1}\u{1F}", "Owner": "Jürgen 🚀 日本", "": "empty key",
            "Note": "",
        ])
        try store.commit(baseline([awkward]))
        XCTAssertEqual(try store.snapshot(watch: "assigned")?.records[awkward.id], awkward)
    }

    func test_seenKeys_insertedDuplicatesIgnoredAndPrunedByTimestamp() throws {
        let store = try makeStore()
        try store.commit(baseline([]))
        let old = key(1, at: "2025-03-01 08:00:00")
        let recent = key(2, at: "2025-03-01 10:00:00")
        try store.commit(poll(seen: [old, recent, recent]))
        try store.commit(poll(seen: [recent]))
        XCTAssertEqual(try store.seenHistoryKeys(watch: "assigned"), [old, recent])

        let newer = key(3, at: "2025-03-01 11:00:00")
        try store.commit(poll(seen: [newer], pruneBefore: "2025-03-01 09:00:00"))
        XCTAssertEqual(try store.seenHistoryKeys(watch: "assigned"), [recent, newer])
        XCTAssertEqual(try store.seenHistoryKeys(watch: "other"), [])
    }

    /// Issue 36 item 10: keys a server dates in the future were never pruned, and one that makes up new entries every
    /// poll grew the state without bound. With bounds, keys go 30 days after they were stored, and an item keeps its
    /// newest `perRecord`.
    func test_seenKeys_withBounds_goByWhenTheyWereStored_andEachRecordKeepsItsNewest() throws {
        let store = try makeStore()
        try store.commit(baseline([]))
        let future = key(1, at: "2099-01-01 00:00:00")
        var first = poll(seen: [future], at: 1_700_000_000)
        first.bounds = SeenBounds(storedBefore: 1_700_000_000 - 30 * 86_400, perRecord: 3)
        try store.commit(first)
        XCTAssertEqual(try store.seenHistoryKeys(watch: "assigned"), [future])
        let made = (0..<5).map { key(2, at: "2025-03-01 10:00:0\($0)", action: "made-up-\($0)") }
        var second = poll(seen: made, pruneBefore: "2025-01-01 00:00:00", at: 1_700_000_000 + 31 * 86_400)
        second.bounds = SeenBounds(storedBefore: 1_700_000_000 + 86_400, perRecord: 3)
        try store.commit(second)
        XCTAssertEqual(
            try store.seenHistoryKeys(watch: "assigned"), Set(made.suffix(3)),
            "the future-dated key stored a month ago is gone; record 2 keeps its three newest")
    }

    func test_seenKeys_differingOnlyInUser_areDistinct() throws {
        let store = try makeStore()
        try store.commit(baseline([]))
        let keys: Set = [key(1, at: "2025-03-01 08:00:00", user: "alice"), key(1, at: "2025-03-01 08:00:00", user: "bob")]
        try store.commit(poll(seen: Array(keys)))
        XCTAssertEqual(try store.seenHistoryKeys(watch: "assigned"), keys)
    }

    func test_seenKeys_identicalButForTheirOccurrence_areDistinct() throws {
        let store = try makeStore()
        try store.commit(baseline([record(1)]))
        let first = key(1, at: "2025-03-01 09:00:00")
        try store.commit(poll(seen: [first]))
        try store.commit(poll(seen: [first, first.occurrence(2)]))
        XCTAssertEqual(try store.seenHistoryKeys(watch: "assigned"), [first, first.occurrence(2)])
    }

    func test_checkpoint_movesOnlyWhenProvided() throws {
        let store = try makeStore()
        try store.commit(baseline([], checkpoint: nil))
        XCTAssertNil(try store.checkpoint(watch: "assigned"))
        try store.commit(poll(checkpoint: "2025-03-01 09:00:00"))
        try store.commit(poll(checkpoint: nil))
        XCTAssertEqual(try store.checkpoint(watch: "assigned"), Timestamp("2025-03-01 09:00:00"))
        try store.commit(poll(checkpoint: "2025-03-01 09:05:00"))
        XCTAssertEqual(try store.checkpoint(watch: "assigned"), Timestamp("2025-03-01 09:05:00"))
    }

    func test_rebaseline_keepsCheckpointWhenNoneGiven() throws {
        let store = try makeStore()
        try store.commit(baseline([record(1)], checkpoint: "2025-03-01 09:00:00"))
        try store.commit(baseline([record(2)], checkpoint: nil, at: 1_700_001_000))
        XCTAssertEqual(try store.checkpoint(watch: "assigned"), Timestamp("2025-03-01 09:00:00"))
    }

    func test_commitWithoutBaseline_throwsAndWritesNothing() throws {
        let store = try makeStore()
        let error = storeError { try store.commit(poll(upserts: [record(1)], changes: [change(1)])) }
        XCTAssertEqual(error?.reason, .other)
        XCTAssertNil(try store.snapshot(watch: "assigned"))
        XCTAssertEqual(try store.recentPolls(limit: 10), [])
        XCTAssertEqual(try store.undeliveredChanges(), [])
    }

    func test_commitFailingMidway_leavesEverythingAsBefore() throws {
        let store = try makeStore()
        try store.commit(baseline((1...3).map { record($0) }, checkpoint: "2025-03-01 09:00:00"))
        try store.commit(poll(seen: [key(1, at: "2025-03-01 08:00:00")], changes: [change(1)]))
        let before = try everything(store)

        // A trigger makes the very last insert of the commit fail, after the delta, the keys, the checkpoint
        // and the poll row were written.
        let saboteur = try Database(path: databasePath)
        try saboteur.exec(
            """
            CREATE TRIGGER fail_on_boom BEFORE INSERT ON changes WHEN NEW.record_id = 'BOOM'
            BEGIN SELECT RAISE(ABORT, 'injected failure'); END
            """
        )
        let doomed = poll(
            upserts: [record(1, state: "Closed"), record(4)], removals: [recordID(2)],
            seen: [key(2, at: "2025-03-01 10:00:00")], pruneBefore: "2025-03-01 09:30:00",
            checkpoint: "2025-03-01 10:00:00",
            changes: [change(1), Change(record: RecordID("BOOM"), kind: .assigned, headline: "boom")]
        )
        let error = storeError { try store.commit(doomed) }
        XCTAssertTrue(error?.description.contains("injected failure") ?? false, "\(String(describing: error))")
        XCTAssertEqual(try everything(store), before)

        // The same connection and its cached statements keep working after the rollback.
        try saboteur.exec("DROP TRIGGER fail_on_boom")
        XCTAssertEqual(try store.commit(doomed).count, 2)
        XCTAssertEqual(try store.checkpoint(watch: "assigned"), Timestamp("2025-03-01 10:00:00"))
    }

    func test_tenThousandRecordBaseline_thenHundredRecordDelta() throws {
        let store = try makeStore()
        var expected = Snapshot((1...10_000).map { record($0) })
        try store.commit(baseline(Array(expected.records.values)))
        XCTAssertEqual(try store.snapshot(watch: "assigned"), expected)

        let updated = stride(from: 1, through: 5_000, by: 100).map { record($0, state: "Resolved") }  // 50
        let added = (20_001...20_025).map { record($0) }
        let removed = stride(from: 7, through: 10_000, by: 400).map { recordID($0) }  // 25
        try store.commit(poll(upserts: updated + added, removals: removed))
        for record in updated + added { expected.records[record.id] = record }
        for id in removed { expected.records[id] = nil }
        XCTAssertEqual(try store.snapshot(watch: "assigned"), expected)
        XCTAssertEqual(try store.status().recordCounts, ["assigned": 10_000])
    }

    private struct Everything: Equatable {
        var snapshot: Snapshot?
        var keys: Set<HistoryKey>
        var checkpoint: Timestamp?
        var changes: [StoredChange]
        var polls: [LoggedPoll]
    }

    private func everything(_ store: StateStore) throws -> Everything {
        Everything(
            snapshot: try store.snapshot(watch: "assigned"), keys: try store.seenHistoryKeys(watch: "assigned"),
            checkpoint: try store.checkpoint(watch: "assigned"),
            changes: try store.changes(since: nil, record: nil, limit: nil), polls: try store.recentPolls(limit: 100)
        )
    }

    /// Issue 27, item 2: whatever a source found, one stored change keeps `Change.fieldLimit` field changes, the
    /// last counting the rest.
    func test_aChangeOfManyFields_isStoredBounded() throws {
        let store = try makeStore()
        _ = try store.commit(baseline([record(1)]))
        let fields = (1...10_000).map { FieldChange(field: "f\($0)", old: "0", new: "1") }
        let many = Change(record: recordID(1), kind: .modified, headline: "Defect number 1", changes: fields)
        let committed = try store.commit(poll(changes: [many]))
        XCTAssertEqual(committed.first?.change.changes.count, Change.fieldLimit)
        let stored = try XCTUnwrap(try store.undeliveredChanges().first?.change)
        XCTAssertEqual(stored.changes.count, Change.fieldLimit)
        XCTAssertEqual(stored.changes.last, .more(10_000 - Change.fieldLimit + 1))
    }
}
