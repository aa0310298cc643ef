/// When the next poll is due.
///
/// Due times are kept on the boot-time clock (it counts time spent suspended, and nobody sets it), so that
/// after a suspend/resume the overdue poll runs at once, and a wall-clock jump neither triggers nor delays a
/// poll. The daemon's timers only wake it up; this decides whether a wake-up is a poll.
public struct PollSchedule: Equatable, Sendable {
    /// Seconds between polls.
    public var interval: Double
    /// Each interval is stretched by up to this fraction, so that many users' daemons do not poll in step.
    public var jitterFraction: Double
    /// Boot-time seconds at which the next poll is due; `nil` means now (the first poll runs at start).
    public private(set) var dueAt: Double?

    public init(interval: Double, jitterFraction: Double = 0.05) {
        self.interval = interval
        self.jitterFraction = jitterFraction
    }

    /// A wake-up earlier than the due time by no more than this still polls (timers have leeway).
    public static let tolerance = 1.0

    public func isDue(at now: Double) -> Bool {
        guard let dueAt else { return true }
        return now >= dueAt - Self.tolerance
    }

    /// Seconds from `now` until the poll is due (0 when overdue).
    public func delay(at now: Double) -> Double {
        guard let dueAt else { return 0 }
        return max(0, dueAt - now)
    }

    /// Records that a poll started at `now`; `random` in 0..<1 picks the jitter.
    public mutating func pollStarted(at now: Double, random: Double) {
        dueAt = now + interval * (1 + jitterFraction * random)
    }

    /// Makes the next poll due now (SIGUSR1).
    public mutating func pollNow() { dueAt = nil }
}
