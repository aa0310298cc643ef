#if canImport(Glibc)
    import Glibc
#endif
import NIOCore
import NIOHTTP1
import NIOSSL

/// The deliveries a real server's transport gets wrong or does differently: chunked bodies, a reset, a stall.
extension RequestHandler {
    /// Writes `response` when its delivery is one of these; false leaves it to the ordinary path.
    func deliverSpecially(_ response: SimResponse, head: HTTPRequestHead, context: ChannelHandlerContext) -> Bool {
        switch response.delivery {
        case .reset:
            reset(context.channel)
        case .chunked:
            writeChunked(response, head: head, context: context)
        case .stallMidBody:
            writeHalf(response, head: head, context: context)
        case .normal, .truncated, .never, .dropped:
            return false
        }
        return true
    }

    /// `SO_LINGER` 0 makes close(2) send RST instead of FIN: the client reads "connection reset by peer". Over TLS
    /// the close starts below the TLS handler, which would otherwise say close_notify first (a clean end).
    private func reset(_ channel: any Channel) {
        guard let socket = channel as? any SocketOptionProvider else {
            channel.close(promise: nil)
            return
        }
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
            if let tls = try? channel.pipeline.syncOperations.context(handlerType: NIOSSLServerHandler.self) {
                tls.close(promise: nil)
            } else {
                channel.close(promise: nil)
            }
        }
    }

    private func writeChunked(_ response: SimResponse, head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = Self.headers(of: response, keepAlive: head.isKeepAlive)
        headers.add(name: "Transfer-Encoding", value: "chunked")
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        // Small chunks at arbitrary byte offsets, so a multi-byte UTF-8 character may straddle two of them.
        let size = max(61, response.body.count / 16)
        var start = 0
        while start < response.body.count {
            let end = min(start + size, response.body.count)
            var buffer = context.channel.allocator.buffer(capacity: end - start)
            buffer.writeBytes(response.body[start..<end])
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            start = end
        }
        let keepAlive = head.isKeepAlive
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { [channel = context.channel] _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }

    /// Announces the whole body, sends its first half and then nothing; the connection stays open.
    private func writeHalf(_ response: SimResponse, head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = Self.headers(of: response, keepAlive: head.isKeepAlive)
        headers.add(name: "Content-Length", value: String(response.body.count))
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: response.body.count / 2)
        buffer.writeBytes(response.body.prefix(response.body.count / 2))
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
    }

    private static func headers(of response: SimResponse, keepAlive: Bool) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if !response.headers.contains(where: { $0.0.lowercased() == "content-type" }) {
            headers.add(name: "Content-Type", value: "application/json")
        }
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        return headers
    }
}
