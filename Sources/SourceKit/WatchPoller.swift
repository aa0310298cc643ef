import Logging
import TrackwatchCore

/// What one question of a source (a watch) saw, diffed: everything `WatchPoller` commits.
public struct WatchResult {
    public var outcome: DiffOutcome
    /// Records the question returned.
    public var recordCount: Int
    /// Seen history keys older than this are no longer needed for de-duplication.
    public var pruneSeenBefore: Timestamp?
    /// What the source remembers between polls, committed with the snapshot (`PollCommit.values`).
    public var values: [String: String?]
    /// How many seen keys are kept besides the pruning by time (`PollCommit.bounds`).
    public var bounds: SeenBounds?

    public init(
        outcome: DiffOutcome, recordCount: Int, pruneSeenBefore: Timestamp? = nil, values: [String: String?] = [:],
        bounds: SeenBounds? = nil
    ) {
        self.bounds = bounds
        self.outcome = outcome
        self.recordCount = recordCount
        self.pruneSeenBefore = pruneSeenBefore
        self.values = values
    }
}

/// What one watch's poll committed.
public struct WatchPoll {
    public var changes: [StoredChange]
    public var isBaseline: Bool
    public var recordCount: Int
    public var silentUpdates: Int
}

/// Polls one watch of a source at a time: observes and diffs it through the source's closure, stamps the
/// changes with the source, and commits what it found in one transaction (snapshot, seen history, checkpoint,
/// changes, the poll log) — or, when the closure throws, logs the failure and leaves the watch's state as it
/// was. A poll is complete or changes nothing.
public struct WatchPoller {
    public let source: String
    public let state: any PollState
    public let logger: Logger
    public let wallClock: () -> Double

    public init(source: String, state: any PollState, logger: Logger, wallClock: @escaping () -> Double) {
        self.source = source
        self.state = state
        self.logger = logger
        self.wallClock = wallClock
    }

    /// Observes and diffs `watch` through `diff`, then commits what it found (unless `dryRun`); on failure logs
    /// it in the store (unless `dryRun`) and rethrows.
    public func poll(_ watch: String, dryRun: Bool, _ diff: () async throws -> WatchResult) async throws -> WatchPoll {
        let started = wallClock()
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let result = try await diff()
            var outcome = result.outcome
            for index in outcome.changes.indices where outcome.changes[index].source == nil {
                outcome.changes[index].source = source
            }
            let duration = Self.milliseconds(clock.now - start)
            let log = PollLogEntry(
                startedAt: started, durationMilliseconds: duration, recordCount: result.recordCount,
                changeCount: outcome.changes.count, error: nil)
            let stored: [StoredChange]
            if dryRun {
                stored = outcome.changes.map {
                    StoredChange(id: 0, watch: watch, detectedAt: started, change: $0, delivered: false)
                }
            } else {
                stored = try state.commit(
                    PollCommit(
                        watch: watch, delta: outcome.delta, isBaseline: outcome.isBaseline,
                        newlySeen: outcome.newlySeen, pruneSeenBefore: result.pruneSeenBefore,
                        checkpoint: outcome.checkpoint, changes: outcome.changes, log: log, values: result.values, bounds: result.bounds))
            }
            logger.debug(
                "poll finished",
                metadata: ["watch": "\(watch)", "records": "\(result.recordCount)",
                           "changes": "\(outcome.changes.count)", "duration_ms": "\(duration)",
                           "baseline": "\(outcome.isBaseline)"])
            return WatchPoll(changes: stored, isBaseline: outcome.isBaseline, recordCount: result.recordCount,
                             silentUpdates: outcome.silentUpdates)
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

    public static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
