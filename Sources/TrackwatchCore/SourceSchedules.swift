/// Every source's own `PollSchedule`, by source name: one source's failures, backoff, `Retry-After` or server
/// interval move its own next poll and nobody else's. The daemon wakes at the earliest due source and polls only
/// the sources that are due.
public struct SourceSchedules: Equatable, Sendable {
    private var schedules: [String: PollSchedule] = [:]
    private var interval: Double
    private var firstRetry: Double

    /// A schedule for each of `names`, each due now (the first poll runs at start).
    public init(names: [String], interval: Double, firstRetry: Double) {
        self.interval = interval
        self.firstRetry = firstRetry
        reconcile(names: names, interval: interval, firstRetry: firstRetry)
    }

    /// After a reload: sources that remain keep their schedule (a rate-limited server stays waited out, a failing
    /// one keeps its backoff) with the new interval and first retry; new sources are due now; the others are gone.
    public mutating func reconcile(names: [String], interval: Double, firstRetry: Double) {
        self.interval = interval
        self.firstRetry = firstRetry
        var kept: [String: PollSchedule] = [:]
        for name in names {
            var schedule = schedules[name] ?? PollSchedule(interval: interval, firstRetry: firstRetry)
            schedule.interval = interval
            schedule.firstRetry = firstRetry
            kept[name] = schedule
        }
        schedules = kept
    }

    /// The schedule of the source `name` (a fresh one, due now, for a name not known).
    public subscript(name: String) -> PollSchedule {
        get { schedules[name] ?? PollSchedule(interval: interval, firstRetry: firstRetry) }
        set { schedules[name] = newValue }
    }

    public func isDue(_ name: String, at now: Double) -> Bool { self[name].isDue(at: now) }

    /// Whether the source `name` is polled in a wake-up that polls another source anyway: when it is due, or when its
    /// regular poll would be due within the jitter. Sources polled together at start then stay together — one wake-up
    /// per interval, not one per source as each one's jitter drifts. Never sooner than a server asked, nor a retry.
    public func joins(_ name: String, at now: Double) -> Bool {
        let schedule = self[name]
        return schedule.isDue(at: now)
            || (schedule.standing == .regular && schedule.delay(at: now) <= schedule.interval * schedule.jitterFraction)
    }

    /// Seconds from `now` until the earliest source is due (0 when one is overdue; the interval when there is none),
    /// leaving out the sources in `busy` (those being polled: one overdue while its long poll runs must not wake the
    /// daemon again and again).
    public func delay(at now: Double, excluding busy: Set<String> = []) -> Double {
        schedules.filter { !busy.contains($0.key) }.map { $0.value.delay(at: now) }.min() ?? interval
    }

    /// Makes every source due now (SIGUSR1).
    public mutating func pollAllNow() {
        for name in schedules.keys { schedules[name]?.pollNow() }
    }
}
