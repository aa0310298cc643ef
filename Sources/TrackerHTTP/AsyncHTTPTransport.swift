import AsyncHTTPClient
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// `HTTPTransport` over swift-server/async-http-client: unlike URLSession on Linux it can trust a private CA
/// file, which Compass servers with their self-signed certificate need.
///
/// `send` awaits the answer: the awaiting task is suspended, and the event loop resumes it with the answer or the
/// error. A request's `cancellation` ends it at once.
public final class AsyncHTTPTransport: HTTPTransport {
    /// Refuse bodies above this: a runaway or hostile server (or a proxy streaming a download) must not
    /// exhaust memory. A result page of the largest `page_size` (100,000 rows of ~300 bytes) is ~30 MB.
    public static let defaultMaximumBodySize = 64 * 1024 * 1024

    public struct TLS: Sendable {
        public var caFile: String?
        public var insecure: Bool

        public init(caFile: String? = nil, insecure: Bool = false) {
            self.caFile = caFile
            self.insecure = insecure
        }
    }

    private let configuration: HTTPClient.Configuration
    private let maximumBodySize: Int
    /// http:// through a proxy, as an absolute-URI request (async-http-client would tunnel it with CONNECT).
    private let forwarding: ForwardProxyExchange?
    /// The event-loop thread and the client with its connection pool: made by the first request, ended by
    /// `closeIdleConnections()` after a poll, so that nothing of them is left to wake up between polls.
    private let state = Mutex(State())

    private struct State {
        var client: HTTPClient?
        var group: MultiThreadedEventLoopGroup?
        var requestsInFlight = 0
    }

    /// An HTTP proxy. An https:// request tunnels through it with CONNECT: TLS still runs end to end with the
    /// server, verified against the server's name (and `caFile`), never the proxy's. An http:// request is sent
    /// to it with the absolute URI as its target, as curl does (`ForwardProxyExchange`).
    public struct Proxy: Sendable {
        public var host: String
        public var port: Int
        /// Basic `Proxy-Authorization` (on CONNECT, and on each http:// request), when the proxy URL carried
        /// credentials.
        public var username: String?
        public var password: String?

