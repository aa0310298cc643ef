import TrackwatchCore

/// One row of the poll log together with the watch it belongs to.
public struct LoggedPoll: Equatable, Sendable {
    public var watch: String
    public var entry: PollLogEntry

    public init(watch: String, entry: PollLogEntry) {
        self.watch = watch
        self.entry = entry
    }
}

/// What `trackwatch status` shows: the latest polls, failures in a row, and what is stored per watch.
///
/// The first four are the source's polls as a whole, as the command or daemon that made them recorded them
/// (`StateStore.recordSourcePoll`), whatever the source's watches are called; a store where none was recorded yet
/// has them from its poll log.
public struct StoreStatus: Equatable, Sendable {
    /// The most recent poll of the source, successful or not; `nil` before the first poll.
    public var lastPoll: PollLogEntry?
    /// The most recent poll without an error.
    public var lastSuccess: PollLogEntry?
    /// The most recent poll with an error (or a part that failed), even if later polls succeeded.
    public var lastError: PollLogEntry?
    /// Failed polls of the source since its last successful one; 0 when the last poll succeeded.
    public var consecutiveFailures: Int
    /// Records in the stored snapshot, per watch that has a baseline.
    public var recordCounts: [String: Int]
    /// The history checkpoint, per watch that has one.
    public var checkpoints: [String: Timestamp]
    /// Changes detected but not yet marked delivered.
    public var undelivered: Int
    /// Watches whose latest poll failed, with the error.
    public var failingWatches: [String: String]
    /// When the daemon planned this source's next poll, as it left it after its last poll.
    public var nextPoll: NextPoll?

    public init(
        lastPoll: PollLogEntry?, lastSuccess: PollLogEntry?, lastError: PollLogEntry?, consecutiveFailures: Int,
        recordCounts: [String: Int], checkpoints: [String: Timestamp], undelivered: Int,
        failingWatches: [String: String] = [:], nextPoll: NextPoll? = nil
    ) {
        self.failingWatches = failingWatches
        self.nextPoll = nextPoll
        self.lastPoll = lastPoll
        self.lastSuccess = lastSuccess
        self.lastError = lastError
        self.consecutiveFailures = consecutiveFailures
        self.recordCounts = recordCounts
        self.checkpoints = checkpoints
        self.undelivered = undelivered
    }
}

/// When the daemon polls a source next, and why then (`retry 2`, `the server asked for 600 s`; `nil`: the interval).
public struct NextPoll: Equatable, Sendable {
    /// Seconds since 1970.
    public var at: Double
    public var why: String?

    public init(at: Double, why: String?) {
        self.at = at
        self.why = why
    }

    /// The stored form: `1767225600` or `1767225600 retry 2`.
    var text: String { why.map { "\(Int(at)) \($0)" } ?? "\(Int(at))" }

    init?(text: String) {
        let parts = text.split(separator: " ", maxSplits: 1)
        guard let first = parts.first, let at = Double(first) else { return nil }
        self.init(at: at, why: parts.count > 1 ? String(parts[1]) : nil)
    }
}
