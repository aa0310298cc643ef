/// One HTTP request as a simulator sees it: method, decoded path and query, headers and body.
public struct SimRequest: Sendable {
    public var method: String
    public var path: String
    public var query: [String: String]
    /// Every query parameter in order, repeated names included (`fields=a&fields=b`), names and values decoded.
    public var queryPairs: [(name: String, value: String)] = []
    public var authorization: String?
    public var body: [UInt8]
    /// Header values by lower-cased name (repeated headers joined with ", ", `Cookie` with "; ").
    public var headers: [String: String]

    public init(
        method: String, target: String, authorization: String?, body: [UInt8], headers: [String: String] = [:]
    ) {
        self.method = method
        self.headers = headers
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = parts.first.map { Self.percentDecoded(String($0)) } ?? "/"
        var query: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let keyValue = pair.split(separator: "=", maxSplits: 1)
                let value = keyValue.count > 1 ? Self.percentDecoded(String(keyValue[1])) : ""
                query[String(keyValue[0])] = value
                queryPairs.append((Self.percentDecoded(String(keyValue[0])), value))
            }
        }
        self.query = query
        self.authorization = authorization
        self.body = body
    }

    public static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

public struct SimResponse: Sendable {
    public var status: Int
    public var body: [UInt8]
    public var headers: [(String, String)] = []
    public var delivery: Delivery = .normal
    /// Seconds before the answer leaves: a slow server (each page answered just inside the client's timeout).
    public var delay: Double = 0

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}


/// How a response leaves the server.
public enum Delivery: Sendable {
    case normal
    case truncated
    case never
    /// The connection closes without an answer: a proxy or server that dropped it.
    case dropped
    /// `Transfer-Encoding: chunked`: the body in several chunks, with no `Content-Length`.
    case chunked
    /// No answer: the connection is reset (RST, through `SO_LINGER` 0) as soon as the request is read.
    case reset
    /// The head and half the body, then nothing: a server that hangs mid-answer.
    case stallMidBody
}

/// A simulated server's request handling, independent of the HTTP plumbing so that tests can call it directly.
public protocol SimHandler: Sendable {
    func handle(_ request: SimRequest) -> SimResponse
}
