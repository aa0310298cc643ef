import Foundation
import SourceKit
import StateStore
import TrackwatchApp
import TrackerHTTP
import TrackwatchCore
import TestSupport
import XCTest

/// The shared poll of every tracker with an activity log, in process, over a scripted tracker and a real state
/// store: each test is one of the rules the three copies of it used to break.
final class ActivityPollerTests: XCTestCase {
    private var directory = ""
    private var now = 1_800_000_000.0

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "activity-poller-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    private func poller(_ tracker: ScriptedTracker, store: StateStore, overlap: Int = 60) -> ActivityPoller<ScriptedTracker> {
        let context = SourceContext(
            state: store, poll: PollConfig(overlap: overlap), environment: [:], logger: .init(label: "test"),
            secret: { _ in Secret("") }, wallClock: { [unowned self] in now })
        return ActivityPoller(tracker: tracker, settings: TestSettings(), watch: "items", context: context, logger: .init(label: "test"))
    }

    private func time(_ offset: Double) -> String { Timestamp(secondsSinceEpoch: Int(now + offset)).rawValue }

    /// A store and a tracker whose one item, A-1 (assigned to me unless `assigned` is false), the silent baseline
    /// has stored.
    private func baselined(assigned: Bool = true) async throws -> (StateStore, ScriptedTracker) {
        let store = try StateStore(directory: directory)
        let tracker = ScriptedTracker()
        tracker.items = ["1": .init(key: "A-1", assigned: assigned, updated: time(-600))]
        _ = try await poller(tracker, store: store).poll(dryRun: false)
        return (store, tracker)
    }

    // MARK: The window

    func test_window_aClockThatSteppedBack_neverPutsTheWindowInTheFuture() {
        let window = ActivityWindow(started: 1_000_000, lastPoll: 1_003_600, overlap: 600, full: false, isBaseline: false)
        XCTAssertEqual(window.since, Timestamp(secondsSinceEpoch: 1_000_000 - 600))
        XCTAssertEqual(window.minutes, 10)
        let normal = ActivityWindow(started: 1_000_000, lastPoll: 999_700, overlap: 600, full: false, isBaseline: false)
        XCTAssertEqual(normal.since, Timestamp(secondsSinceEpoch: 1_000_000 - 900))
        XCTAssertEqual(normal.minutes, 15)
    }

    func test_aPollAfterTheLocalClockRanAnHourFast_stillReportsAColleaguesAssignment() async throws {
        let (store, tracker) = try await baselined(assigned: false)
        now += 3_600  // a poll while the clock ran an hour fast
        _ = try await poller(tracker, store: store).poll(dryRun: false)
        now -= 3_600 - 300  // the clock is put right; five minutes later a colleague assigns the item
        tracker.items["1"] = .init(key: "A-1", assigned: true, updated: time(0))
        tracker.events["1"] = [event("1", "e1", at: time(0), by: "carol", field: "Assignee")]
        let report = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(report.changes.map(\.change.kind), [.assigned])
        XCTAssertEqual(report.changes.first?.change.by, "carol")
        XCTAssertTrue(tracker.windows.last?.since ?? Timestamp("9") <= Timestamp(secondsSinceEpoch: Int(now)))
    }

    // MARK: Future-dated items (a server's clock stepped back)

    func test_aFutureDatedUpdate_doesNotHideTheNextRealChange() async throws {
        let (store, tracker) = try await baselined()
        now += 60
        tracker.items["1"] = .init(key: "A-1", assigned: true, updated: time(3_600), title: "Renamed")  // a node 1 h ahead
        tracker.events["1"] = [event("1", "e1", at: time(3_600), by: "bob", field: "Title")]
        await XCTAssertEqualAsync(try await poller(tracker, store: store).poll(dryRun: false).changes.count, 1)
        now += 300
        tracker.items["1"] = .init(key: "A-1", assigned: true, updated: time(3_600), title: "Renamed", labels: "urgent")
        tracker.events["1"]! += [event("1", "e2", at: time(0), by: "carol", field: "Labels")]
        let report = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(report.changes.map(\.change.by), ["carol"], "the real change after the future-dated one")
    }

    // MARK: Whole-second timestamps: a change later in the second a poll read

    func test_aColleaguesChangeLaterInTheSecondThePollRead_isToldOnce() async throws {
        let (store, tracker) = try await baselined()
        now += 60.2
        let second = time(0)  // the second this poll begins in
        tracker.items["1"] = .init(key: "A-1", assigned: true, updated: second, title: "Renamed")
        tracker.events["1"] = [event("1", "e1", at: second, by: "carol", field: "Title")]
        let first = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(first.changes.map(\.change.by), ["carol"])
        // Bob comments after the server answered, still in that second: `Updated` does not move.
        tracker.events["1"]! += [event("1", "e2", at: second, by: "bob", field: "Comment")]
        now += 0.5
        let report = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(report.changes.map(\.change.by), ["bob"])
        XCTAssertEqual(report.changes.first?.change.changes.map(\.field), ["Comment"], "carol's title not told again")
        now += 60
        await XCTAssertEqualAsync(try await poller(tracker, store: store).poll(dryRun: false).changes.count, 0)
        let reads = tracker.storedMarks.count
        now += 60
        await XCTAssertEqualAsync(try await poller(tracker, store: store).poll(dryRun: false).changes.count, 0)
        XCTAssertEqual(tracker.storedMarks.count, reads, "once its second is over, the item is read only when it moves")
    }

    func test_aRenameLaterInTheSecondThePollRead_isToldByWhoRenamed() async throws {
        let (store, tracker) = try await baselined()
        now += 60
        let second = time(0)
        tracker.items["1"] = .init(key: "A-1", assigned: true, updated: second, labels: "urgent")
        tracker.events["1"] = [event("1", "e1", at: second, by: "carol", field: "Labels")]
        _ = try await poller(tracker, store: store).poll(dryRun: false)
        // Bob renames it in that second: the item moved (its title), its event is as old as what was stored.
        tracker.items["1"] = .init(key: "A-1", assigned: true, updated: second, title: "Renamed", labels: "urgent")
        tracker.events["1"]! += [event("1", "e2", at: second, by: "bob", field: "Title")]
        now += 60
        let report = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(report.changes.map(\.change.by), ["bob"], "named, not a difference without a name")
    }

    func test_whichItemsAreReadAgain_becauseTheirSecondWasNotOver() async throws {
        // `Updated` of the item a poll told, against the second that poll began in; read again at the next poll?
        let rows: [(offset: Double, fraction: String, readAgain: Bool)] = [
            (0, "", true),  // the poll's own second
            (5, "", true),  // a server clock ahead of ours
            (-1, "", false),  // a second already over
            (0, ".25", false),  // a tracker that keeps fractions moves `Updated` with a later change
        ]
        for (index, row) in rows.enumerated() {
            try FileManager.default.createDirectory(atPath: directory + "/\(index)", withIntermediateDirectories: true)
            let store = try StateStore(directory: directory + "/\(index)")
            let tracker = ScriptedTracker()
            tracker.items = ["1": .init(key: "A-1", assigned: true, updated: time(-600))]
            _ = try await poller(tracker, store: store).poll(dryRun: false)
            now += 60
            let updated = time(row.offset) + row.fraction
            tracker.items["1"] = .init(key: "A-1", assigned: true, updated: updated, title: "Renamed")
            tracker.events["1"] = [event("1", "e1", at: updated, by: "carol", field: "Title")]
            let told = try await poller(tracker, store: store).poll(dryRun: false)
            XCTAssertEqual(told.changes.count, 1, "row \(index)")
            let reads = tracker.storedMarks.count
            now += 30
            let again = try await poller(tracker, store: store).poll(dryRun: false)
            XCTAssertEqual(tracker.storedMarks.count - reads, row.readAgain ? 1 : 0, "row \(index)")
            XCTAssertEqual(again.changes.count, 0, "nothing told twice, row \(index)")
        }
    }

    func test_anItemTheBaselineReadInItsOwnSecond_isNotReadAgain() async throws {
        let store = try StateStore(directory: directory)
        let tracker = ScriptedTracker()
        tracker.items = ["1": .init(key: "A-1", assigned: true, updated: time(0))]
        tracker.events["1"] = [event("1", "e1", at: time(0), by: "carol", field: "Title")]
        let baseline = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(
            baseline.baselineNote,
            "Baseline: watching 1 scripted items; changes by others are reported from the next check on.")
        now += 30
        await XCTAssertEqualAsync(try await poller(tracker, store: store).poll(dryRun: false).changes.count, 0, "the baseline is silent")
        XCTAssertEqual(tracker.storedMarks.count, 0, "no log read: the baseline read none")
    }

    func test_betweenPolls_theConnectionTheFactoryGave_isClosed() async throws {
        final class Connection: HTTPTransport, @unchecked Sendable {
            var closed = 0
            func send(_ request: HTTPRequest) throws -> HTTPResponse { HTTPResponse(status: 500, headers: []) }
            func closeIdleConnections() { closed += 1 }
        }
        let connection = Connection()
        let context = SourceContext(
            state: try StateStore(directory: directory), poll: PollConfig(overlap: 60), environment: [:],
            logger: .init(label: "test"), secret: { _ in Secret("") }, wallClock: { [unowned self] in now })
        let poller = ActivityPoller(
            tracker: ScriptedTracker(), settings: TestSettings(), watch: "items", context: context,
            logger: .init(label: "test"), connection: connection)
        _ = try await poller.poll(dryRun: false)
        XCTAssertEqual(connection.closed, 0, "a poll leaves its connection to the daemon")
        poller.closeIdleConnections()
        XCTAssertEqual(connection.closed, 1)
    }

    // MARK: Looking up what a read missed

    func test_onlyAnItemTheTrackerSaidIsGone_isDropped_oneNotAnsweredStays() async throws {
        let store = try StateStore(directory: directory)
        let tracker = ScriptedTracker()
        tracker.items = [
            "1": .init(key: "A-1", assigned: true, updated: time(-600)),
            "2": .init(key: "A-2", assigned: true, updated: time(-600)),
        ]
        _ = try await poller(tracker, store: store).poll(dryRun: false)
        now += 60
        tracker.items = [:]
        tracker.missing = ["1", "2"]
        tracker.lookups = ["1": .gone(status: 404)]  // 2 is not answered (a search that lagged)
        _ = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(try store.snapshot(watch: "items")?.sortedRecords.map(\.id.rawValue), ["A-2"])
        XCTAssertEqual(tracker.asked.last, ["1", "2"])
    }

    func test_anItemInAPartIcanNoLongerRead_staysWatched_andThePartIsNamed_whileTheRestIsPolled() async throws {
        let store = try StateStore(directory: directory)
        let tracker = ScriptedTracker()
        tracker.items = [
            "1": .init(key: "A-1", assigned: true, updated: time(-600)),
            "2": .init(key: "B-1", assigned: true, updated: time(-600)),
        ]
        _ = try await poller(tracker, store: store).poll(dryRun: false)
        now += 60
        tracker.items.removeValue(forKey: "1")
        tracker.items["2"] = .init(key: "B-1", assigned: true, updated: time(0), title: "Renamed")
        tracker.events["2"] = [event("2", "e1", at: time(0), by: "bob", field: "Title")]
        tracker.missing = ["1"]
        tracker.lookups = ["1": .unreadable(part: "acme/private")]
        let report = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(report.changes.map(\.change.record.rawValue), ["B-1"])
        XCTAssertEqual("\(report.failure.map { "\($0)" } ?? "")", "Scripted: not available: acme/private; the rest is watched")
        XCTAssertEqual(try store.snapshot(watch: "items")?.sortedRecords.map(\.id.rawValue), ["A-1", "B-1"])
        // Remembered: the next steady poll names it again and tells the tracker to leave it out.
        now += 60
        tracker.missing = []
        let next = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertNotNil(next.failure)
        XCTAssertEqual(tracker.unreadableSeen.last, ["acme/private"])
    }

    func test_moreLookupsThanAPollAsks_theRestAreAskedNextPoll_notDropped() async throws {
        let store = try StateStore(directory: directory)
        let tracker = ScriptedTracker()
        tracker.mostLookups = 2
        for n in 1...5 { tracker.items["\(n)"] = .init(key: "A-\(n)", assigned: true, updated: time(-600)) }
        _ = try await poller(tracker, store: store).poll(dryRun: false)
        now += 60
        tracker.items = [:]
        tracker.missing = ["1", "2", "3", "4", "5"]
        for n in 1...5 {
            tracker.lookups["\(n)"] = .found(.init(key: "A-\(n)", assigned: false, updated: time(-30)), isMine: false)
            tracker.events["\(n)"] = [event("\(n)", "u\(n)", at: time(-30), by: "carol", field: "Assignee")]
        }
        let first = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(first.changes.map(\.change.kind), [.unassigned, .unassigned])
        XCTAssertEqual(try store.snapshot(watch: "items")?.sortedRecords.count, 3)
        now += 60
        let second = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(second.changes.count, 2)
        XCTAssertEqual(tracker.asked.last, ["3", "4"])
    }

    // MARK: Memory, committed with the snapshot

    func test_whatTheTrackerRemembers_isCommittedWithThePoll_andNotWhenThePollFails() async throws {
        let store = try StateStore(directory: directory)
        let tracker = ScriptedTracker()
        tracker.items = ["1": .init(key: "A-1", assigned: true, updated: time(-600))]
        tracker.remember = ["etag": "v1"]
        _ = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(try store.value(forKey: "etag"), "v1")
        now += 60
        tracker.remember = ["etag": "v2"]
        tracker.items["1"] = .init(key: "A-1", assigned: true, updated: time(0), title: "Renamed")
        tracker.failLogs = true
        await XCTAssertThrowsErrorAsync(try await poller(tracker, store: store).poll(dryRun: false))
        XCTAssertEqual(try store.value(forKey: "etag"), "v1", "a failed poll remembers nothing of what it saw")
        tracker.failLogs = false
        _ = try await poller(tracker, store: store).poll(dryRun: true)
        XCTAssertEqual(try store.value(forKey: "etag"), "v1", "a dry run remembers nothing")
    }

    func test_whoIAm_isAskedOnAFullRead_andRememberedBetween_evenInAFreshProcess() async throws {
        let store = try StateStore(directory: directory)
        let tracker = ScriptedTracker()
        _ = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(tracker.identified, 1)
        now += 60
        _ = try await poller(tracker, store: store).poll(dryRun: false)  // a fresh poller: `check` in a new process
        XCTAssertEqual(tracker.identified, 1)
        XCTAssertEqual(tracker.windows.last?.full, false)
        now += 60
        _ = try await poller(tracker, store: store).poll(dryRun: false, fullRead: true)  // check --full
        XCTAssertEqual(tracker.windows.last?.full, true)
        XCTAssertEqual(tracker.identified, 2)
    }

    // MARK: Busy items, marks

    func test_anItemTooBusyToReadWhole_isToldOnce_andTheRestIsReported() async throws {
        let store = try StateStore(directory: directory)
        let tracker = ScriptedTracker()
        tracker.items = [
            "1": .init(key: "A-1", assigned: true, updated: time(-600)),
            "2": .init(key: "A-2", assigned: true, updated: time(-600)),
        ]
        _ = try await poller(tracker, store: store).poll(dryRun: false)
        for round in 1...2 {
            now += 60
            tracker.items["1"] = .init(key: "A-1", assigned: true, updated: time(0), title: "Busy \(round)")
            tracker.items["2"] = .init(key: "A-2", assigned: true, updated: time(0), title: "Calm \(round)")
            tracker.events["1", default: []].append(event("1", "b\(round)", at: time(0), by: "bob", field: "Title"))
            tracker.events["2", default: []].append(event("2", "c\(round)", at: time(0), by: "carol", field: "Title"))
            tracker.incomplete = ["1"]
            let report = try await poller(tracker, store: store).poll(dryRun: false)
            XCTAssertEqual(report.changes.map(\.change.record.rawValue), ["A-1", "A-2"])
            let notes = report.changes[0].change.changes.filter { $0.field == "Note" }
            XCTAssertEqual(notes.count, round == 1 ? 1 : 0, "said once, in round \(round)")
        }
    }

    func test_anItemWhoseLogSkippedAnEntry_hasItsUnnamedDifferenceTold_besideMyOwnReadEvent() async throws {
        let (store, tracker) = try await baselined()
        for skipped in [0, 1] {
            now += 60
            // My own readable label change, and a colleague's retitling whose entry could not be read.
            tracker.items["1"] = .init(
                key: "A-1", assigned: true, updated: time(0), title: "Retitled \(skipped)", labels: "x\(skipped)")
            tracker.events["1", default: []].append(event("1", "m\(skipped)", at: time(0), by: "me", field: "Labels"))
            tracker.skipped = ["1": skipped]
            let report = try await poller(tracker, store: store).poll(dryRun: false)
            if skipped == 0 {
                XCTAssertTrue(report.changes.isEmpty, "a log read whole: my own doing")
            } else {
                XCTAssertEqual(report.changes.map(\.change.record.rawValue), ["A-1"])
                XCTAssertEqual(report.changes.first?.change.changes.map(\.field), ["Title"], "what no read event names")
                XCTAssertNil(report.changes.first?.change.by)
            }
        }
    }

    /// An entry that could not be read in the second the poll began in, told without a name, and readable when the
    /// next poll reads that second again: told once. What else happened in that second is still told.
    func test_anEntryUnreadableInTheSecondThePollRead_andMendedByTheNext_isNotToldTwice() async throws {
        let (store, tracker) = try await baselined()
        now += 60.2
        let second = time(0)
        tracker.items["1"] = .init(key: "A-1", assigned: true, updated: second, title: "Retitled")
        tracker.skipped = ["1": 1]  // carol's retitling, unreadable
        let first = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(first.changes.first?.change.changes.map(\.field), ["Title"])
        XCTAssertNil(first.changes.first?.change.by)
        // Read again (its second was not over): carol's entry is readable now, and bob commented later in that second.
        tracker.skipped = [:]
        tracker.events["1"] = [
            event("1", "c1", at: second, by: "carol", field: "Title"), event("1", "b1", at: second, by: "bob", field: "Comment"),
        ]
        now += 0.5
        let report = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(report.changes.map(\.change.by), ["bob"])
        XCTAssertEqual(report.changes.first?.change.changes.map(\.field), ["Comment"], "carol's retitling told once")
        now += 60
        await XCTAssertEqualAsync(try await poller(tracker, store: store).poll(dryRun: false).changes.count, 0)
    }

    /// The same, but a colleague changed the unnamed field again later in that second: that change is told.
    func test_aFieldToldWithoutAName_changedAgainLaterInThatSecond_isTold() async throws {
        let (store, tracker) = try await baselined()
        now += 60.2
        let second = time(0)
        tracker.items["1"] = .init(key: "A-1", assigned: true, updated: second, title: "Retitled")
        tracker.skipped = ["1": 1]
        await XCTAssertEqualAsync(try await poller(tracker, store: store).poll(dryRun: false).changes.count, 1)
        tracker.skipped = [:]
        tracker.items["1"] = .init(key: "A-1", assigned: true, updated: second, title: "Retitled again")
        tracker.events["1"] = [
            event("1", "c1", at: second, by: "carol", field: "Title"), event("1", "b1", at: second, by: "bob", field: "Title"),
        ]
        now += 0.5
        let report = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(report.changes.count, 1)
        XCTAssertEqual(report.changes.first?.change.by, "bob", "the title moved again: told, by who moved it")
    }

    func test_marksStayWithAnItem_untilTheTrackerSetsThemAgain() async throws {
        let (store, tracker) = try await baselined()
        now += 60
        tracker.items["1"] = .init(key: "A-1", assigned: true, updated: time(0), title: "Pushed")
        tracker.marks = ["1": ["_head": "abc"]]
        _ = try await poller(tracker, store: store).poll(dryRun: false)
        now += 60
        tracker.marks = [:]
        tracker.items["1"] = .init(key: "A-1", assigned: true, updated: time(0), title: "Pushed again")
        _ = try await poller(tracker, store: store).poll(dryRun: false)
        XCTAssertEqual(try store.snapshot(watch: "items")?.sortedRecords.first?["_head"], "abc")
        XCTAssertEqual(tracker.storedMarks.last, "abc", "the tracker reads the stored mark back")
    }

    private func event(_ item: String, _ id: String, at: String, by: String, field: String) -> ActivityEvent {
        ActivityEvent(
            item: item, id: id, at: Timestamp(at), actor: Actor(id: by, name: by),
            changes: [FieldChange(field: field, old: "a", new: "b")])
    }
}

