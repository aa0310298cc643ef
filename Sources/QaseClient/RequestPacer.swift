#if canImport(Glibc)
    import Glibc
#endif

/// Keeps one token's requests well under Qase's rate limit (plan for 200 a minute, qase-api.md §1): a burst of
/// `burst` requests, then `perSecond` (a token bucket). A steady poll (about 15 requests) never waits; a first
/// poll of a large workspace, or many projects, is spread out — at most 60 + 120 requests in any minute — and
/// each wait is short (1 / `perSecond` s), so that the daemon's watchdog keeps seeing progress.
struct RequestPacer {
    let burst: Double
    let perSecond: Double
    private let now: () -> Double
    private let sleep: (Double) -> Void
    private var tokens: Double
    private var last: Double?

    init(
        burst: Double = 60, perSecond: Double = 2, now: @escaping () -> Double = RequestPacer.monotonic,
        sleep: @escaping (Double) -> Void = RequestPacer.sleep
    ) {
        self.burst = burst
        self.perSecond = perSecond
        self.now = now
        self.sleep = sleep
        tokens = burst
    }

    /// Waits, if needed, until one more request may go.
    mutating func take() {
        refill()
        if tokens < 1 {
            sleep((1 - tokens) / perSecond)
            refill()
        }
        tokens = max(0, tokens - 1)
    }

    private mutating func refill() {
        let time = now()
        if let last { tokens = min(burst, tokens + max(0, time - last) * perSecond) }
        last = time
    }

    static func monotonic() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        usleep(UInt32(min(seconds, 5) * 1_000_000))
    }
}
