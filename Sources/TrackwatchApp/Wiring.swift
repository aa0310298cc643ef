import CompassClient
import GitHubClient
import GitLabClient
#if canImport(Glibc)
import Glibc
#endif
import JiraClient
import JSONListClient
import Logging
import QaseClient
import SourceKit
import StateStore
import TrackerHTTP
import TrackwatchCore

extension StateStore: PollState {}
extension StoreError: StateStoreFailure {}
extension StateDirectoryError: StateStoreFailure {}

/// Every kind of source trackwatch knows, in the order their tables are read. A new tracker is one more
/// factory here, in its own module; nothing else in the application names a tracker.
public enum SourceRegistry {
    public static let factories: [any SourceFactory] = [
        CompassFactory(), QaseFactory(), JSONListFactory(), JiraFactory(), GitHubFactory(), GitLabFactory(),
    ]

    /// Their configuration tables (`Config.parse`).
    public static var kinds: [any SourceKind] { factories.map(\.kind) }
}

/// Everything one configuration polls: a session per source.
public struct Session {
    public let config: Config
    /// The state directory: each source's store is in it (or below it), and the page of recent changes.
    public let stateDirectory: String
    /// In configuration order.
    public let sources: [SourceSession]

    /// Loads every source's credentials, opens its HTTP transport and its state store.
    public init(
        config: Config, stateDirectory: String, environment: [String: String], logger: Logger,
        heartbeat: Heartbeat? = nil
    ) throws {
        self.config = config
        self.stateDirectory = stateDirectory
        sources = try config.sources.map { settings in
            try SourceSession(settings: settings, config: config, stateDirectory: stateDirectory,
                              environment: environment, logger: logger, heartbeat: heartbeat)
        }
    }

    /// Ends every source's server session.
    public func logoff() { sources.forEach { $0.source.close() } }

    /// What the sources' changes call their tracker: its name when all sources are of one tracker.
    public var trackerName: String? { config.trackerName }
}

/// One source's parts: the source (its client, with its own credentials) and its state store.
public struct SourceSession {
    public let settings: any SourceSettings
    public let source: any Source
    public let store: StateStore
    /// What holds each poll of this source to `[poll] deadline`.
    public let deadline: PollDeadline
    private let deadlineSeconds: Double

    init(settings: any SourceSettings, config: Config, stateDirectory: String, environment: [String: String],
         logger: Logger, heartbeat: Heartbeat?) throws {
        self.settings = settings
        try FileTrust.checkFiles(of: settings, environment: environment)
        let store = try StateStore.openRecovering(directory: Self.stateDirectory(of: settings, in: stateDirectory)) {
            aside in
            logger.warning("the state database was damaged; moved it aside and starting a new baseline",
                           metadata: ["moved_to": "\(aside)"])
        }
        self.store = store
        let deadline = PollDeadline(source: settings.label, now: SystemClocks.bootTime)
        self.deadline = deadline
        deadlineSeconds = Double(config.poll.deadline)
        let context = SourceContext(
            state: store, poll: config.poll, environment: environment, logger: logger,
            secret: { try loadSecret($0, environment: environment) },
            wrap: { http in
                DeadlineTransport(heartbeat.map { HeartbeatTransport(http, heartbeat: $0) } ?? http, deadline: deadline)
            },
            wallClock: SystemClocks.wallTime)
        guard let source = try SourceRegistry.factories.lazy.compactMap({ try $0.makeSource(settings, context: context) })
            .first
        else { preconditionFailure("no factory for the source \(settings.sourceName)") }
        self.source = source
    }

    /// Polls the source once, within `[poll] deadline` (`PollDeadline`).
    public func poll(dryRun: Bool, fullRead: Bool = false) throws -> PollReport {
        deadline.arm(seconds: deadlineSeconds)
        defer { deadline.disarm() }
        return try source.poll(dryRun: dryRun, fullRead: fullRead)
    }

    /// The state directory of `settings`: its folder below `root` (a single `[server]` keeps its state in the
    /// root itself).
    public static func stateDirectory(of settings: any SourceSettings, in root: String) -> String {
        settings.stateFolder.isEmpty ? root : "\(root)/\(settings.stateFolder)"
    }
}

extension Config {
    /// What the changes of these sources call their tracker: its name when every source is of the same one.
    public var trackerName: String? {
        let names = Set(sources.map(\.trackerName))
        return names.count == 1 ? names.first : nil
    }
}
