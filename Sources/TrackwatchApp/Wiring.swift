import CompassClient
#if canImport(Glibc)
import Glibc
#endif
import Logging
import StateStore
import TrackerHTTP
import TrackwatchCore

extension StateStore: PollState {}
extension StoreError: StateStoreFailure {}
extension StateDirectoryError: StateStoreFailure {}

/// Everything one configuration polls: a session per server.
public struct Session {
    public let config: Config
    /// The state directory: each server's store is in it (or below it), and the page of recent changes.
    public let stateDirectory: String
    /// In configuration order; one unless the configuration has several `[[server]]` profiles.
    public let servers: [ServerSession]

    /// Loads every server's credentials, opens its HTTP transport and its state store.
    public init(
        config: Config, stateDirectory: String, environment: [String: String], logger: Logger,
        heartbeat: Heartbeat? = nil
    ) throws {
        self.config = config
        self.stateDirectory = stateDirectory
        servers = try config.servers.map { server in
            try ServerSession(server: server, config: config, stateDirectory: stateDirectory, environment: environment,
                              logger: logger, heartbeat: heartbeat)
        }
    }

    /// Logs every server session off.
    public func logoff() { servers.forEach { $0.client.logoff() } }
}

/// One server's parts: its client (own credentials), its state store and its poller.
public struct ServerSession {
    public let server: ServerConfig
    public let client: CompassClient
    public let store: StateStore
    public let poller: Poller

    /// Warns, every time, when TLS verification is off or the password would cross the network in clear.
    init(server: ServerConfig, config: Config, stateDirectory: String, environment: [String: String], logger: Logger,
         heartbeat: Heartbeat?) throws {
        var logger = logger
        if let name = server.name { logger[metadataKey: "server"] = "\(name)" }
        let credential = try loadCredential(server.credential, environment: environment)
        if server.insecure {
            logger.warning(
                "TLS certificate verification is OFF (insecure = true): anyone on the network path can read the password",
                metadata: ["server": "\(server.url)"])
        }
        if ServerURL.isCleartextToAnotherHost(server.url) {
            logger.warning("\(ServerSession.cleartextWarning)", metadata: ["server": "\(server.url)"])
        }
        client = try Self.makeClient(server: server, credential: credential, environment: environment, logger: logger,
                                     heartbeat: heartbeat)
        store = try StateStore.openRecovering(directory: Self.stateDirectory(of: server, in: stateDirectory)) { aside in
            logger.warning("the state database was damaged; moved it aside and starting a new baseline",
                           metadata: ["moved_to": "\(aside)"])
        }
        poller = Poller(client: client, state: store, settings: config.poll, watches: server.watches, logger: logger)
        self.server = server
        // Earlier versions kept the query path here for good; it is now learned again by each process.
        let staleKey = "query_mode \(server.url) \(server.repo) \(server.database)"
        if (try? store.value(forKey: staleKey)) != nil { try? store.setValue(nil, forKey: staleKey) }
    }

    /// Said on every start (and by `doctor`) for a plain `http://` URL to another host.
    public static let cleartextWarning = "the url is plain http:// to another host: your password, the session token and "
        + "your records cross the network unencrypted; use https://"

    /// A single `[server]` keeps its state in the state directory itself; each `[[server]]` profile in
    /// `servers/<name>/` below it.
    public static func stateDirectory(of server: ServerConfig, in root: String) -> String {
        server.name.map { "\(root)/servers/\($0)" } ?? root
    }

    /// A Compass client for `server` (also used alone by `trackwatch doctor` and `probe`), reaching it through the
    /// proxy `proxyChoice` picks; the proxy in use is logged (never its credentials). `wrap` puts a transport
    /// around the HTTP one (`probe` records the exchange with it).
    public static func makeClient(
        server config: ServerConfig, credential: Credential, environment: [String: String], logger: Logger,
        heartbeat: Heartbeat? = nil, wrap: (any HTTPTransport) -> any HTTPTransport = { $0 }
    ) throws -> CompassClient {
        let choice = try proxyChoice(for: config, environment: environment)
        if let proxy = choice.proxy {
            logger.info("using a proxy", metadata: ["proxy": "\(proxy)", "proxy_source": "\(choice.source ?? "")"])
        }
        let caFile = config.caFile.map { expandTilde($0, environment: environment) }
        if let caFile {
            var info = stat()
            // A FIFO or a device would hang the TLS library's read, or never end.
            if stat(caFile, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
                throw CompassError.invalidConfiguration("ca_file \(caFile) is not a regular file; point ca_file to a PEM file")
            }
        }
        let http = try AsyncHTTPTransport(
            tls: .init(caFile: caFile, insecure: config.insecure),
            proxy: choice.proxy.map {
                AsyncHTTPTransport.Proxy(
                    host: $0.host, port: $0.port, username: $0.username, password: $0.password?.value)
            },
            connectTimeout: min(config.requestTimeout, 10))
        let transport = wrap(heartbeat.map { HeartbeatTransport(http, heartbeat: $0) } ?? http)
        let server = try CompassServer(
            baseURL: config.url, repo: config.repo, database: config.database, username: config.username)
        return CompassClient(
            server: server, credential: credential, transport: transport, requestTimeout: config.requestTimeout,
            logger: logger, now: SystemClocks.wallTime)
    }

    /// The proxy for `server`: its `proxy` key, else the proxy environment variables as curl reads them. A proxy
    /// variable trackwatch cannot use is a configuration error naming the variable.
    public static func proxyChoice(for server: ServerConfig, environment: [String: String]) throws -> ProxyChoice {
        do {
            return try ProxyChoice.choose(for: server.url, setting: server.proxy, environment: environment)
        } catch {
            throw CompassError.invalidConfiguration(
                "\(error.message); fix it, or set proxy = \"\" in [server] to reach \(server.label) without a proxy")
        }
    }
}
