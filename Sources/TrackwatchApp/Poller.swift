import CompassClient
import Logging
import TrackwatchCore

/// What the poller needs from the state store. `StateStore` implements it over SQLite; the protocol keeps
/// the poll logic testable and the store swappable.
public protocol PollState: AnyObject {
    func snapshot(watch: String) throws -> Snapshot?
    func checkpoint(watch: String) throws -> CompassTimestamp?
    func seenHistoryKeys(watch: String) throws -> Set<HistoryKey>
    @discardableResult func commit(_ poll: PollCommit) throws -> [StoredChange]
    func recordFailure(watch: String, log: PollLogEntry) throws
}

/// The result of one successful poll.
public struct PollReport: Sendable {
    /// Detected changes; stored in the outbox unless the poll was a dry run (then their ids are 0).
    public var changes: [StoredChange]
    public var isBaseline: Bool
    public var recordCount: Int
    public var durationMilliseconds: Int
    public var silentUpdates: Int
}

/// One poll of the built-in watch: run *assigned to me*, then *modified by others*, diff against the stored
/// snapshot, and commit snapshot, seen history, checkpoint and changes in one transaction.
public final class Poller {
    /// The built-in watch's name in the store.
    public static let assignedWatch = "assigned"

    private let client: CompassClient
    private let state: any PollState
    private let settings: PollConfig
    private let logger: Logger
    private let wallClock: () -> Double

    public init(client: CompassClient, state: any PollState, settings: PollConfig, logger: Logger,
                wallClock: @escaping () -> Double = SystemClocks.wallTime) {
        self.client = client
        self.state = state
        self.settings = settings
        self.logger = logger
        self.wallClock = wallClock
    }

    /// Polls once. On failure the stored state is untouched (the failure is logged unless `dryRun`) and the
    /// error is rethrown.
    public func poll(dryRun: Bool = false) throws -> PollReport {
        let started = wallClock()
        let clock = ContinuousClock()
        let start = clock.now
        let watch = Self.assignedWatch
        do {
            let checkpoint = try state.checkpoint(watch: watch)
            // Assigned first: a record that becomes mine between the two queries then shows up in the
            // history rows but not in the set, and is left for the next poll instead of looking self-assigned.
            let observation = try observe(since: checkpoint.flatMap { $0.adding(seconds: -settings.overlap) })
            // The stored snapshot is loaded only now, after the raw rows are gone: at 100,000 records holding
            // both at once is what sets the poll's peak memory.
            let previous = try state.snapshot(watch: watch)
            let seen = try state.seenHistoryKeys(watch: watch)
            let outcome = SnapshotDiff.compare(
                previous: previous, seen: seen, observation: observation, previousCheckpoint: checkpoint)
            let duration = Self.milliseconds(clock.now - start)
            let log = PollLogEntry(
                startedAt: started, durationMilliseconds: duration, recordCount: observation.records.count,
                changeCount: outcome.changes.count, error: nil)
            let stored: [StoredChange]
            if dryRun {
                stored = outcome.changes.map { StoredChange(id: 0, watch: watch, detectedAt: started, change: $0, delivered: false) }
            } else {
                stored = try state.commit(
                    PollCommit(
                        watch: watch, delta: outcome.delta, isBaseline: outcome.isBaseline, newlySeen: outcome.newlySeen,
                        pruneSeenBefore: SnapshotDiff.pruneBoundary(checkpoint: outcome.checkpoint, overlap: settings.overlap),
                        checkpoint: outcome.checkpoint, changes: outcome.changes, log: log))
            }
            logger.debug(
                "poll finished",
                metadata: ["records": "\(observation.records.count)", "changes": "\(outcome.changes.count)",
                           "duration_ms": "\(duration)", "baseline": "\(outcome.isBaseline)"])
            return PollReport(
                changes: stored, isBaseline: outcome.isBaseline, recordCount: observation.records.count,
                durationMilliseconds: duration, silentUpdates: outcome.silentUpdates)
        } catch {
            if !dryRun {
                let log = PollLogEntry(
                    startedAt: started, durationMilliseconds: Self.milliseconds(clock.now - start), recordCount: 0,
                    changeCount: 0, error: "\(error)")
                do { try state.recordFailure(watch: watch, log: log) } catch {
                    logger.warning("could not log the failed poll", metadata: ["error": "\(error)"])
                }
            }
            throw error
        }
    }

    private func observe(since: CompassTimestamp?) throws -> PollObservation {
        do {
            // Rows become records page by page: the raw rows of a large result are never all held at once.
            let records = try client.run(
                WatchQueries.assignedToMe, storedAs: WatchQueries.assignedQueryName, lifetime: .reused,
                pageSize: settings.pageSize, transform: WatchQueries.records(fromRows:))
            let historyRows = try client.run(
                WatchQueries.modifiedByOthers(since: since), storedAs: WatchQueries.historyQueryName, lifetime: .temporary,
                pageSize: settings.pageSize, maxRows: since == nil ? WatchQueries.uncheckpointedHistoryLimit : nil)
            return PollObservation(records: records, history: try WatchQueries.historyEntries(fromRows: historyRows))
        } catch let error as WatchQueries.RowError {
            throw CompassError.invalidResponse(endpoint: "result page", detail: error.message)
        }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
