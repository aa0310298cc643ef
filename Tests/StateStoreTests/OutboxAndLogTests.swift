import StateStore
import TrackwatchCore
import XCTest

final class OutboxAndLogTests: StoreTestCase {
    func test_commit_returnsUndeliveredChangesWithIdsInInputOrder() throws {
        let store = try makeStore()
        try store.commit(baseline([]))
        let input = [change(3, .assigned), change(1, .modified), change(2, .unassigned)]
        let stored = try store.commit(poll(changes: input, at: 1_700_000_600))
        XCTAssertEqual(stored.map(\.change), input)
        XCTAssertEqual(stored.map(\.delivered), [false, false, false])
        XCTAssertEqual(stored.map(\.watch), ["assigned", "assigned", "assigned"])
        XCTAssertEqual(stored.map(\.detectedAt), [1_700_000_600, 1_700_000_600, 1_700_000_600])
        XCTAssertEqual(stored.map(\.id), stored.map(\.id).sorted())
        XCTAssertEqual(Set(stored.map(\.id)).count, 3)
        XCTAssertEqual(try store.undeliveredChanges(), stored)
    }

    func test_changeJSON_roundTripsEveryField() throws {
        let store = try makeStore()
        try store.commit(baseline([]))
        let full = Change(
            record: RecordID("SAMPL1"), kind: .modified, headline: "Crash \"on\" start\n", by: "bob", action: "Modify",
            changes: [FieldChange(field: "Owner", old: nil, new: "me"), FieldChange(field: "State", old: "A", new: nil)],
            at: Timestamp("2025-03-01 10:00:00"), priority: "1-Critical", severity: "2-Major"
        )
        let bare = Change(record: RecordID("SAMPL2"), kind: .unassigned, headline: "")
        try store.commit(poll(changes: [full, bare]))
        XCTAssertEqual(try store.undeliveredChanges().map(\.change), [full, bare])
    }

    func test_markDelivered_removesFromOutboxAndKeepsFirstDeliveryTime() throws {
        let store = try makeStore()
        try store.commit(baseline([]))
        let first = try store.commit(poll(changes: [change(1), change(2)]))
        let second = try store.commit(poll(changes: [change(3)], at: 1_700_000_900))
        try store.markDelivered([first[0].id, 999_999], at: 1_700_001_000)
        try store.markDelivered([first[0].id], at: 1_700_002_000)
        XCTAssertEqual(try store.undeliveredChanges().map(\.id), [first[1].id, second[0].id])
        XCTAssertEqual(try store.status().undelivered, 2)
        let all = try store.changes(since: nil, record: nil, limit: nil)
        XCTAssertEqual(all.map(\.id), [second[0].id, first[1].id, first[0].id])
        XCTAssertEqual(all.map(\.delivered), [false, false, true])
    }

    /// A change a mute kept off the desktop is marked so (the page says it); held ones still wait for the summary.
    func test_markDelivered_marksMutedChanges_andHeldOnesStillWait() throws {
        let store = try makeStore()
        try store.commit(baseline([]))
        let stored = try store.commit(poll(changes: [change(1), change(2), change(3)]))
        try store.markDelivered(stored.map(\.id), held: [stored[1].id], muted: [stored[2].id], unmuted: [], at: 1)
        XCTAssertEqual(try store.changes(since: nil, record: nil, limit: nil).map(\.muted), [true, false, false])
        XCTAssertEqual(try store.heldChanges().map(\.id), [stored[1].id])
        try store.releaseHeld()
        XCTAssertEqual(try store.changes(since: nil, record: nil, limit: nil).map(\.muted), [true, false, false])
    }

    /// `[log]`: old changes and polls go, by age and by count; never one not yet delivered or held for quiet hours.
    func test_prune_byAgeAndCount_neverWhatIsNotDelivered() throws {
        let store = try makeStore()
        try store.commit(baseline([]))
        let old = try store.commit(poll(changes: [change(1), change(2)], at: 1_000))
        let newer = try store.commit(poll(changes: [change(3), change(4), change(5)], at: 500_000))
        try store.markDelivered([old[0].id] + newer.map(\.id), held: [newer[0].id], unmuted: [], at: 500_001)
        // By age: change 1 (delivered, a day before) goes; change 2 (undelivered) stays.
        XCTAssertEqual(try store.prune(LogConfig(keep: 86_400, maxChanges: 100, maxPolls: 100), now: 500_100), 1)
        XCTAssertEqual(try store.changes(since: nil, record: nil, limit: nil).map(\.id), [newer[2].id, newer[1].id, newer[0].id, old[1].id])
        // By count: the newest one delivered kept; held and undelivered ones stay whatever the count.
        XCTAssertEqual(try store.prune(LogConfig(keep: 86_400, maxChanges: 1, maxPolls: 1), now: 500_100), 1)
        XCTAssertEqual(try store.changes(since: nil, record: nil, limit: nil).map(\.id), [newer[2].id, newer[0].id, old[1].id])
        XCTAssertEqual(try store.undeliveredChanges().map(\.id), [old[1].id])
        XCTAssertEqual(try store.heldChanges().map(\.id), [newer[0].id])
        XCTAssertNotNil(try store.status().lastPoll, "the poll log keeps what it needs")
    }