        public init(host: String, port: Int, username: String? = nil, password: String? = nil) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
        }
    }

    /// - Throws: `TransportError(.tls, …)` when the CA file cannot be loaded.
    /// - Parameter decompressing: inflate gzip and deflate answers (the caller asks for them with
    ///   `Accept-Encoding`), refusing more than `maximumBodySize` inflated bytes as they are inflated: a gzip bomb
    ///   never grows past the limit.
    public init(
        tls: TLS = TLS(), proxy: Proxy? = nil, connectTimeout: Int = 10, maximumBodySize: Int = defaultMaximumBodySize,
        decompressing: Bool = false
    ) throws {
        var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
        // NIOSSL's default minimum is TLS 1.0; 1.0 and 1.1 are deprecated (RFC 8996).
        tlsConfiguration.minimumTLSVersion = .tlsv12
        if let caFile = tls.caFile {
            do {
                tlsConfiguration.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(caFile))]
            } catch {
                throw TransportError(.tls, "cannot load the CA certificates in \(caFile): \(error)")
            }
        }
        if tls.insecure { tlsConfiguration.certificateVerification = .none }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tlsConfiguration, redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(Int64(connectTimeout))),
            decompression: decompressing ? .enabled(limit: .size(maximumBodySize)) : .disabled)
        // A refused connection is an answer: report it now instead of retrying until the connect timeout.
        // The poll schedule is the retry.
        configuration.connectionPool.retryConnectionEstablishment = false
        if let proxy {
            let authorization = proxy.username.map {
                HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "")
            }
            configuration.proxy = .server(host: proxy.host, port: proxy.port, authorization: authorization)
        }
        // Polls are minutes apart: a connection kept open between them only keeps the event loop waking (the
        // benchmark counted ~2 wake-ups a second while idle). The daemon ends the connections right after a
        // poll (`closeIdleConnections()`); for everyone else they close a few seconds after the last request.
        configuration.connectionPool.idleTimeout = .seconds(3)
        self.configuration = configuration
        self.maximumBodySize = maximumBodySize
        forwarding = proxy.map {
            ForwardProxyExchange(
                proxy: $0, connectTimeout: .seconds(Int64(connectTimeout)), maximumBodySize: maximumBodySize)
        }
    }

    deinit {
        let (client, group) = state.withLock { ($0.client, $0.group) }
        if let client, let group { Self.shutDown(client, group) }
    }

    /// Closes the open connections and ends the event-loop thread, unless a request is under way; the next
    /// request starts them again (a new connection, which a poll minutes later needs anyway).
    ///
    /// Waiting for the 3-second idle timeout instead costs a wake-up of the event loop after every poll, which
    /// then ran code that the daemon had handed back to the kernel (then `MADV_PAGEOUT`): the benchmark counted it
    /// as 139–160 context switches after 1,000 back-to-back polls, nearly all of them major page faults (3, one
    /// of them a fault, after a single poll). Closing only the connections would not do either: SwiftNIO
    /// leaves its timerfd armed when a scheduled task is cancelled (strace showed the event loop woken for the
    /// cancelled timer, then again for the next).
    public func closeIdleConnections() {
        let idle = state.withLock { state -> (HTTPClient, MultiThreadedEventLoopGroup)? in
            guard state.requestsInFlight == 0, let client = state.client, let group = state.group else { return nil }
            state.client = nil
            state.group = nil
            return (client, group)
        }
        guard let idle else { return }
        Self.shutDown(idle.0, idle.1)
    }

    /// Starts shutting the client and then its event-loop thread down, and returns: nothing waits for it (the
    /// thread ends within milliseconds, on its own). Reports on a queue of our own, not SwiftNIO's default
    /// `DispatchQueue.global()`: the first use of a global queue starts libdispatch's thread-pool monitor on Linux, a
    /// timer that then wakes the process every second for good. A queue of our own runs on the overcommit pool,
    /// which the monitor leaves alone.
    ///
    /// An answer can reach its caller before async-http-client has handed the connection back to its pool (a
    /// request with a body answered before its end was written); a shutdown in between drops the connection, and
    /// the late release stops the process ("A connection that we don't know was released?", seen in `act`). One
    /// empty task on the loop first lets that release land.
    private static func shutDown(_ client: HTTPClient, _ group: MultiThreadedEventLoopGroup) {
        group.next().submit {}.whenComplete { _ in
            client.shutdown(queue: shutdownQueue) { _ in group.shutdownGracefully(queue: shutdownQueue) { _ in } }
        }
    }

    private static let shutdownQueue = DispatchQueue(label: "trackwatch.http-shutdown")

    /// The client for one request and its event-loop thread, made if there is none.
    private func beginRequest() -> (HTTPClient, MultiThreadedEventLoopGroup) {
        state.withLock { state in
            state.requestsInFlight += 1
            if let client = state.client, let group = state.group { return (client, group) }
            // One event-loop thread is plenty for one request at a time.
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let client = HTTPClient(eventLoopGroup: group, configuration: configuration)
            state.group = group
            state.client = client
            return (client, group)
        }
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (client, group) = beginRequest()
        defer { state.withLock { $0.requestsInFlight -= 1 } }
        if let forwarding, request.url.lowercased().hasPrefix("http://") {
            return try await forward(request, through: forwarding, on: group.next())
        }
        return try await send(request, with: client)
    }

    private func forward(_ request: HTTPRequest, through forwarding: ForwardProxyExchange, on loop: any EventLoop)
        async throws -> HTTPResponse
    {
        let response: HTTPResponse
        do {
            response = try await forwarding.send(request, on: loop)
        } catch {
            throw Self.transportError(error, url: request.url, limit: maximumBodySize)
        }
        // The proxy's own answer, as on CONNECT: the request never reached the server.
        guard response.status != 407 else { throw Self.proxyCredentialsError }
        return response
    }

    private static let proxyCredentialsError = TransportError(
        .proxyCredentials,
        "it asks for credentials (HTTP 407); put them in the proxy URL, http://user:password@host:port")

    private func send(_ request: HTTPRequest, with client: HTTPClient) async throws -> HTTPResponse {
        let ahcRequest: HTTPClient.Request
        do {
            ahcRequest = try HTTPClient.Request(
                url: request.url, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue),
                headers: HTTPHeaders(request.headers.map { ($0.name, $0.value) }),
                body: request.body.map { .bytes($0) })
        } catch {
            throw TransportError(.invalidURL, "invalid URL \(request.url): \(error)")
        }
        do {
            // The whole-request deadline is a timer of our own that is cancelled when the answer is in:
            // async-http-client's `deadline:` leaves its timer armed until it fires, one wake-up per request
            // long after the poll (counted by the benchmark).
            let task = client.execute(request: ahcRequest, delegate: BodyCollector(limit: maximumBodySize))
            let deadline = task.futureResult.eventLoop.scheduleTask(in: .seconds(Int64(request.timeout))) { task.cancel() }
            defer { deadline.cancel() }
            return try await request.cancellation.whileWaiting(endWith: { task.cancel() }) { try await task.futureResult.get() }
        } catch {
            throw Self.transportError(error, url: request.url, limit: maximumBodySize)
        }
    }

    /// The operating system's words for a socket error ("Connection refused"), without NIO's decoration.
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? IOError else { return "\(error)" }
        return String(cString: strerror(error.errnoCode))
    }

    private static func transportError(_ error: any Error, url: String, limit: Int) -> TransportError {
        if let error = error as? HTTPClientError {
            // Never the header itself: it may be `Authorization` with the token in it. (The cases carry the
            // values, so they cannot be matched without them.)
            if "\(error)".hasPrefix("HTTPClientError.invalidHeaderField") {
                return TransportError(.other, "a request header holds characters HTTP does not allow (\(url))")
            }
            switch error {
            case .connectTimeout, .deadlineExceeded, .readTimeout, .writeTimeout, .tlsHandshakeTimeout, .cancelled:
                return TransportError(.timedOut, "no answer from \(url) in time")
            case .remoteConnectionClosed:
                return TransportError(.connectionFailed, "the server closed the connection (\(url))")
            case .proxyAuthenticationRequired:
                return proxyCredentialsError
            case .invalidProxyResponse:
                return TransportError(.proxy, "it did not open a tunnel to \(url)")
            case .httpProxyHandshakeTimeout:
                return TransportError(.timedOut, "no answer from the proxy in time")
            default:
                return TransportError(.other, "\(error) (\(url))")
            }
        }
        if String(reflecting: type(of: error)).hasSuffix(".DecompressionError") {
            // NIOHTTPCompression's, not imported here: `limit` when the inflated answer passed the cap.
            return "\(error)" == "limit"
                ? TransportError(.responseTooLarge, "the response from \(url), inflated, is larger than \(limit / 1_048_576) MB")
                : TransportError(.other, "the compressed response from \(url) could not be inflated (\(error))")
        }
        switch error {
        case is ResponseBody.TooLarge, is ResponseAccumulator.ResponseTooBigError:
            return TransportError(.responseTooLarge, "the response from \(url) is larger than \(limit / 1_048_576) MB")
        case is ForwardProxyExchange.DeadlinePassed, ChannelError.connectTimeout:
            return TransportError(.timedOut, "no answer from \(url) in time")
        case is ForwardProxyExchange.Closed:
            return TransportError(.connectionFailed, "the server closed the connection (\(url))")
        case let error as ForwardProxyExchange.Unsendable:
            return TransportError(.invalidURL, "cannot send the request to \(url): \(error.reason)")
        default:
            break
        }
        if error is NIOSSLError || error is BoringSSLError {
            // What BoringSSL says when the answer to its ClientHello is not TLS at all, but plain HTTP.
            if "\(error)".contains("WRONG_VERSION_NUMBER") {
                return TransportError(.notTLS, "an https:// URL, but the answer was not TLS")
            }
            if "\(error)".contains("UNSUPPORTED_PROTOCOL") || "\(error)".contains("PROTOCOL_VERSION") {
                return TransportError(.tlsVersion, "the server at \(url) offers only TLS older than 1.2")
            }
            return TransportError(.tls, "TLS handshake with \(url) failed: \(error)")
        }
        if let error = error as? NIOSSLExtraError {
            // The certificate is valid, but for another name (NIOSSL's own check after the handshake).
            return TransportError(
                .tls, "TLS handshake with \(url) failed: its certificate does not name the host in the URL (\(error))")
        }
        if let error = error as? HTTPParserError {
            // NIO's parser stops at 80 KB of response header: what the server sent, not a connection that failed.
            if case .headerOverflow = error { return TransportError.oversizedHeader(url: url) }
            return TransportError(.other, "the answer from \(url) is not valid HTTP (\(error))")
        }
        if let error = error as? NIOConnectionError {
            let reason = error.connectionErrors.first.map { Self.reason($0.error) } ?? "\(error)"
            return TransportError(.connectionFailed, "cannot connect to \(error.host):\(error.port): \(reason)")
        }
        if let error = error as? IOError {
            return TransportError(.connectionFailed, "cannot connect to \(url): \(Self.reason(error))")
        }
        return TransportError(.connectionFailed, "cannot connect to \(url): \(error)")
    }
}
