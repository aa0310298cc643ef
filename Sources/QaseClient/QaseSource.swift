import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// A Qase TestOps workspace as a source. Each poll lists the projects, then asks two watches, each diffed against
/// its own snapshot and committed in its own transaction (`WatchPoller`):
///
/// - `assigned`: defects assigned to me, plans with cases assigned to me, reviews waiting on me;
/// - `mine`: my test cases, defects and reviews, changed by someone else.
///
/// A failure of `assigned` fails the poll; one of `mine` (or a configured project the token cannot see) is the
/// report's `failure`, after what was found is committed.
public final class QaseSource: Source {
    public static let assignedWatch = "assigned", mineWatch = "mine"
    /// The state key of the next plan to read again whatever its `updated_at` says.
    static let planCursorKey = "plan_refresh_cursor"

    public let settings: any SourceSettings
    let qase: QaseSettings
    let questions: QaseQuestions
    let people: QasePeople
    private let state: any PollState
    private let poll: PollConfig
    private let logger: Logger
    private let wallClock: () -> Double
    private let watchPoller: WatchPoller
    private var toldOutdated = Set<String>()

    init(settings: QaseSettings, api: QaseAPI, context: SourceContext, logger: Logger) {
        self.settings = settings
        qase = settings
        questions = QaseQuestions(api: api, logger: logger)
        people = QasePeople(api: api, email: settings.email)
        state = context.state
        poll = context.poll
        self.logger = logger
        wallClock = context.wallClock
        watchPoller = WatchPoller(
            source: settings.name, state: context.state, logger: logger, wallClock: context.wallClock)
    }

    public func closeIdleConnections() { questions.api.transport.closeIdleConnections() }

    /// A token is no session: nothing to end.
    public func close() async {}

    public func poll(dryRun: Bool, fullRead: Bool) async throws -> PollReport {
        let clock = ContinuousClock(), start = clock.now
        let started = wallClock()
        questions.startPoll()
        let me = try await people.resolveMe()
        let previousAssigned = try state.snapshot(watch: Self.assignedWatch)
        let previousMine = try state.snapshot(watch: Self.mineWatch)
        var plan = await QaseProjectPlan(
            configured: qase.projects, visible: try questions.visibleProjects(),
            known: QaseProject.known(in: previousAssigned) + QaseProject.known(in: previousMine))
        var failure: (any Error)?
        for code in plan.missing {
            do { await plan.targets.append(try questions.project(code: code)) } catch { failure = failure ?? error }
        }
        tellAboutRenames(plan)

        var excluded = Set<RecordID>()
        var openCount = 0
        let assigned = try await watchPoller.poll(Self.assignedWatch, dryRun: dryRun) { () throws -> WatchResult in
            let (stored, _) = QaseDiff.renamed(previousAssigned ?? Snapshot(), plan.renames)
            let refresh = try planRefresh(stored)
            var observation = try await QaseObservers(questions: questions).assigned(
                plan.targets, me: me, previous: stored, refresh: refresh.picks)
            observation.renames = plan.renames
            openCount = observation.records.filter(QaseRecords.isOpen).count
            excluded = Self.assignedItems(observation, stored: stored)
            if !dryRun { refresh.advance() }
            return WatchResult(
                outcome: QaseDiff.compare(
                    previous: previousAssigned, observation: observation,
                    rule: .assigned),
                recordCount: openCount)
        }
        var report = PollReport(
            changes: assigned.changes, isBaseline: assigned.isBaseline, recordCount: openCount,
            recordCountLabel: "assigned", durationMilliseconds: 0, silentUpdates: assigned.silentUpdates,
            baselineNote: "Baseline: watching \(openCount) open items assigned to you in Qase and your own test cases, "
                + "defects and reviews; changes are reported from the next check on.")
        do {
            let mine = try await watchPoller.poll(Self.mineWatch, dryRun: dryRun) { () throws -> WatchResult in
                try await observeMine(plan, me: me, previous: previousMine, excluded: excluded, started: started)
            }
            report.changes += mine.changes
            report.silentUpdates += mine.silentUpdates
        } catch {
            logger.error("poll of your own Qase items failed", metadata: ["error": "\(error)"])
            failure = failure ?? error
        }
        report.failure = failure
        report.durationMilliseconds = WatchPoller.milliseconds(clock.now - start)
        return report
    }

