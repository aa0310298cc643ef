import Synchronization

/// The server's own clock, as the answers of one read give it (`Date`): the earliest second any of them named.
/// Whether a second is over where the data lives is judged by it, not by this machine's clock, which may run ahead
/// of the server's. Reset when a read starts.
public final class ServerClock: Sendable {
    private let earliest = Mutex<Double?>(nil)

    public init() {}

    /// A read starts.
    public func reset() { earliest.withLock { $0 = nil } }

    /// The earliest `Date` an answer of this read carried, in seconds since 1970; `nil` when none carried one.
    public var earliestDate: Double? { earliest.withLock { $0 } }

    func saw(_ response: HTTPResponse) {
        guard let date = response.header("Date").flatMap(RetryAfter.httpDate) else { return }
        earliest.withLock { $0 = min($0 ?? date, date) }
    }
}

/// A transport whose answers' `Date` a `ServerClock` keeps.
public struct ServerClockTransport: HTTPTransport {
    let base: any HTTPTransport
    let clock: ServerClock

    public init(_ base: any HTTPTransport, clock: ServerClock) {
        self.base = base
        self.clock = clock
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await base.send(request)
        clock.saw(response)
        return response
    }

    public func closeIdleConnections() { base.closeIdleConnections() }
}
