#if canImport(Glibc)
import Glibc
#endif
import Logging
import TrackerHTTP
import TrackwatchCore

/// How a source reaches its server over HTTP, as its table configures it (`ca_file`, `insecure`, `timeout`,
/// `proxy`).
public struct Connection: Equatable, Sendable {
    /// The server's URL as the user wrote it.
    public var url: String
    /// A PEM file with the CA (or self-signed certificate) to trust besides the system store.
    public var caFile: String?
    /// Skip TLS verification. Only when written in the config; warned about on every start.
    public var insecure: Bool
    /// Seconds each HTTP request may take.
    public var requestTimeout: Int
    public var proxy: ProxySetting

    public init(url: String, caFile: String? = nil, insecure: Bool = false, requestTimeout: Int = 30,
                proxy: ProxySetting = .environment) {
        self.url = url
        self.caFile = caFile
        self.insecure = insecure
        self.requestTimeout = requestTimeout
        self.proxy = proxy
    }

    /// Said on every start (and by `doctor`) for a plain `http://` URL to another host.
    public static let cleartextWarning = "the url is plain http:// to another host: your password, the session token and "
        + "your records cross the network unencrypted; use https://"

    /// Said on every start (and by `doctor` and `probe`) for a plain `http://` URL to this machine that is reached
    /// through a proxy (only the `proxy` key sends such a URL through one).
    public static func cleartextThroughProxyWarning(_ proxy: ProxyURL) -> String {
        "the url is plain http:// through the proxy \(proxy): your password, the session token and your records "
            + "reach the proxy unencrypted; use https://, or proxy = \"\" for a server on this machine"
    }

    /// The warning `cleartextThroughProxyWarning` for this connection, if it applies.
    public func cleartextThroughProxy(environment: [String: String]) -> String? {
        guard let choice = try? ProxyChoice.choose(for: url, setting: proxy, environment: environment),
            let proxy = choice.proxy, ServerURL.cleartextRisk(url, proxied: true) == .throughAProxy
        else { return nil }
        return Self.cleartextThroughProxyWarning(proxy)
    }

    /// The proxy for this connection: its `proxy` key, else the proxy environment variables as curl reads them.
    /// A proxy variable trackwatch cannot use is a configuration error naming the variable; `table` names the
    /// configuration's table in the fix (`[server]`).
    public func proxyChoice(environment: [String: String], table: String, label: String) throws -> ProxyChoice {
        do {
            return try ProxyChoice.choose(for: url, setting: proxy, environment: environment)
        } catch {
            throw ConfigurationProblem(
                "\(error.message); fix it, or set proxy = \"\" in \(table) to reach \(label) without a proxy")
        }
    }

    /// The HTTP transport for this connection, reaching the server through the proxy `proxyChoice` picks; the
    /// proxy in use is logged (never its credentials). Warns, every time, when TLS verification is off or a
    /// secret would cross the network in clear. `maximumBodySize`: a tighter cap for a tracker whose answers are
    /// never that large. `decompressing`: gzip answers inflated, within that cap.
    public func transport(
        environment: [String: String], table: String, label: String, logger: Logger,
        maximumBodySize: Int = AsyncHTTPTransport.defaultMaximumBodySize, decompressing: Bool = false
    ) throws -> AsyncHTTPTransport {
        let choice = try proxyChoice(environment: environment, table: table, label: label)
        if let proxy = choice.proxy {
            logger.info("using a proxy", metadata: ["proxy": "\(proxy)", "proxy_source": "\(choice.source ?? "")"])
            if ServerURL.cleartextRisk(url, proxied: true) == .throughAProxy {
                logger.warning("\(Self.cleartextThroughProxyWarning(proxy))", metadata: ["server": "\(url)"])
            }
        }
        let caFile = caFile.map { expandTilde($0, environment: environment) }
        if let caFile {
            var info = stat()
            // A FIFO or a device would hang the TLS library's read, or never end.
            if stat(caFile, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
                throw ConfigurationProblem("ca_file \(caFile) is not a regular file; point ca_file to a PEM file")
            }
        }
        return try AsyncHTTPTransport(
            tls: .init(caFile: caFile, insecure: insecure),
            proxy: choice.proxy.map {
                AsyncHTTPTransport.Proxy(host: $0.host, port: $0.port, username: $0.username, password: $0.password?.value)
            },
            connectTimeout: min(requestTimeout, 10), maximumBodySize: maximumBodySize, decompressing: decompressing)
    }

    /// Logs what every start must say about this connection: TLS verification off, a secret in clear.
    public func warnings(logger: Logger) {
        if insecure {
            logger.warning(
                "TLS certificate verification is OFF (insecure = true): anyone on the network path can read the password",
                metadata: ["server": "\(url)"])
        }
        if ServerURL.isCleartextToAnotherHost(url) {
            logger.warning("\(Self.cleartextWarning)", metadata: ["server": "\(url)"])
        }
    }
}

/// The configuration does not fit what the source found (a proxy variable it cannot use, a `ca_file` that is no
/// file, a missing query): a person must fix the file.
public struct ConfigurationProblem: SourceFailure, Equatable {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var failureKind: FailureKind { .configuration }
    public var description: String { message }
    public var reason: String { SafeText.bounded(message, 160) }
}

/// `~/x` → `$HOME/x`; other paths unchanged.
public func expandTilde(_ path: String, environment: [String: String]) -> String {
    guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"] else { return path }
    return home + path.dropFirst()
}