    func test_changesQuery_filtersBySinceRecordAndLimit_newestFirst() throws {
        let store = try makeStore()
        try store.commit(baseline([]))
        try store.commit(poll(changes: [change(1)], at: 100))
        try store.commit(poll(changes: [change(2), change(1)], at: 200))
        try store.commit(poll(changes: [change(1)], at: 300))
        XCTAssertEqual(try store.changes(since: 200, record: nil, limit: nil).map(\.detectedAt), [300, 200, 200])
        XCTAssertEqual(try store.changes(since: nil, record: recordID(1), limit: nil).map(\.detectedAt), [300, 200, 100])
        XCTAssertEqual(try store.changes(since: 150, record: recordID(1), limit: 1).map(\.detectedAt), [300])
        XCTAssertEqual(try store.changes(since: nil, record: recordID(2), limit: 5).map(\.change.record), [recordID(2)])
    }

    func test_recentPolls_newestFirstWithWatchAndError() throws {
        let store = try makeStore()
        try store.commit(baseline([record(1)], at: 100))
        try store.recordFailure(watch: "assigned", log: log(at: 200, error: "server unreachable"))
        try store.commit(baseline([], watch: "mine", at: 300))
        let polls = try store.recentPolls(limit: 2)
        XCTAssertEqual(polls.map(\.watch), ["mine", "assigned"])
        XCTAssertEqual(polls.map(\.entry.startedAt), [300, 200])
        XCTAssertEqual(polls[1].entry, log(at: 200, error: "server unreachable"))
    }

    func test_recordFailure_touchesNothingElse() throws {
        let store = try makeStore()
        try store.commit(baseline([record(1)], checkpoint: "2025-03-01 09:00:00"))
        try store.recordFailure(watch: "assigned", log: log(at: 500, error: nil))
        XCTAssertEqual(try store.snapshot(watch: "assigned"), Snapshot([record(1)]))
        XCTAssertEqual(try store.checkpoint(watch: "assigned"), Timestamp("2025-03-01 09:00:00"))
        XCTAssertEqual(try store.recentPolls(limit: 1).first?.entry.error, "unknown error")
        XCTAssertNoThrow(try store.recordFailure(watch: "never-baselined", log: log(error: "x")))
    }

    /// Issue 27, item 4: the daemon leaves each source's next poll in its store, for `trackwatch status`.
    func test_status_readsTheNextPollTheDaemonLeft_andWhyThen() throws {
        let store = try makeStore()
        XCTAssertNil(try store.status().nextPoll)
        try store.recordNextPoll(at: 1_767_225_600.4, why: "the server asked for 600 s")
        XCTAssertEqual(try store.status().nextPoll, NextPoll(at: 1_767_225_600, why: "the server asked for 600 s"))
        try store.recordNextPoll(at: 1_767_225_900, why: nil)
        XCTAssertEqual(try store.status().nextPoll, NextPoll(at: 1_767_225_900, why: nil), "the interval says no why")
    }

    func test_status_countsFailuresSinceLastSuccess() throws {
        let store = try makeStore()
        XCTAssertEqual(
            try store.status(),
            StoreStatus(
                lastPoll: nil, lastSuccess: nil, lastError: nil, consecutiveFailures: 0, recordCounts: [:],
                checkpoints: [:], undelivered: 0
            )
        )
        try store.recordFailure(watch: "assigned", log: log(at: 50, error: "first"))
        XCTAssertEqual(try store.status().consecutiveFailures, 1)
        try store.commit(baseline([record(1), record(2)], checkpoint: "2025-03-01 09:00:00", at: 100))
        try store.commit(poll(changes: [change(1)], at: 150))
        try store.recordFailure(watch: "assigned", log: log(at: 200, error: "timeout"))
        try store.recordFailure(watch: "assigned", log: log(at: 300, error: "login rejected"))

        let status = try store.status()
        XCTAssertEqual(status.lastPoll, log(at: 300, error: "login rejected"))
        XCTAssertEqual(status.lastSuccess, log(at: 150, changes: 1))
        XCTAssertEqual(status.lastError, log(at: 300, error: "login rejected"))
        XCTAssertEqual(status.consecutiveFailures, 2)
        XCTAssertEqual(status.recordCounts, ["assigned": 2])
        XCTAssertEqual(status.checkpoints, ["assigned": Timestamp("2025-03-01 09:00:00")])
        XCTAssertEqual(status.undelivered, 1)

        try store.commit(poll(at: 400))
        XCTAssertEqual(try store.status().consecutiveFailures, 0)
        XCTAssertEqual(try store.status().lastError, log(at: 300, error: "login rejected"))
    }

