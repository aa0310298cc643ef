/// One HTTP exchange, as the Compass client needs it. The transport is a one-method protocol so that the
/// HTTP library stays a local choice (measured trade-offs in `shared/reference/swift-deps.md`).
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the complete response, or throws `TransportError`.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
    /// Ends open connections and whatever serves them; the next request starts them again. The daemon calls
    /// it when a poll is over, so that nothing wakes it until the next one.
    func closeIdleConnections()
}

extension HTTPTransport {
    public func closeIdleConnections() {}
}

public enum HTTPMethod: String, Sendable {
    case get = "GET", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"
}

public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?
    /// Whole-request deadline in seconds.
    public var timeout: Int
    /// Cuts the request short from another thread (a poll cancelled); set by the poll's `DeadlineTransport`.
    public var cancellation: RequestCancellation?

    public init(method: HTTPMethod, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil,
                timeout: Int) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// The request never produced a response.
public struct TransportError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case connectionFailed, timedOut, tls, responseTooLarge, invalidURL, other
        /// An `https://` URL on a port that answers in plain HTTP.
        case notTLS
        /// The server offers only TLS 1.0 or 1.1, which trackwatch refuses.
        case tlsVersion
        /// The HTTP proxy refused the tunnel (CONNECT answered with an error).
        case proxy
        /// The HTTP proxy wants credentials, or refused the ones given (407): a person must fix them, and
        /// trying again soon could lock the account a corporate proxy checks them against.
        case proxyCredentials
    }

    public let kind: Kind
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { detail }

    /// The most response header read, in KB (NIO's HTTP/1 parser's limit, name and value of all fields together).
    public static let largestHeaderKB = 80

    /// A response whose header passed `largestHeaderKB`: an answer too large, whatever its body.
    public static func oversizedHeader(url: String) -> TransportError {
        TransportError(.responseTooLarge, "\(headerWords) (\(url)); not read")
    }

    /// Whether this is `oversizedHeader`'s: no size setting of trackwatch's would admit it.
    public var isOversizedHeader: Bool { kind == .responseTooLarge && detail.hasPrefix(Self.headerWords) }

    static let headerWords = "the server sent a response header over \(largestHeaderKB) KB"
}
