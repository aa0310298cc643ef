import Synchronization

/// Ends a request under way from another thread: the daemon stopping, or reloading, cuts a poll's request at once
/// instead of waiting for its timeout. The transport registers how to end the request while it waits for the answer;
/// `cancel()` runs that, once, and every later request carrying this cancellation is refused before it is sent.
public final class RequestCancellation: Sendable {
    private struct State {
        var cancelled = false
        var end: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Ends the request under way, if any; the requests after it are refused.
    public func cancel() {
        let end = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            defer { state.end = nil }
            return state.end
        }
        end?()
    }

    /// Runs `wait` (the wait for one answer) with `end` as the way to cut it short; when already cancelled, `end`
    /// runs at once, so that `wait` returns promptly with the transport's error.
    func whileWaiting<T>(endWith end: @escaping @Sendable () -> Void, _ wait: () async throws -> T) async throws -> T {
        let cancelled = state.withLock { state in
            if !state.cancelled { state.end = end }
            return state.cancelled
        }
        if cancelled { end() }
        defer { state.withLock { $0.end = nil } }
        return try await wait()
    }
}

extension Optional where Wrapped == RequestCancellation {
    /// `wait` with the cancellation's cut, or just `wait` without one.
    func whileWaiting<T>(endWith end: @escaping @Sendable () -> Void, _ wait: () async throws -> T) async throws -> T {
        guard let self else { return try await wait() }
        return try await self.whileWaiting(endWith: end, wait)
    }
}
