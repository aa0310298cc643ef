import Synchronization

/// Proof that the daemon's loop is alive, read by the watchdog from its own queue: a probe sent to the loop's queue
/// came back within `limit` seconds. Polls run on threads of their own, so the loop's queue answers at once
/// whatever any source is doing: a server that holds one poll for its whole deadline neither feeds nor starves the
/// watchdog. Only the daemon itself stuck (a deadlock, a wait that never ends on the loop) stops the feeding.
public final class Heartbeat: Sendable {
    private struct State {
        /// Boot-time seconds when the probe still out was sent; `nil` when none is out.
        var probeSentAt: Double?
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Double

    public init(now: @escaping @Sendable () -> Double = SystemClocks.bootTime) {
        self.now = now
    }

    /// Called on each watchdog tick. Returns whether the loop is alive, and whether a new probe must be sent
    /// to the loop's queue (the previous one came back).
    public func tick(limit: Double) -> (alive: Bool, sendProbe: Bool) {
        let time = now()
        return state.withLock { state in
            guard let sent = state.probeSentAt else {
                state.probeSentAt = time
                return (true, true)
            }
            return (time - sent <= limit, false)
        }
    }

    /// Runs on the loop's queue: the probe came back.
    public func probeReturned() { state.withLock { $0.probeSentAt = nil } }
}
