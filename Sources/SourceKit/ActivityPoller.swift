import Logging
import TrackerHTTP
import TrackwatchCore

/// The poll of every tracker with an activity log, written once: a tracker (`ActivityTracker`) is its client and
/// its mapping, and this is the `Source` around them.
///
/// One poll: the window from the last poll's start (clamped, `ActivityWindow`); a full read when `FullRead` says
/// so or a person asked (`check --full`); who I am (asked on a full read, remembered between); my lists; stored
/// items the lists missed asked for by id, at most `mostLookups` a poll — only an item the tracker *said* is gone
/// is gone, one never asked stays and is asked next time, one in a part I can no longer read stays and the part is
/// named; the logs of the items that moved; `ActivityDiff`; and one transaction for the snapshot, the seen log
/// entries, the changes and everything the tracker remembers (`TrackerMemory`). Not thread-safe by design: one poll
/// at a time, on its own thread (`PollThread`).
public final class ActivityPoller<Tracker: ActivityTracker>: Source {
    /// The one watch of an activity tracker.
    public let watch: String
    public let settings: any SourceSettings
    public let tracker: Tracker
    private let state: any PollState
    private let overlap: Int
    private let logger: Logger
    private let wallClock: () -> Double
    private let watchPoller: WatchPoller
    private var me: ActivityIdentity?
    /// What the answers of one poll may come to in all; reset as each poll starts.
    private let budget: ReadBudget?
    /// The server's clock as this poll's answers give it: whether an item's second is over.
    private let serverClock: ServerClock?
    /// The connection the tracker's requests go over, closed between polls.
    private let connection: (any HTTPTransport)?
    /// How long seen log entries are kept (by their time, and by when they were stored): older ones are older than
    /// anything a read still returns as news.
    static var keepSeenFor: Double { 30 * 86_400 }
    /// The most seen log entries kept for one item: more than a poll reads of it.
    static var seenPerItem: Int { 10_000 }
    /// Memory keys owned by the poller (the busy items are those already said to be too busy to follow in full).
    static var fullReadKey: String { "activity_full_read_at" }
    static var meKey: String { "activity_me" }
    static var unreadableKey: String { "activity_unreadable" }
    static var busyKey: String { "activity_busy" }
    static var openSecondKey: String { "activity_open_second" }
    static var toldUnnamedKey: String { "activity_told_unnamed" }

    public init(
        tracker: Tracker, settings: any SourceSettings, watch: String, context: SourceContext, logger: Logger,
        budget: ReadBudget? = nil, serverClock: ServerClock? = nil, connection: (any HTTPTransport)? = nil
    ) {
        self.tracker = tracker
        self.budget = budget
        self.serverClock = serverClock
        self.connection = connection
        self.settings = settings
        self.watch = watch
        state = context.state
        overlap = context.poll.overlap
        self.logger = logger
        wallClock = context.wallClock
        watchPoller = WatchPoller(source: settings.sourceName, state: context.state, logger: logger, wallClock: context.wallClock)
    }

    public func closeIdleConnections() { connection?.closeIdleConnections() }
    public func close() async {}

