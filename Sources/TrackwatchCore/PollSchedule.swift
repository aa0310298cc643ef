/// When one source's next poll is due.
///
/// Due times are kept on the boot-time clock (it counts time spent suspended, and nobody sets it), so that
/// after a suspend/resume the overdue poll runs at once, and a wall-clock jump neither triggers nor delays a
/// poll. The daemon's timers only wake it up; this decides whether a wake-up is a poll.
///
/// A failed poll is retried before the next regular one, after a delay that doubles from `firstRetry` and is
/// capped at the interval (so a long outage settles into the normal rhythm instead of hammering the
/// server); a server's `Retry-After` lengthens a delay but never shortens it. A server that asks to be polled
/// less often (`serverInterval`: GitHub's `X-Poll-Interval`) is polled no sooner than it asked — for the next poll
/// only, and at most `longestServerInterval` later: one answer never silences a source. Each source has its own
/// schedule (`SourceSchedules`), so what one server asks for never delays another.
public struct PollSchedule: Equatable, Sendable {
    /// Why the next poll is due when it is: what `status` says beside the time.
    public enum Standing: Equatable, Sendable {
        /// The interval after the last poll.
        case regular
        /// A retry after this many failed polls in a row.
        case retrying(failures: Int)
        /// The server asked not to be asked sooner (`Retry-After`, or the interval it polls at), in seconds.
        case serverAsked(seconds: Double)

        /// Said after the next poll's time: `retry 2`, `the server asked for 600 s`; nothing for a regular poll.
        public var note: String? {
            switch self {
            case .regular: nil
            case .retrying(let failures): "retry \(failures)"
            case .serverAsked(let seconds): "the server asked for \(Int(seconds.rounded(.up))) s"
            }
        }
    }

    /// Seconds between polls.
    public var interval: Double
    /// Each interval is stretched by up to this fraction, so that many users' daemons do not poll in step.
    public var jitterFraction: Double
    /// Seconds before the first retry after a failure.
    public var firstRetry: Double
    /// Boot-time seconds at which the next poll is due; `nil` means now (the first poll runs at start).
    public private(set) var dueAt: Double?
    /// Failed polls since the last success.
    public private(set) var failures = 0
    public private(set) var standing = Standing.regular
    /// Boot-time seconds at which the last poll started.
    private var startedAt: Double?

    public init(interval: Double, jitterFraction: Double = 0.05, firstRetry: Double = 30) {
        self.interval = interval
        self.jitterFraction = jitterFraction
        self.firstRetry = firstRetry
    }

    /// A wake-up earlier than the due time by no more than this still polls (timers have leeway).
    public static let tolerance = 1.0
    /// The longest `Retry-After` honoured; a server asking for more is asked again after this.
    public static let longestRetryAfter = 3_600.0
    /// The longest server interval (`X-Poll-Interval`) honoured for one poll. A server may ask for more on every
    /// answer; a single answer holds the source at most this long (it was an hour: one answer of 3600 and the
    /// source went quiet for an hour, whatever later answers said).
    public static let longestServerInterval = 900.0

    public func isDue(at now: Double) -> Bool {
        guard let dueAt else { return true }
        return now >= dueAt - Self.tolerance
    }

    /// Seconds from `now` until the poll is due (0 when overdue).
    public func delay(at now: Double) -> Double {
        guard let dueAt else { return 0 }
        return max(0, dueAt - now)
    }

    /// Records that a poll started at `now`; `random` in 0..<1 picks the jitter. Until the poll is known to
    /// have failed, the next one is due a full interval later.
    public mutating func pollStarted(at now: Double, random: Double) {
        startedAt = now
        dueAt = now + interval * (1 + jitterFraction * random)
        standing = .regular
    }

    /// A poll succeeded: back to the regular interval, or to `serverInterval` seconds after the poll started when
    /// the server asked for longer (bounded by `longestServerInterval`). It moves only the poll after this one: the
    /// next `pollStarted` is back on the interval unless that poll's answers ask again.
    public mutating func pollSucceeded(serverInterval: Double? = nil) {
        failures = 0
        guard let serverInterval, serverInterval > 0, let startedAt else { return }
        let asked = min(serverInterval, Self.longestServerInterval)
        if startedAt + asked > dueAt ?? 0 {
            dueAt = startedAt + asked
            standing = .serverAsked(seconds: asked)
        }
    }

    /// A poll that started at `startedAt` failed at `now`: the next attempt is due after the backoff delay
    /// (or the server's `retryAfter`, if longer), but never later than the regular poll would have been,
    /// unless the server asked for that.
    public mutating func pollFailed(startedAt: Double, at now: Double, retryAfter: Double?, random: Double) {
        failures += 1
        let backoff = min(interval, firstRetry * Double(1 << min(failures - 1, 20))) * (1 + jitterFraction * random)
        var next = min(now + backoff, dueAt ?? (startedAt + interval))
        standing = .retrying(failures: failures)
        if let retryAfter, retryAfter > 0, now + min(retryAfter, Self.longestRetryAfter) > next {
            next = now + min(retryAfter, Self.longestRetryAfter)
            standing = .serverAsked(seconds: min(retryAfter, Self.longestRetryAfter))
        }
        dueAt = next
    }

    /// A poll failed in a way a quick retry would not mend (a rejected login waits for a person; a server too slow
    /// for the deadline would only hold the others again): the next attempt is the regular poll.
    public mutating func pollFailedUntilTheRegularPoll() { failures += 1 }

    /// Makes the next poll due now (SIGUSR1).
    public mutating func pollNow() { dueAt = nil }
}
