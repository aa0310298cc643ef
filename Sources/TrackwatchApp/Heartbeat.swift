import Synchronization
import TrackerHTTP

/// Proof that the poll loop is alive, read by the watchdog from its own queue: the loop is idle (a probe
/// sent to its queue came back), or a poll is running and its last HTTP request started or ended recently.
public final class Heartbeat: Sendable {
    private struct State {
        var probePending = false
        var lastProgress: Double
    }

    private let state: Mutex<State>
    private let now: @Sendable () -> Double

    public init(now: @escaping @Sendable () -> Double = SystemClocks.bootTime) {
        self.now = now
        state = Mutex(State(lastProgress: now()))
    }

    /// The poll loop made progress (a poll or a request started or finished).
    public func beat() {
        let time = now()
        state.withLock { $0.lastProgress = time }
    }

    /// Called on each watchdog tick. Returns whether the loop is alive, and whether a new probe must be sent
    /// to the loop's queue (the previous one came back).
    public func tick(progressLimit: Double) -> (alive: Bool, sendProbe: Bool) {
        let time = now()
        return state.withLock { state in
            if !state.probePending {
                state.probePending = true
                return (true, true)
            }
            return (time - state.lastProgress <= progressLimit, false)
        }
    }

    /// Runs on the loop's queue: the probe came back.
    public func probeReturned() {
        let time = now()
        state.withLock {
            $0.probePending = false
            $0.lastProgress = time
        }
    }
}

/// Beats the heartbeat around every request, so that a long but working poll keeps the watchdog fed.
public struct HeartbeatTransport: HTTPTransport {
    let base: any HTTPTransport
    let heartbeat: Heartbeat

    public init(_ base: any HTTPTransport, heartbeat: Heartbeat) {
        self.base = base
        self.heartbeat = heartbeat
    }

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        heartbeat.beat()
        defer { heartbeat.beat() }
        return try base.send(request)
    }

    public func closeIdleConnections() { base.closeIdleConnections() }
}
