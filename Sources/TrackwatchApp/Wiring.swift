import CompassClient
import Logging
import StateStore
import TrackwatchCore

extension StateStore: PollState {}
extension StoreError: StateStoreFailure {}

/// The parts one poll needs, built from a configuration.
public struct Session {
    public let config: Config
    public let client: CompassClient
    public let store: StateStore
    public let poller: Poller

    /// Loads credentials, opens the HTTP transport and the state store. Warns, every time, when TLS
    /// verification is off.
    public init(
        config: Config, stateDirectory: String, environment: [String: String], logger: Logger,
        heartbeat: Heartbeat? = nil
    ) throws {
        let credential = try loadCredential(config.server.credential, environment: environment)
        if config.server.insecure {
            logger.warning(
                "TLS certificate verification is OFF (insecure = true): anyone on the network path can read the password",
                metadata: ["server": "\(config.server.url)"])
        }
        client = try Self.makeClient(config: config, credential: credential, environment: environment, logger: logger,
                                     heartbeat: heartbeat)
        store = try StateStore.openRecovering(directory: stateDirectory) { aside in
            logger.warning("the state database was damaged; moved it aside and starting a new baseline",
                           metadata: ["moved_to": "\(aside)"])
        }
        poller = Poller(client: client, state: store, settings: config.poll, logger: logger)
        self.config = config
        if let raw = try? store.value(forKey: queryModeKey), let mode = QueryMode(rawValue: raw) { client.assume(mode) }
    }

    /// A Compass client for `config`'s server (also used alone by `trackwatch doctor`).
    public static func makeClient(
        config: Config, credential: Credential, environment: [String: String], logger: Logger, heartbeat: Heartbeat? = nil
    ) throws -> CompassClient {
        let http = try AsyncHTTPTransport(
            tls: .init(caFile: config.server.caFile.map { expandTilde($0, environment: environment) },
                       insecure: config.server.insecure),
            connectTimeout: min(config.server.requestTimeout, 10))
        let transport: any HTTPTransport = heartbeat.map { HeartbeatTransport(http, heartbeat: $0) } ?? http
        let server = try CompassServer(
            baseURL: config.server.url, repo: config.server.repo, database: config.server.database,
            username: config.server.username)
        return CompassClient(
            server: server, credential: credential, transport: transport, requestTimeout: config.server.requestTimeout,
            logger: logger, now: SystemClocks.wallTime)
    }

    /// The server's query mode, remembered per server and database so that later runs skip the probe.
    private var queryModeKey: String { "query_mode \(config.server.url) \(config.server.repo) \(config.server.database)" }

    /// Stores the query mode the client learned, if it changed.
    public func rememberQueryMode() {
        guard let mode = client.supportedQueryMode, (try? store.value(forKey: queryModeKey)) != mode.rawValue else { return }
        try? store.setValue(mode.rawValue, forKey: queryModeKey)
    }
}
