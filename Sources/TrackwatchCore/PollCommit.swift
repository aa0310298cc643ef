/// Everything one successful poll of one watch persists, in one transaction: the snapshot difference, the
/// newly seen history entries, the new checkpoint and the detected changes (the outbox).
public struct PollCommit: Equatable, Sendable {
    /// The watch this poll belongs to (`assigned` for the built-in pair of queries).
    public var watch: String
    public var delta: SnapshotDelta
    /// True on the first successful poll: the snapshot is a silent baseline.
    public var isBaseline: Bool
    public var newlySeen: [HistoryKey]
    /// History keys older than this are no longer needed for de-duplication and may be dropped.
    public var pruneSeenBefore: CompassTimestamp?
    public var checkpoint: CompassTimestamp?
    public var changes: [Change]
    public var log: PollLogEntry

    public init(
        watch: String, delta: SnapshotDelta, isBaseline: Bool, newlySeen: [HistoryKey],
        pruneSeenBefore: CompassTimestamp?, checkpoint: CompassTimestamp?, changes: [Change], log: PollLogEntry
    ) {
        self.watch = watch
        self.delta = delta
        self.isBaseline = isBaseline
        self.newlySeen = newlySeen
        self.pruneSeenBefore = pruneSeenBefore
        self.checkpoint = checkpoint
        self.changes = changes
        self.log = log
    }
}

/// One line of the poll log, successful or not.
public struct PollLogEntry: Equatable, Codable, Sendable {
    /// Local wall-clock start, seconds since 1970 (for people; never compared with server time).
    public var startedAt: Double
    public var durationMilliseconds: Int
    public var recordCount: Int
    public var changeCount: Int
    /// `nil` for a successful poll; otherwise the error as shown to people.
    public var error: String?

    public init(startedAt: Double, durationMilliseconds: Int, recordCount: Int, changeCount: Int, error: String?) {
        self.startedAt = startedAt
        self.durationMilliseconds = durationMilliseconds
        self.recordCount = recordCount
        self.changeCount = changeCount
        self.error = error
    }
}

/// A change as stored in the change log / outbox.
public struct StoredChange: Equatable, Sendable {
    public var id: Int64
    public var watch: String
    /// Local wall-clock time the change was detected, seconds since 1970.
    public var detectedAt: Double
    public var change: Change
    public var delivered: Bool

    public init(id: Int64, watch: String, detectedAt: Double, change: Change, delivered: Bool) {
        self.id = id
        self.watch = watch
        self.detectedAt = detectedAt
        self.change = change
        self.delivered = delivered
    }
}
