/// The outcome of comparing what a poll observed with the persisted state; everything a `PollCommit` needs.
public struct DiffOutcome: Equatable, Sendable {
    public var changes: [Change]
    public var delta: SnapshotDelta
    public var isBaseline: Bool
    public var newlySeen: [HistoryKey]
    public var checkpoint: Timestamp?
    /// Records whose fields changed by my own hand: stored silently.
    public var silentUpdates: Int
    /// Changes that no history entry explains (reported without a name; logged, as the tracker's history should
    /// have had an entry).
    public var unexplained = 0

    public init(
        changes: [Change], delta: SnapshotDelta, isBaseline: Bool, newlySeen: [HistoryKey], checkpoint: Timestamp?,
        silentUpdates: Int, unexplained: Int = 0
    ) {
        self.changes = changes
        self.delta = delta
        self.isBaseline = isBaseline
        self.newlySeen = newlySeen
        self.checkpoint = checkpoint
        self.silentUpdates = silentUpdates
        self.unexplained = unexplained
    }
}


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
    public var pruneSeenBefore: Timestamp?
    /// Seen keys stored before this (local seconds since 1970) are dropped too, whatever their time says, and an
    /// item that got new keys keeps at most `seenPerRecord` (the newest): a server that dates its entries in the
    /// future, or makes up new ones every poll, cannot grow the state without bound.
    public var bounds: SeenBounds?
    public var checkpoint: Timestamp?
    public var changes: [Change]
    public var log: PollLogEntry
    /// What the source remembers between polls (ETags, who I am, when everything was last read), stored with the
    /// snapshot it belongs to; `nil` deletes a key.
    public var values: [String: String?]

    public init(
        watch: String, delta: SnapshotDelta, isBaseline: Bool, newlySeen: [HistoryKey],
        pruneSeenBefore: Timestamp?, checkpoint: Timestamp?, changes: [Change], log: PollLogEntry,
        values: [String: String?] = [:], bounds: SeenBounds? = nil
    ) {
        self.bounds = bounds
        self.watch = watch
        self.delta = delta
        self.isBaseline = isBaseline
        self.newlySeen = newlySeen
        self.pruneSeenBefore = pruneSeenBefore
        self.checkpoint = checkpoint
        self.changes = changes
        self.log = log
        self.values = values
    }
}

/// How many seen keys a watch keeps, beyond the pruning by their own time.
public struct SeenBounds: Equatable, Sendable {
    public var storedBefore: Double
    public var perRecord: Int

    public init(storedBefore: Double, perRecord: Int) {
        self.storedBefore = storedBefore
        self.perRecord = perRecord
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
    /// A mute kept it off the desktop (it was journaled only).
    public var muted: Bool

    public init(id: Int64, watch: String, detectedAt: Double, change: Change, delivered: Bool, muted: Bool = false) {
        self.id = id
        self.watch = watch
        self.detectedAt = detectedAt
        self.change = change
        self.delivered = delivered
        self.muted = muted
    }
}