/// A tracker whose answers the test writes.
final class ScriptedTracker: ActivityTracker {
    struct Item {
        var key: String
        var assigned: Bool
        var updated: String
        var title = "Title"
        var labels = ""
    }

    var items: [String: Item] = [:]
    var events: [String: [ActivityEvent]] = [:]
    var missing: Set<String> = []
    var lookups: [String: ItemLookup<Item>] = [:]
    var incomplete: Set<String> = []
    /// Entries of an item's log the tracker could not read.
    var skipped: [String: Int] = [:]
    var marks: [String: [String: String]] = [:]
    var remember: [String: String] = [:]
    var failLogs = false
    var mostLookups = 50
    private(set) var asked: [[String]] = []
    private(set) var windows: [ActivityWindow] = []
    private(set) var unreadableSeen: [Set<String>] = []
    private(set) var identified = 0
    private(set) var storedMarks: [String?] = []

    let watching = "scripted items"

    func identify(_ memory: inout TrackerMemory) throws -> ActivityIdentity {
        identified += 1
        return ActivityIdentity(id: "me", login: "me")
    }

    func rules(me: ActivityIdentity) -> ActivityRules {
        ActivityRules(me: me.id, comparedFields: ["Title", "Labels"], assignmentFields: ["Assignee"])
    }

