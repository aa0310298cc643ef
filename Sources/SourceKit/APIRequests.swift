import TrackerHTTP

/// How a tracker's API client sends: its sign-in and `Accept` headers on every request, the configured timeout, and
/// no answer at all as the tracker's own `unreachable` error. Not thread-safe: a source polls once at a time.
public struct APIRequests {
    /// The API's base URL: every path is under it.
    public let base: String
    public let transport: any HTTPTransport
    private let headers: [(name: String, value: String)]
    private let timeout: Int
    private let unreachable: (TransportError) -> any Error

    /// `headers`: sent on every request, after them `User-Agent: trackwatch`.
    public init(
        base: String, transport: any HTTPTransport, timeout: Int, headers: [(name: String, value: String)],
        unreachable: @escaping (TransportError) -> any Error
    ) {
        self.base = base
        self.transport = transport
        self.timeout = timeout
        self.headers = headers + [("User-Agent", "trackwatch")]
        self.unreachable = unreachable
    }

    /// `base`, `path` and the query, percent-encoded.
    public func url(_ path: String, _ query: [(String, String)] = []) -> String {
        base + path + PercentEncoding.query(query)
    }

    /// One request, answered whatever its status; a JSON `body` is sent as such.
    public func send(
        _ method: HTTPMethod = .get, _ url: String, headers more: [(name: String, value: String)] = [],
        body: [UInt8]? = nil
    ) async throws -> HTTPResponse {
        let json: [(name: String, value: String)] = body == nil ? [] : [("Content-Type", "application/json")]
        do {
            return try await transport.send(
                HTTPRequest(method: method, url: url, headers: headers + more + json, body: body, timeout: timeout))
        } catch let error as TransportError {
            throw unreachable(error)
        }
    }
}