    /// Issue 37, item 4: Jira's watch is `issues`; status looked for `assigned` and `items` only, and read "No poll
    /// yet" however many polls there were. From the poll log alone, every watch of the source's own counts.
    func test_status_fromThePollLog_readsAnyWatchName_butNotAWatchedQuery() throws {
        let store = try makeStore()
        try store.commit(baseline([record(1)], watch: "issues", at: 100))
        try store.recordFailure(watch: "issues", log: log(at: 200, error: "HTTP 401"))
        try store.recordFailure(watch: "watch:Team", log: log(at: 250, error: "no such query"))
        let status = try store.status()
        XCTAssertEqual(status.lastPoll, log(at: 200, error: "HTTP 401"))
        XCTAssertEqual(status.lastSuccess, log(at: 100, records: 1))
        XCTAssertEqual(status.consecutiveFailures, 1, "a [[watch]] failing is its own line, not the source's")
    }

    /// What the command or the daemon recorded of the source's polls as a whole stands for the source, whatever its
    /// watches are called, and also for a poll that failed before asking anything (a token that cannot be read).
    func test_status_followsTheSourcesPollsAsAWhole() throws {
        let store = try makeStore()
        let unreadable = "[[github]] work: token_file /x: No such file or directory"
        try store.recordSourcePoll(log(at: 100, error: unreadable))
        var status = try store.status()
        XCTAssertEqual(status.lastPoll, log(at: 100, error: unreadable))
        XCTAssertEqual(status.consecutiveFailures, 1)
        XCTAssertNil(status.lastSuccess)
        try store.recordSourcePoll(log(at: 200, error: "HTTP 401"))
        XCTAssertEqual(try store.status().consecutiveFailures, 2)

        try store.recordSourcePoll(log(at: 300, records: 4, changes: 1))
        status = try store.status()
        XCTAssertEqual(status.lastPoll, log(at: 300, records: 4, changes: 1))
        XCTAssertEqual(status.lastSuccess, log(at: 300, records: 4, changes: 1))
        XCTAssertEqual(status.lastError, log(at: 200, error: "HTTP 401"), "the last error stays known")
        XCTAssertEqual(status.consecutiveFailures, 0)

        try store.recordSourcePoll(log(at: 400, records: 4), partialFailure: "project SEC cannot be read")
        status = try store.status()
        XCTAssertEqual(status.lastPoll, log(at: 400, records: 4), "the poll was made")
        XCTAssertEqual(status.consecutiveFailures, 0)
        XCTAssertEqual(status.lastError, log(at: 400, records: 4, error: "project SEC cannot be read"))
    }

    func test_settings_storeReplaceAndDelete() throws {
        let store = try makeStore()
        XCTAssertNil(try store.value(forKey: "notified-outage"))
        try store.setValue("yes", forKey: "notified-outage")
        try store.setValue("no", forKey: "notified-outage")
        XCTAssertEqual(try store.value(forKey: "notified-outage"), "no")
        try store.setValue(nil, forKey: "notified-outage")
        XCTAssertNil(try store.value(forKey: "notified-outage"))
    }

    func test_forget_removesOneWatchOnly() throws {
        let store = try makeStore()
        try store.commit(baseline([record(1)], watch: "assigned"))
        try store.commit(poll(watch: "assigned", seen: [key(1, at: "2025-03-01 08:00:00")], changes: [change(1)]))
        try store.commit(baseline([record(2)], watch: "mine"))
        try store.commit(poll(watch: "mine", changes: [change(2)]))
        try store.forget(watch: "assigned")

        XCTAssertNil(try store.snapshot(watch: "assigned"))
        XCTAssertNil(try store.checkpoint(watch: "assigned"))
        XCTAssertEqual(try store.seenHistoryKeys(watch: "assigned"), [])
        XCTAssertEqual(try store.undeliveredChanges().map(\.watch), ["mine"])
        XCTAssertEqual(try store.recentPolls(limit: 10).map(\.watch), ["mine", "mine"])
        XCTAssertEqual(try store.snapshot(watch: "mine"), Snapshot([record(2)]))
    }
}
