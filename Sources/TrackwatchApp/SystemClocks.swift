#if canImport(Glibc)
import Glibc
#endif

/// The clocks the daemon reads. Boot time counts suspended time and is never set by anyone, so it decides
/// when polls are due; the wall clock is only for people (status lines, logs).
public enum SystemClocks {
    public static func bootTime() -> Double { read(CLOCK_BOOTTIME) }
    public static func wallTime() -> Double { read(CLOCK_REALTIME) }

    private static func read(_ clock: clockid_t) -> Double {
        var now = timespec()
        clock_gettime(clock, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// `10:05` in local time, for status lines.
    public static func clockTime(_ wall: Double) -> String {
        var seconds = time_t(wall)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func pad(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(pad(parts.tm_hour)):\(pad(parts.tm_min))"
    }

    /// `2026-11-22 10:05` in local time, for `trackwatch log`.
    public static func localDateTime(_ wall: Double) -> String {
        var seconds = time_t(wall)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func pad(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday)) \(pad(parts.tm_hour)):\(pad(parts.tm_min))"
    }

    /// Minutes after local midnight at `wall` (seconds since 1970), for quiet hours.
    public static func localMinuteOfDay(_ wall: Double) -> Int {
        var seconds = time_t(wall)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return Int(parts.tm_hour) * 60 + Int(parts.tm_min)
    }

    /// Seconds into the current local minute at `wall`. Not `wall % 60`: a zone's offset need not be whole
    /// minutes (POSIX `TZ` allows seconds), and then local minutes do not start with UTC ones.
    public static func localSecondOfMinute(_ wall: Double) -> Double {
        var seconds = time_t(wall)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return Double(parts.tm_sec) + (wall - wall.rounded(.down))
    }
}
