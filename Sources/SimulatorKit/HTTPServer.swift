import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Serves a simulator (`SimHandler`) over HTTP/1.1 (or HTTPS, like a real server with its self-signed certificate) with
/// keep-alive, on one event-loop thread.
public final class SimulatorServer: Sendable {
    /// A PEM certificate chain and private key to serve HTTPS with.
    public struct TLSFiles: Sendable {
        public let certificate: String
        public let privateKey: String

        public init(certificate: String, privateKey: String) {
            self.certificate = certificate
            self.privateKey = privateKey
        }
    }

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    public let port: Int

    public init(simulator: any SimHandler, host: String, port: Int, tls: TLSFiles? = nil) throws {
        let context = try tls.map { files in
            try NIOSSLContext(configuration: .makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(files.certificate).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: files.privateKey, format: .pem))))
        }
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(RequestHandler(simulator: simulator))
                }
            }
        do {
            channel = try bootstrap.bind(host: host, port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        self.port = channel.localAddress?.port ?? port
    }

    /// Blocks until the server is closed.
    public func wait() throws { try channel.closeFuture.wait() }

    public func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// Collects one request (head, body, end), hands it to the simulator, writes the response.
final class RequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let simulator: any SimHandler
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(simulator: any SimHandler) { self.simulator = simulator }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body.removeAll(keepingCapacity: true)
        case .body(var buffer):
            if let bytes = buffer.readBytes(length: buffer.readableBytes) { body += bytes }
        case .end:
            guard let head else { return }
            respond(context: context, head: head)
            self.head = nil
        }
    }

    private func respond(context: ChannelHandlerContext, head: HTTPRequestHead) {
        var requestHeaders: [String: String] = [:]
        for (name, value) in head.headers {
            let key = name.lowercased()
            requestHeaders[key] = requestHeaders[key].map { $0 + (key == "cookie" ? "; " : ", ") + value } ?? value
        }
        let response = simulator.handle(SimRequest(
            method: head.method.rawValue, target: head.uri, authorization: head.headers.first(name: "Authorization"),
            body: body, headers: requestHeaders))
        guard response.delay > 0 else { return deliver(response, head: head, context: context) }
        // Later on the channel's own event loop, so that a slow answer holds no thread and no other connection.
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: .milliseconds(Int64(response.delay * 1000))) {
            let (handler, context) = bound.value
            guard context.channel.isActive else { return }
            handler.deliver(response, head: head, context: context)
        }
    }

    private func deliver(_ response: SimResponse, head: HTTPRequestHead, context: ChannelHandlerContext) {
        if response.delivery == .never { return }  // an injected hang: the client's timeout has to end it
        if response.delivery == .dropped { return context.close(promise: nil) }
        if deliverSpecially(response, head: head, context: context) { return }  // see Deliveries.swift
        var headers = HTTPHeaders()
        if !response.headers.contains(where: { $0.0 == "Content-Type" }) { headers.add(name: "Content-Type", value: "application/json") }
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        let truncated = response.delivery == .truncated
        headers.add(name: "Content-Length", value: String(response.body.count + (truncated ? 100 : 0)))
        if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: response.body.count)
        buffer.writeBytes(response.body)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        if truncated {
            // Fewer bytes than announced, then the connection ends: a body cut short.
            context.writeAndFlush(NIOAny(HTTPServerResponsePart.body(.byteBuffer(context.channel.allocator.buffer(capacity: 0)))))
                .whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
            return
        }
        let keepAlive = head.isKeepAlive
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { [channel = context.channel] _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }
}
