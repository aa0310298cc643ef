import Dispatch
import TrackerHTTP

extension HTTPTransport {
    /// The request, waited for on the calling thread: for a test's own requests to a simulator (its statistics, a
    /// colleague's edit), which have nothing to run meanwhile. Never for what the daemon or a client sends.
    public func sendWaiting(_ request: HTTPRequest) throws -> HTTPResponse {
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        Task { [self] in
            outcome.result = await Result(catching: { try await self.send(request) })
            done.signal()
        }
        done.wait()
        return try outcome.result!.get()
    }
}

/// The answer, written by the task before it signals and read by the waiting thread after.
private final class Outcome: @unchecked Sendable {
    var result: Result<HTTPResponse, any Error>?
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
