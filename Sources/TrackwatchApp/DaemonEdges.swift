import TrackwatchCore

/// Shows changes and service problems on the desktop. Must return at once: a hung notification server
/// must never stall polling or the watchdog.
public protocol ChangeAnnouncer: AnyObject {
    /// One wake-up's changes, by source: more than `summary_threshold` of them together are one summary.
    func announce(_ sources: [SourceChanges], settings: NotifyConfig)
    /// One bubble for the changes held back during quiet hours (`tracker`: `nil` when of several trackers).
    func announceQuietHoursSummary(_ changes: [Change], tracker: String?, settings: NotifyConfig)
    /// A message about trackwatch and one source ("Cannot reach …"; "Connected to … again", which replaces
    /// it), one line of `body` each.
    func announceServiceProblem(summary: String, body: [String], resolved: Bool, server: String, settings: NotifyConfig)
    /// Where clicks on bubbles and their buttons go (called on the announcer's own thread).
    func onAction(_ handler: @escaping @Sendable (BubbleAction) -> Void)
    /// Waits until what was announced has been handed to the notification server, or `timeout` seconds
    /// passed (a hung server); true when handed over.
    func flush(timeout: Double) -> Bool
}

/// Writes one structured journal entry per change, and finds them again after a restart.
public protocol ChangeRecorder: AnyObject {
    /// `id` is unique per detected change, across restarts and state databases.
    func record(_ change: Change, id: String, server: String)
    /// The ids among `ids` that were already recorded (empty when the record cannot be read back).
    func recordedChangeIDs(among ids: [String]) -> Set<String>
    /// The journal's record of an outage ("Cannot reach …") or a recovery.
    func recordServiceProblem(_ summary: String, detail: String, resolved: Bool, server: String)
}

/// The service manager (systemd's sd_notify); every call is a no-op outside systemd.
public protocol ServiceManager: AnyObject {
    func ready()
    func status(_ text: String)
    func watchdog()
    func stopping()
    func reloading()
    /// Seconds between required watchdog pings, `nil` when the watchdog is off.
    var watchdogInterval: Double? { get }
}

/// The daemon's edges, bundled so the daemon can be built with real adapters or with fakes.
public struct DaemonEdges {
    public var announcer: any ChangeAnnouncer
    public var recorder: any ChangeRecorder
    public var service: any ServiceManager

    public init(announcer: any ChangeAnnouncer, recorder: any ChangeRecorder, service: any ServiceManager) {
        self.announcer = announcer
        self.recorder = recorder
        self.service = service
    }
}
