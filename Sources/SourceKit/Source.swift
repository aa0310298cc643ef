import Logging
import TrackerHTTP
import TrackwatchCore

/// One configured tracker source, ready to poll: what the daemon and the commands drive, whatever the tracker.
/// A source observes its tracker, diffs what it saw against its stored snapshots and commits the changes to its
/// store (`WatchPoller`); everything after that — delivery, bubbles, the journal, the page of recent changes —
/// reads the store and knows the source only by its settings.
///
/// `poll` is `async` down to the transport, and never blocks its caller's thread: the daemon polls every due source
/// side by side, each in a child task of its own on a thread of its own (`PollThread`), and one slow server holds
/// nobody else. One poll of a source at a time: the daemon never starts a second
/// before the first has returned, and calls `closeIdleConnections` and `close` only between polls.
public protocol Source: AnyObject {
    var settings: any SourceSettings { get }
    /// Polls once: every question the source asks, each diffed and committed on its own. A failure that stops
    /// the whole poll is thrown; a failure of one part (a watched query) is in `PollReport.failure` while the
    /// others were polled. `fullRead`: reading everything again where the source otherwise reads only what changed
    /// (`check --full`: after a long suspend, or when a person doubts the snapshot).
    func poll(dryRun: Bool, fullRead: Bool) async throws -> PollReport
    /// Ends idle connections (the daemon calls it after each poll, so that nothing wakes it until the next).
    func closeIdleConnections()
    /// Ends the session with the server, if there is one (best effort: the process is ending or reloading).
    func close() async
}

extension Source {
    /// A poll that reads what changed (the daemon's every poll).
    public func poll(dryRun: Bool) async throws -> PollReport { try await poll(dryRun: dryRun, fullRead: false) }
}

/// What a source gets from the application to do its work.
public struct SourceContext {
    /// Its own state store.
    public var state: any PollState
    public var poll: PollConfig
    /// The process environment (proxy variables, `HOME`, `CREDENTIALS_DIRECTORY`).
    public var environment: [String: String]
    public var logger: Logger
    /// Reads a password or token from where the configuration says it is (files checked, never logged).
    public var secret: (CredentialSource) throws -> Secret
    /// Wraps the source's HTTP transport (the poll's deadline and cancellation, `DeadlineTransport`).
    public var wrap: (any HTTPTransport) -> any HTTPTransport
    /// Seconds since 1970 (the local clock).
    public var wallClock: () -> Double

    public init(
        state: any PollState, poll: PollConfig, environment: [String: String], logger: Logger,
        secret: @escaping (CredentialSource) throws -> Secret,
        wrap: @escaping (any HTTPTransport) -> any HTTPTransport = { $0 }, wallClock: @escaping () -> Double
    ) {
        self.state = state
        self.poll = poll
        self.environment = environment
        self.logger = logger
        self.secret = secret
        self.wrap = wrap
        self.wallClock = wallClock
    }
}

/// A kind of source as the application wires it: its configuration tables (`SourceKind`), and how its
/// settings become a working source, a doctor's checks and a probe.
public protocol SourceFactory: Sendable {
    var kind: any SourceKind { get }
    /// A source for `settings`, or `nil` when they are another kind's.
    func makeSource(_ settings: any SourceSettings, context: SourceContext) throws -> (any Source)?
    /// `trackwatch doctor`'s checks of `settings` (credentials loaded, server asked, read-only), or `nil` when
    /// they are another kind's.
    func diagnose(_ settings: any SourceSettings, context: DiagnosisContext) async -> DoctorReport?
    /// `trackwatch probe` of `settings`: asks the server, read-only, what the daemon will ask (`transcript`: keep
    /// the exchange, redacted, for `--save`); `nil` when the settings are another kind's.
    func probe(_ settings: any SourceSettings, context: DiagnosisContext, transcript: Bool) throws -> (any SourceProbe)?
}

/// A probe of one source, ready to run (`SourceFactory.probe`).
public protocol SourceProbe {
    /// Every check, each ✔, ⚠, ✘ or ·; stops early (with `stoppedBy`) when nothing else can be learned.
    func run() async -> ProbeReport
    /// The exchange so far, redacted: what `probe --save` writes.
    func transcript() throws -> [UInt8]
}

/// What one poll of a source found.
public struct PollReport {
    /// Detected changes; stored in the outbox unless the poll was a dry run (then their ids are 0).
    public var changes: [StoredChange]
    /// The source's own questions took their silent baseline.
    public var isBaseline: Bool
    /// Records in the source's own questions (assigned to me, a list's items).
    public var recordCount: Int
    /// What the records are, for `7 assigned`: `assigned`, `in devices`.
    public var recordCountLabel: String
    /// Records in watched queries besides, all together.
    public var watchedRecordCount = 0
    /// Watched queries that took their silent baseline in this poll.
    public var baselineWatches: [String] = []
    public var durationMilliseconds: Int
    public var silentUpdates: Int
    /// The first part that failed, if one did: what it found before is still stored, the rest was polled.
    public var failure: (any Error)?
    /// Said once by `check` when the baseline was taken: what is now watched.
    public var baselineNote: String
    /// Seconds the server asked to be left alone after this poll (GitHub's `X-Poll-Interval`): this source's next
    /// poll is no sooner, however short the configured interval; the other sources keep theirs.
    public var serverInterval: Double?

    public init(
        changes: [StoredChange], isBaseline: Bool, recordCount: Int, recordCountLabel: String,
        durationMilliseconds: Int, silentUpdates: Int, baselineNote: String
    ) {
        self.changes = changes
        self.isBaseline = isBaseline
        self.recordCount = recordCount
        self.recordCountLabel = recordCountLabel
        self.durationMilliseconds = durationMilliseconds
        self.silentUpdates = silentUpdates
        self.baselineNote = baselineNote
    }

    /// `7 assigned, 1 change`, or `7 assigned, 12 in watched queries, 1 change`.
    public var summary: String {
        var parts = ["\(recordCount) \(recordCountLabel)"]
        if watchedRecordCount > 0 { parts.append("\(watchedRecordCount) in watched queries") }
        parts.append(changes.count == 1 ? "1 change" : "\(changes.count) changes")
        return parts.joined(separator: ", ")
    }
}

/// What a source needs of its state store. `StateStore` implements it over SQLite; the protocol keeps the
/// poll logic testable and the store swappable.
public protocol PollState: AnyObject {
    func snapshot(watch: String) throws -> Snapshot?
    func checkpoint(watch: String) throws -> Timestamp?
    func seenHistoryKeys(watch: String) throws -> Set<HistoryKey>
    @discardableResult func commit(_ poll: PollCommit) throws -> [StoredChange]
    func recordFailure(watch: String, log: PollLogEntry) throws
    func value(forKey key: String) throws -> String?
    func setValue(_ value: String?, forKey key: String) throws
}