    public func poll(dryRun: Bool, fullRead: Bool) async throws -> PollReport {
        let clock = ContinuousClock(), start = clock.now
        let started = wallClock()
        budget?.reset()
        serverClock?.reset()
        let previous = try state.snapshot(watch: watch)
        let lastPoll = try state.checkpoint(watch: watch)?.secondsSinceEpoch.map(Double.init)
        var memory = TrackerMemory(read: { [state] in try state.value(forKey: $0) })
        let lastFull = Double(try memory.value(Self.fullReadKey) ?? "")
        let full = fullRead || FullRead.isDue(
            hasSnapshot: previous != nil, sinceLastPoll: lastPoll.map { started - $0 }, lastFullRead: lastFull, now: started)
        let me = try await identity(full: full, memory: &memory)
        let window = ActivityWindow(started: started, lastPoll: lastPoll, overlap: overlap, full: full, isBaseline: previous == nil)
        let remembered = full ? [] : try memory.ids(Self.unreadableKey)
        let stored = StoredItems(previous, lastPoll: lastPoll, openSecond: try memory.ids(Self.openSecondKey))
        var poll = ActivityPoll(window: window, me: me, stored: stored, unreadable: remembered)
        var assigned = 0
        var unreadable = remembered
        let result = try await watchPoller.poll(watch, dryRun: dryRun) { () async throws -> WatchResult in
            let observation = try await observe(&poll, memory: &memory)
            unreadable.formUnion(observation.unreadable)
            // The seen log is read only when there are events to tell apart: a steady poll has none, and a month of
            // seen entries is thousands of keys.
            let seen = observation.read.events.isEmpty ? [] : try state.seenHistoryKeys(watch: watch)
            let outcome = ActivityDiff.compare(
                previous: previous, storedByID: stored.byID, seen: seen, observation: observation.read,
                rules: tracker.rules(me: me), seenUpTo: { poll.stored.seenUpTo($0, window: window) },
                checkpoint: Timestamp(secondsSinceEpoch: Int(started)))
            assigned = ActivityDiff.assignedCount(previous: previous, outcome: outcome)
            memory.set(Self.unreadableKey, ids: unreadable)
            if full {
                memory.set(Self.fullReadKey, String(Int(started)))
                memory.set(Self.meKey, me.encoded)
            }
            return WatchResult(
                outcome: outcome, recordCount: assigned,
                pruneSeenBefore: Timestamp(secondsSinceEpoch: Int(started - Self.keepSeenFor)), values: memory.writes,
                bounds: SeenBounds(storedBefore: started - Self.keepSeenFor, perRecord: Self.seenPerItem))
        }
        var report = PollReport(
            changes: result.changes, isBaseline: result.isBaseline, recordCount: assigned,
            recordCountLabel: "assigned", durationMilliseconds: WatchPoller.milliseconds(clock.now - start),
            silentUpdates: result.silentUpdates,
            baselineNote: "Baseline: watching \(assigned) \(tracker.watching); changes by others are reported from the "
                + "next check on.")
        if !unreadable.isEmpty {
            let parts = unreadable.sorted()
            report.failure = tracker.unavailable(parts) ?? ConfigurationProblem(
                "\(settings.trackerName): not available: \(parts.joined(separator: ", ")); the rest is watched")
        }
        report.serverInterval = tracker.takeServerInterval()
        return report
    }

    /// Who I am: this process's answer, else (between full reads) what the last full read stored, else the server's.
    private func identity(full: Bool, memory: inout TrackerMemory) async throws -> ActivityIdentity {
        if let me { return me }
        if !full, let stored = try memory.value(Self.meKey).flatMap(ActivityIdentity.init(encoded:)) {
            me = stored
            return stored
        }
        let found = try await tracker.identify(&memory)
        me = found
        return found
    }

    private struct Observed {
        var read: ActivityObservation
        var unreadable: Set<String>
    }

