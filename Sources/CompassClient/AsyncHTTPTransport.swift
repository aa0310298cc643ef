import AsyncHTTPClient
#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// `HTTPTransport` over swift-server/async-http-client: unlike URLSession on Linux it can trust a private CA
/// file, which Compass servers with their self-signed certificate need.
///
/// Requests block the calling thread (never an event-loop thread): the poll runs on its own serial queue.
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

    private let client: HTTPClient
    private let group: MultiThreadedEventLoopGroup
    private let maximumBodySize: Int

    /// - Throws: `TransportError(.tls, …)` when the CA file cannot be loaded.
    public init(tls: TLS = TLS(), connectTimeout: Int = 10, maximumBodySize: Int = defaultMaximumBodySize) throws {
        var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
        if let caFile = tls.caFile {
            do {
                tlsConfiguration.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(caFile))]
            } catch {
                throw TransportError(.tls, "cannot load the CA certificates in \(caFile): \(error)")
            }
        }
        if tls.insecure { tlsConfiguration.certificateVerification = .none }
        // One event-loop thread is plenty for one request at a time, and costs least at idle.
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tlsConfiguration, redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(Int64(connectTimeout))), decompression: .disabled)
        // A refused connection is an answer: report it now instead of retrying until the connect timeout.
        // The poll schedule is the retry.
        configuration.connectionPool.retryConnectionEstablishment = false
        // Polls are minutes apart: a connection kept open between them only keeps the event loop waking (the
        // benchmark counted ~2 wake-ups a second while idle). Close it a few seconds after a poll; the next
        // poll opens a new one, which costs far less than the wake-ups in between.
        configuration.connectionPool.idleTimeout = .seconds(3)
        client = HTTPClient(eventLoopGroup: group, configuration: configuration)
        self.maximumBodySize = maximumBodySize
    }

    deinit {
        try? client.syncShutdown()
        try? group.syncShutdownGracefully()
    }

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let ahcRequest: HTTPClient.Request
        do {
            ahcRequest = try HTTPClient.Request(
                url: request.url, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue),
                headers: HTTPHeaders(request.headers.map { ($0.name, $0.value) }),
                body: request.body.map { .bytes($0) })
        } catch {
            throw TransportError(.invalidURL, "invalid URL \(request.url): \(error)")
        }
        let accumulator = ResponseAccumulator(request: ahcRequest, maxBodySize: maximumBodySize)
        do {
            // The whole-request deadline is a timer of our own that is cancelled when the answer is in:
            // async-http-client's `deadline:` leaves its timer armed until it fires, one wake-up per request
            // long after the poll (counted by the benchmark).
            let task = client.execute(request: ahcRequest, delegate: accumulator)
            let deadline = task.futureResult.eventLoop.scheduleTask(in: .seconds(Int64(request.timeout))) { task.cancel() }
            defer { deadline.cancel() }
            let response = try task.futureResult.wait()
            return HTTPResponse(
                status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                body: response.body.map { Array($0.readableBytesView) } ?? [])
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
            switch error {
            case .connectTimeout, .deadlineExceeded, .readTimeout, .writeTimeout, .tlsHandshakeTimeout, .cancelled:
                return TransportError(.timedOut, "no answer from \(url) in time")
            case .remoteConnectionClosed:
                return TransportError(.connectionFailed, "the server closed the connection (\(url))")
            default:
                return TransportError(.other, "\(error) (\(url))")
            }
        }
        if error is ResponseAccumulator.ResponseTooBigError {
            return TransportError(.responseTooLarge, "the response from \(url) is larger than \(limit / 1_048_576) MB")
        }
        if error is NIOSSLError || error is BoringSSLError {
            return TransportError(.tls, "TLS handshake with \(url) failed: \(error)")
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
