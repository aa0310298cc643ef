/// The longest wait a server asked for in answers it gave (GitHub's `X-Poll-Interval`, Azure DevOps' `Retry-After`
/// on a 200), held until the poller takes it for the next poll only (`ActivityTracker.takeServerInterval`). Not
/// thread-safe: a source polls from one queue.
public final class AskedWait {
    private var seconds: Double?

    public init() {}

    /// Asked to wait `seconds`: the longest asked since the last `take` holds.
    public func ask(_ seconds: Double) { self.seconds = max(self.seconds ?? 0, seconds) }

    /// The wait asked since it was last taken, once.
    public func take() -> Double? {
        defer { seconds = nil }
        return seconds
    }
}