    func readLists(_ poll: ActivityPoll, memory: inout TrackerMemory) throws -> ActivityLists<Item> {
        windows.append(poll.window)
        unreadableSeen.append(poll.unreadable)
        for (key, value) in remember { memory.set(key, value) }
        return ActivityLists(mine: items, missing: missing)
    }

    func lookUp(_ ids: [String], _ poll: ActivityPoll, lists: inout ActivityLists<Item>) throws -> [String: ItemLookup<Item>] {
        asked.append(ids)
        return lookups.filter { ids.contains($0.key) }
    }

    func item(_ item: Item, id: String, isMine: Bool, reviewRequested: Bool, _ poll: ActivityPoll) -> ActivityItem? {
        ActivityItem(
            id: id,
            record: Record(
                id: RecordID(item.key), fields: ["Title": item.title, "Labels": item.labels, ActivityFields.updated: item.updated]),
            isAssignedToMe: item.assigned, isMine: isMine, facts: ItemFacts(headline: item.title))
    }

    func logs(of changed: [(item: ActivityItem, source: Item)], _ poll: ActivityPoll) throws -> [String: ItemLog] {
        if failLogs { throw ConfigurationProblem("scripted failure") }
        var logs: [String: ItemLog] = [:]
        for (item, _) in changed {
            storedMarks.append(poll.stored[item.id]?["_head"])
            logs[item.id] = ItemLog(
                events: events[item.id] ?? [], complete: !incomplete.contains(item.id), marks: marks[item.id] ?? [:],
                skipped: skipped[item.id] ?? 0)
        }
        return logs
    }
}

struct TestSettings: SourceSettings, Equatable {
    var sourceName: String { "scripted" }
    var trackerName: String { "Scripted" }
    var label: String { "scripted" }
    var url: String { "https://tracker.example" }
    var stateFolder: String { "" }
    func link(for change: Change) -> String? { nil }
    var ownerAndStateFields: [String] { [] }
    var requestTimeout: Int { 30 }
    var files: [(key: String, path: String)] { [] }
}