    /// Reads the lists, asks for the stored items they missed, maps the items and reads the logs of those that moved.
    private func observe(_ poll: inout ActivityPoll, memory: inout TrackerMemory) async throws -> Observed {
        var lists = try await tracker.readLists(poll, memory: &memory)
        let stored = poll.stored
        var unreadable = lists.unreadable
        poll.unreadable.formUnion(unreadable)
        func reviewRequested(_ id: String) -> Bool {
            lists.reviewRequests.contains(id)
                || (!lists.reviewRequestsComplete && stored[id]?[ActivityFields.reviewRequested] == "yes")
        }
        // Stored items to ask about: on a full read every one it did not return, otherwise those the tracker says
        // the lists should have shown, and those read in a second that was not over (their `Updated` did not move,
        // so a list may leave them out).
        let missing = (poll.window.full ? Set(stored.byID.keys) : lists.missing.union(stored.openSecond))
            .subtracting(lists.mine.keys)
            .filter { stored[$0] != nil }.sorted()
        let asked = Array(missing.prefix(tracker.mostLookups))
        if missing.count > asked.count {
            logger.notice(
                "more \(settings.trackerName) items to look up than one poll asks for; the rest next poll",
                metadata: ["items": "\(missing.count)", "asked": "\(asked.count)"])
        }
        var candidates: [String: (item: Tracker.Item, isMine: Bool)] = [:]
        let answers = await asked.isEmpty ? [:] : try tracker.lookUp(asked, poll, lists: &lists)
        for (id, item) in lists.mine { candidates[id] = (item, true) }
        var gone = Set<String>()
        for id in asked {
            switch answers[id] {
            case .found(let item, let isMine): candidates[id] = (item, isMine)
            case .gone(let status):
                gone.insert(id)
                logger.notice(
                    "a \(settings.trackerName) item is no longer visible; no longer watched",
                    metadata: ["item": "\(stored[id]?.id.rawValue ?? id)", "status": "\(status)"])
            case .unreadable(let part): unreadable.insert(part)
            case nil: continue  // not answered: kept, and asked again
            }
        }
        var items: [ActivityItem] = [], changed: [(item: ActivityItem, source: Tracker.Item)] = []
        for (id, candidate) in candidates.sorted(by: { $0.key < $1.key }) {
            guard var item = tracker.item(
                candidate.item, id: id, isMine: candidate.isMine, reviewRequested: reviewRequested(id), poll)
            else { continue }
            let before = stored[id]
            // Hidden marks the tracker keeps with an item (a last commit seen) stay until it sets them again.
            for (field, value) in before?.fields ?? [:] where Self.isMark(field) && item.record[field] == nil {
                item.record.fields[field] = value
            }
            let moved = before.map { Self.hasMoved($0, item.record) || stored.openSecond.contains(id) } ?? true
            if !poll.window.isBaseline, moved {
                changed.append((item, candidate.item))
            }
            items.append(item)
        }
        let logs = await changed.isEmpty ? [:] : try tracker.logs(of: changed, poll)
        var events: [ActivityEvent] = []
        var busy = try memory.ids(Self.busyKey)
        let busyBefore = busy
        var partlyRead = Set<String>()
        let toldBefore = try memory.ids(Self.toldUnnamedKey)
        var toldUnnamed: [String: Timestamp] = [:]
        for id in toldBefore where stored.openSecond.contains(id) {
            if let updated = stored[id]?[ActivityFields.updated] { toldUnnamed[id] = Timestamp(updated) }
        }
        for index in items.indices {
            let id = items[index].id
            guard let log = logs[id] else { continue }
            events += log.events
            if log.skipped > 0 { partlyRead.insert(id) }
            for (field, value) in log.marks { items[index].record.fields[field] = value }
            if !log.complete, busy.insert(id).inserted {
                logger.notice(
                    "a \(settings.trackerName) item is too busy to follow in full: only its newest activity is read",
                    metadata: ["item": "\(items[index].record.id)"])
                events.append(
                    ActivityEvent(
                        item: id, id: "busy", at: Timestamp(secondsSinceEpoch: Int(poll.window.started)), actor: nil,
                        changes: [FieldChange(field: "Note", old: nil, new: "too busy to follow in full; only its newest activity is told")]))
            }
        }
        let logged = Set(changed.map(\.item.id))
        logger.debug(
            "read",
            metadata: ["full": "\(poll.window.full)", "listed": "\(lists.mine.count)", "asked": "\(asked.count)",
                       "gone": "\(gone.count)", "changed": "\(changed.count)", "events": "\(events.count)"])
        busy.formIntersection(Set(items.map(\.id)))
        if busy != busyBefore { memory.set(Self.busyKey, ids: busy) }
        // Items whose log this poll read while their `Updated` second was not over; those of the last poll not read
        // again (a lookup not answered) stay until they are.
        var open = stored.openSecond.subtracting(logs.keys).subtracting(gone)
        // By the earlier of the two clocks: this machine's may run ahead of the server's, whose second may then
        // still be open when ours has left it.
        let now = min(poll.window.started, serverClock?.earliestDate ?? poll.window.started)
        for item in items where item.isMine && logs[item.id] != nil {
            let updated = item.record[ActivityFields.updated].map(Timestamp.init)
            if StoredItems.isOpen(updated: updated, started: now) { open.insert(item.id) }
        }
        if open != (try memory.ids(Self.openSecondKey)) { memory.set(Self.openSecondKey, ids: open) }
        // Items read in part in a second read again next poll: what was told of them then, without a name, may
        // turn up there as readable entries. One not read again this time stays until it is.
        let told = toldBefore.subtracting(logs.keys).union(partlyRead).intersection(open)
        if told != toldBefore { memory.set(Self.toldUnnamedKey, ids: told) }
        if !unreadable.isEmpty {
            logger.warning(
                "parts of \(settings.trackerName) are not available; the rest is watched",
                metadata: ["parts": "\(unreadable.sorted().joined(separator: ", "))"])
        }
        return Observed(
            read: ActivityObservation(
                items: items, events: events, gone: gone, logged: logged, partlyRead: partlyRead,
                toldUnnamed: toldUnnamed),
            unreadable: unreadable)
    }

    /// A field the poller keeps for the tracker (`_head`), not one of the diff's own (`_id`, `_assigned`).
    static func isMark(_ field: String) -> Bool {
        field.hasPrefix("_") && field != ActivityDiff.idField && field != ActivityDiff.assignedField
            && field != ActivityFields.reviewRequested
    }

    /// An item moved when anything it is stored with changed: its key, its `Updated`, a compared field, my review.
    static func hasMoved(_ before: Record, _ after: Record) -> Bool {
        if before.id != after.id { return true }
        for (field, value) in after.fields where !isMark(field) && field != ActivityDiff.idField
            && field != ActivityDiff.assignedField && before[field] != Record.stored(value)
        {
            return true
        }
        return false
    }
}
