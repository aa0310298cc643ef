import Synchronization
import TrackerHTTP

/// The time one poll of a source may take in all (`[poll] deadline`). Armed when the poll starts and disarmed when
/// it ends; the source's transport (`DeadlineTransport`) refuses every request once it has passed and cuts each
/// request's own timeout to what is left, so that a server answering each page just in time, or linking one more
/// page forever, ends the poll at the deadline instead of holding every other source for hours.
///
/// Enforced in the transport rather than by a watcher thread: the poll then fails the ordinary way, inside the
/// source (its watch's state untouched, the failure logged in its store), on the thread that polls. `cancel()` (the
/// poll's task cancelled: the daemon stopping or reloading) ends it the same way, at once: the request under way is
/// cut (`RequestCancellation`) and no other is sent.
public final class PollDeadline: Sendable {
    private struct State {
        var endsAt: Double?
        var seconds: Double = 0
        var ranOut = false
        var cancellation = RequestCancellation()
    }

    private let state = Mutex(State())
    /// Monotonic seconds.
    private let now: @Sendable () -> Double
    /// What the source is called in the failure's sentence.
    let source: String

    public init(source: String, now: @escaping @Sendable () -> Double) {
        self.source = source
        self.now = now
    }

    /// A poll starts: it may take `seconds`.
    public func arm(seconds: Double) {
        let start = now()
        state.withLock { $0 = State(endsAt: start + seconds, seconds: seconds) }  // a fresh cancellation too
    }

    /// The poll ended.
    public func disarm() { state.withLock { $0.endsAt = nil } }

    /// Ends the running poll now: its request under way is cut and no other is sent; it throws `PollCancelled`
    /// and commits nothing it had not committed yet. The next `arm` starts afresh.
    public func cancel() { state.withLock { $0.cancellation }.cancel() }

    /// Whether the running (or the last) poll was cancelled.
    public var wasCancelled: Bool { state.withLock { $0.cancellation.isCancelled } }

    /// The running poll's cancellation, which its requests carry.
    var cancellation: RequestCancellation { state.withLock { $0.cancellation } }

    /// Whether the last (or the running) poll was stopped by its deadline.
    public var ranOut: Bool { state.withLock { $0.ranOut } }

    /// Seconds left, or `nil` when no poll is armed.
    func remaining() -> Double? {
        let time = now()
        return state.withLock { state in state.endsAt.map { $0 - time } }
    }

    /// Records that the deadline stopped the poll; the failure to throw.
    func expire() -> PollDeadlineExceeded {
        let seconds = state.withLock { state in
            state.ranOut = true
            return state.seconds
        }
        return PollDeadlineExceeded(source: source, seconds: seconds)
    }
}

/// A source's poll ran out of its deadline: nothing it read in this poll is stored; the next poll tries again.
public struct PollDeadlineExceeded: SourceFailure, Equatable {
    /// The source's name.
    public let source: String
    public let seconds: Double
    /// Polls of this source in a row that ran out of the deadline, this one included (counted by the session).
    public var pollsInARow = 1

    public init(source: String, seconds: Double) {
        self.source = source
        self.seconds = seconds
    }

    public var failureKind: FailureKind { .unreachable(.timedOut) }

    public var description: String {
        let what = pollsInARow > 1
            ? "\(source) has been slow for \(pollsInARow) polls: each took the whole deadline (\(Self.duration(seconds)))"
            : "\(source) ran out of its poll deadline (\(Self.duration(seconds)))"
        return what + ": its server is slow, or its answer does not end. Nothing changed; the other sources are polled "
            + "as usual, this one again at its next interval (raise deadline in [poll] if it is only slow)."
    }

    public var reason: String { "no complete answer within the poll deadline (\(Self.duration(seconds)))" }

    /// `45 s`, `5 min`, `1 h 30 min`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 || whole % 60 != 0 { return "\(whole) s" }
        let (hours, minutes) = (whole / 3_600, whole % 3_600 / 60)
        if hours == 0 { return "\(minutes) min" }
        return minutes == 0 ? "\(hours) h" : "\(hours) h \(minutes) min"
    }
}

/// Holds every request of a poll to the poll's deadline: none starts after it, and none outlives it.
public struct DeadlineTransport: HTTPTransport {
    let base: any HTTPTransport
    let deadline: PollDeadline

    public init(_ base: any HTTPTransport, deadline: PollDeadline) {
        self.base = base
        self.deadline = deadline
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let remaining = deadline.remaining() else { return try await base.send(request) }
        let cancellation = deadline.cancellation
        guard !cancellation.isCancelled else { throw PollCancelled(source: deadline.source) }
        guard remaining > 0 else { throw deadline.expire() }
        var bounded = request
        bounded.cancellation = cancellation
        // Whole seconds, rounded up: the transport's timeouts are in seconds.
        bounded.timeout = min(request.timeout, Int(remaining.rounded(.up)))
        do {
            return try await base.send(bounded)
        } catch where cancellation.isCancelled {
            throw PollCancelled(source: deadline.source)  // cut by the cancellation, whatever the transport said
        } catch let error as TransportError where error.kind == .timedOut && bounded.timeout < request.timeout {
            throw deadline.expire()  // the request's own timeout would still have waited: the deadline stopped it
        }
    }

    public func closeIdleConnections() { base.closeIdleConnections() }
}

/// A source's poll was cancelled (the daemon stopping or reloading): nothing it had not committed is stored, and the
/// next poll reads again.
public struct PollCancelled: SourceFailure, Equatable {
    /// The source's name.
    public let source: String

    public init(source: String) { self.source = source }

    public var failureKind: FailureKind { .unreachable(.timedOut) }
    public var description: String { "the poll of \(source) was stopped: trackwatch is stopping or reloading; nothing changed" }
    public var reason: String { "poll stopped by trackwatch" }
}
