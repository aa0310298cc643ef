import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Plain `http://` through an HTTP proxy, sent the way curl and browsers send it: to the proxy, with the absolute
/// URI as the request target (RFC 9112 §3.2.2) and `Proxy-Authorization` where configured. async-http-client
/// tunnels every request through its proxy with CONNECT, which a stock Squid refuses for any port but 443 — and
/// for http:// a tunnel protects nothing anyway. One connection per request (`Connection: close`): no pool is
/// left to wake the event loop between polls.
struct ForwardProxyExchange {
    /// The proxy closed the connection before the whole answer arrived.
    struct Closed: Error {}
    /// The request's deadline passed.
    struct DeadlinePassed: Error {}
    /// The request cannot be sent as it is (a URL that is not `http://host…`, a header with CR, LF or NUL).
    struct Unsendable: Error {
        let reason: String
    }

    let proxy: AsyncHTTPTransport.Proxy
    let connectTimeout: TimeAmount
    let maximumBodySize: Int

    /// Sends `request` through the proxy on `eventLoop`; returns the whole answer.
    func send(_ request: HTTPRequest, on eventLoop: any EventLoop) async throws -> HTTPResponse {
        let head = try Self.head(of: request, authorization: proxy.authorization)
        let outcome = Outcome(eventLoop.makePromise(of: HTTPResponse.self))
        let limit = maximumBodySize
        let connection = ClientBootstrap(group: eventLoop)
            .connectTimeout(connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        Exchange(head: head, body: request.body, outcome: outcome, limit: limit))
                }
            }
            .connect(host: proxy.host, port: proxy.port)
        connection.whenFailure { outcome.fail($0) }
        let deadline = eventLoop.scheduleTask(in: .seconds(Int64(request.timeout))) {
            outcome.fail(DeadlinePassed())
            connection.whenSuccess { $0.close(promise: nil) }
        }
        defer { deadline.cancel() }
        return try await request.cancellation.whileWaiting(endWith: {
            outcome.fail(DeadlinePassed())
            connection.whenSuccess { $0.close(promise: nil) }
        }) { try await outcome.future.get() }
    }

    /// `GET http://host:port/path HTTP/1.1` with the request's headers, `Host`, the proxy's credentials and
    /// `Connection: close`.
    static func head(of request: HTTPRequest, authorization: String?) throws -> HTTPRequestHead {
        let url = request.url
        guard url.lowercased().hasPrefix("http://"), url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw Unsendable(reason: "not an http:// URL of printable ASCII")
        }
        let authority = url.dropFirst("http://".count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@") else { throw Unsendable(reason: "no host in the URL") }
        var headers = HTTPHeaders(request.headers.map { ($0.name, $0.value) })
        headers.replaceOrAdd(name: "Host", value: String(authority))
        if let authorization { headers.replaceOrAdd(name: "Proxy-Authorization", value: authorization) }
        if let body = request.body { headers.replaceOrAdd(name: "Content-Length", value: "\(body.count)") }
        headers.replaceOrAdd(name: "Connection", value: "close")
        // The encoder writes what it is given: a line break in a header would be a header of its own.
        let forbidden: Set<UInt8> = [0x0D, 0x0A, 0x00]
        guard !headers.contains(where: { ($0.name + $0.value).utf8.contains(where: forbidden.contains) }) else {
            throw Unsendable(reason: "a request header holds characters HTTP does not allow")
        }
        return HTTPRequestHead(
            version: .http1_1, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue),
            uri: String(url.prefix { $0 != "#" }), headers: headers)
    }

    /// The request's one result: the first of the answer, an error, or the deadline wins.
    final class Outcome: Sendable {
        private let promise: EventLoopPromise<HTTPResponse>
        private let settled = Mutex(false)

        init(_ promise: EventLoopPromise<HTTPResponse>) { self.promise = promise }

        var future: EventLoopFuture<HTTPResponse> { promise.futureResult }

        func succeed(_ response: HTTPResponse) { if settle() { promise.succeed(response) } }
        func fail(_ error: any Error) { if settle() { promise.fail(error) } }

        /// True the first time only.
        private func settle() -> Bool {
            settled.withLock { settled in
                defer { settled = true }
                return !settled
            }
        }
    }

    /// Writes the request when the connection to the proxy is up, and receives the answer into a `ResponseBody`.
    final class Exchange: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundOut = HTTPClientRequestPart

        private let head: HTTPRequestHead
        private let body: [UInt8]?
        private let outcome: Outcome
        private let limit: Int
        private var response: (head: HTTPResponseHead, body: ResponseBody)?

        init(head: HTTPRequestHead, body: [UInt8]?, outcome: Outcome, limit: Int) {
            self.head = head
            self.body = body
            self.outcome = outcome
            self.limit = limit
        }

        func channelActive(context: ChannelHandlerContext) {
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            if let body {
                let buffer = context.channel.allocator.buffer(bytes: body)
                context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            do {
                switch unwrapInboundIn(data) {
                case .head(let head):
                    let length = ResponseBody.contentLength(head.headers)
                    response = (head, try ResponseBody(contentLength: length, limit: limit))
                case .body(let buffer):
                    try response?.body.append(buffer)
                case .end:
                    if var response { outcome.succeed(HTTPResponse(response.head, body: response.body.take())) }
                    response = nil
                    context.close(promise: nil)
                }
            } catch {
                failed(error, context)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            outcome.fail(Closed())
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) { failed(error, context) }

        private func failed(_ error: any Error, _ context: ChannelHandlerContext) {
            response = nil
            outcome.fail(error)
            context.close(promise: nil)
        }
    }
}

extension AsyncHTTPTransport.Proxy {
    /// `Basic …` for `Proxy-Authorization`, when the proxy URL carried credentials.
    var authorization: String? {
        username.map { HTTPClient.Authorization.basic(username: $0, password: password ?? "").headerValue }
    }
}
