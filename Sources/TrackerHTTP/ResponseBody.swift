import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// A response body received into one buffer, bounded while it arrives. With a `Content-Length` the buffer is made
/// that size up front and filled in place; without one the bytes are kept in pieces of `pieceSize` and joined
/// once at the end. So an answer costs its size once while it arrives and twice for a moment at most — before, the
/// HTTP library's accumulator grew a buffer by doubling and the transport then copied it into an array.
struct ResponseBody {
    /// The body grew past the transport's limit (or announced that it would).
    struct TooLarge: Error {}

    static let pieceSize = 1 << 20

    private let limit: Int
    private let announced: Bool
    private var bytes: [UInt8] = []
    /// Without `Content-Length`: full pieces, `bytes` being the one filled now.
    private var pieces: [[UInt8]] = []
    private var count = 0

    init(contentLength: Int?, limit: Int) throws(TooLarge) {
        self.limit = limit
        announced = contentLength != nil
        if let contentLength {
            guard contentLength <= limit else { throw TooLarge() }
            // Address space only: pages become resident as the bytes arrive.
            bytes.reserveCapacity(max(0, contentLength))
        }
    }

    /// `Content-Length` of a response head, when it is one number.
    static func contentLength(_ headers: HTTPHeaders) -> Int? {
        let values = headers[canonicalForm: "content-length"]
        guard values.count == 1, values[0].utf8.count <= 18 else { return nil }
        return Int(values[0])
    }

    mutating func append(_ buffer: ByteBuffer) throws(TooLarge) { try append(buffer.readableBytesView) }

    mutating func append<Bytes: RandomAccessCollection<UInt8>>(_ part: Bytes) throws(TooLarge) {
        count += part.count
        guard count <= limit else { throw TooLarge() }
        guard !announced else { return bytes.append(contentsOf: part) }
        var view = part[...]
        while !view.isEmpty {
            if bytes.count == Self.pieceSize {
                pieces.append(bytes)
                bytes = []
            }
            if bytes.isEmpty { bytes.reserveCapacity(Self.pieceSize) }
            let taken = view.prefix(Self.pieceSize - bytes.count)
            bytes.append(contentsOf: taken)
            view = view.dropFirst(taken.count)
        }
    }

    /// The whole body; this value is empty afterwards.
    mutating func take() -> [UInt8] {
        defer { (bytes, pieces, count) = ([], [], 0) }
        guard !pieces.isEmpty else { return bytes }
        var whole: [UInt8] = []
        whole.reserveCapacity(count)
        for index in pieces.indices {
            whole.append(contentsOf: pieces[index])
            pieces[index] = []  // each piece freed as soon as it is copied
        }
        whole.append(contentsOf: bytes)
        return whole
    }
}

/// async-http-client's delegate that receives a response into a `ResponseBody` (its own accumulator doubles a
/// buffer that the transport then had to copy out).
final class BodyCollector: HTTPClientResponseDelegate, Sendable {
    typealias Response = HTTPResponse

    private struct Received {
        var head: HTTPResponseHead?
        var body: ResponseBody?
    }

    private let limit: Int
    private let received = Mutex(Received())

    init(limit: Int) { self.limit = limit }

    func didReceiveHead(task: HTTPClient.Task<HTTPResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        do {
            let body = try ResponseBody(contentLength: ResponseBody.contentLength(head.headers), limit: limit)
            received.withLock { $0 = Received(head: head, body: body) }
            return task.eventLoop.makeSucceededVoidFuture()
        } catch {
            return task.eventLoop.makeFailedFuture(error)
        }
    }

    func didReceiveBodyPart(task: HTTPClient.Task<HTTPResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        do {
            try received.withLock { (received) throws(ResponseBody.TooLarge) in try received.body?.append(buffer) }
            return task.eventLoop.makeSucceededVoidFuture()
        } catch {
            return task.eventLoop.makeFailedFuture(error)
        }
    }

    func didFinishRequest(task: HTTPClient.Task<HTTPResponse>) throws -> HTTPResponse {
        try received.withLock { received in
            guard let head = received.head else { throw HTTPClientError.remoteConnectionClosed }
            return HTTPResponse(head, body: received.body?.take() ?? [])
        }
    }
}

extension HTTPResponse {
    init(_ head: HTTPResponseHead, body: [UInt8]) {
        self.init(status: Int(head.status.code), headers: head.headers.map { ($0.name, $0.value) }, body: body)
    }
}
