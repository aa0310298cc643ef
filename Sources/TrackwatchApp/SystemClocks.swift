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
}
