#if canImport(Glibc)
    import Glibc
#endif

/// Options of `json-sim serve`.
public struct JSONSimOptions: Sendable {
    /// Items in the generic list (`--items`; 10,000 for the benchmark).
    public var items = 12
    /// Items per page when a paging route is asked for no size (`--page-size`).
    public var pageSize = 5
    /// Seconds since 1970: `Date`, `Last-Modified`, `Retry-After` dates and timestamps. Tests pin it.
    public var clock: @Sendable () -> Int = { Int(time(nil)) }

    public init() {}
}

/// Where the server listens, so that routes can name another listener: the https one, or the "other host" that
/// redirects lead to. Set by `serve` once every listener is bound.
public struct Listeners: Sendable, Equatable {
    /// `host:port` of the plain HTTP listener.
    public var http: String?
    /// `host:port` of the HTTPS listener, when there is one.
    public var https: String?
    /// `host:port` of the second plain HTTP listener on another address (127.0.0.2): another host for redirects.
    public var other: String?

    public init(http: String? = nil, https: String? = nil, other: String? = nil) {
        self.http = http
        self.https = https
        self.other = other
    }

    /// The listener a request arrived on, from the port of the authority it addressed (its `Host` header).
    func name(forHost host: String?) -> String {
        guard let port = host.flatMap(Self.port) else { return "http" }
        if port == https.flatMap(Self.port) { return "https" }
        if port == other.flatMap(Self.port) { return "other" }
        return "http"
    }

    private static func port(of authority: String) -> Int? {
        authority.split(separator: ":").last.flatMap { Int($0) }
    }
}

/// The documented credentials of the generic list's `/auth/*` routes. `forbidden` ones are valid but may not read
/// the list (403); anything else is refused as unknown (401, or 403 for the API key as API gateways answer).
public enum ListCredentials {
    public static let basicUser = "reader"
    public static let basicPassword = "reader-pw"
    public static let bearerToken = "list-token"
    public static let apiKeyHeader = "X-API-Key"
    public static let apiKey = "list-key"
    public static let forbiddenBasicUser = "outsider"
    public static let forbiddenBasicPassword = "outsider-pw"
    public static let forbiddenBearerToken = "outsider-token"
    public static let forbiddenAPIKey = "outsider-key"
}