    /// The `mine` watch: read (through a window since its checkpoint), name the people whose edits are
    /// reported, diff.
    private func observeMine(
        _ plan: QaseProjectPlan, me: QaseMe, previous: Snapshot?, excluded: Set<RecordID>, started: Double
    ) async throws -> WatchResult {
        let checkpoint = try state.checkpoint(watch: Self.mineWatch)
        let stored = previous.map { QaseDiff.renamed($0, plan.renames).0 }
        let known = Set(QaseProject.known(in: stored).map(\.code))
        var observation = try await QaseObservers(questions: questions).mine(
            plan.targets, me: me, known: known,
            days: Self.windowDays(since: checkpoint, now: started, overlap: poll.overlap))
        observation.renames = plan.renames
        // The window starts where the last poll that could read it did: without QQL it could not.
        observation.checkpoint = questions.qql == .available ? Timestamp(secondsSinceEpoch: Int(started)) : checkpoint
        let needed = QaseDiff.namesNeeded(previous: previous, observation: observation, me: me)
        let names = try await people.names(of: needed)
        let outcome = QaseDiff.compare(
            previous: previous, observation: observation,
            rule: .mine(me: me, excluded: excluded, names: names))
        return WatchResult(outcome: outcome, recordCount: observation.records.count)
    }

    /// Whole days back from now that cover the time since `checkpoint` and the overlap; `nil` without one.
    static func windowDays(since checkpoint: Timestamp?, now: Double, overlap: Int) -> Int? {
        guard let seconds = checkpoint?.secondsSinceEpoch else { return nil }
        let span = max(0, Int(now) - seconds) + overlap
        return min(max(1, (span + 86_399) / 86_400), 100_000)
    }

    /// The items the assigned watch holds after this poll: its reading, and what it kept of parts not read.
    static func assignedItems(_ observation: QaseObservation, stored: Snapshot) -> Set<RecordID> {
        var items = Set(observation.records.filter(QaseRecords.isAssigned).map(\.id))
        for record in stored.sortedRecords where QaseRecords.isAssigned(record) {
            if let segment = QaseKey.parse(record.id)?.segment, !observation.asked.contains(segment) {
                items.insert(record.id)
            }
        }
        return items
    }

    /// Which plans to read in full whatever their `updated_at` says: a few per poll, in turn, so that each is
    /// read at least every 12 polls (an assignment may leave `updated_at` alone).
    private func planRefresh(_ stored: Snapshot) throws -> (picks: (String, Int) -> Bool, advance: () -> Void) {
        let order = QaseObservers.planOrder(stored)
        guard !order.isEmpty else { return ({ _, _ in false }, {}) }
        let count = min(10, max(1, (order.count + 11) / 12))
        let cursor = (Int(try state.value(forKey: Self.planCursorKey) ?? "") ?? 0) % order.count
        let picked = Set((0..<count).map { order[(cursor + $0) % order.count] })
        return (
            { code, id in picked.contains(QaseKey.plan(code, id)) },
            { [state, logger] in
                do { try state.setValue(String((cursor + count) % order.count), forKey: Self.planCursorKey) } catch {
                    logger.warning("could not store which plan to read next", metadata: ["error": "\(error)"])
                }
            }
        )
    }

    private func tellAboutRenames(_ plan: QaseProjectPlan) {
        for (old, new) in plan.renames.sorted(by: { $0.key < $1.key }) {
            logger.notice(
                "Qase project renamed; its items keep their history under the new code",
                metadata: ["from": "\(old)", "to": "\(new)"])
        }
        for (old, new) in plan.outdated(configured: qase.projects) where toldOutdated.insert(old).inserted {
            logger.warning(
                "a project in the configuration was renamed in Qase; watching it by its new code",
                metadata: ["configured": "\(old)", "now": "\(new)", "fix": "projects in [[qase]] \(qase.name)"])
        }
    }
}
