#if canImport(Glibc)
import Glibc
#endif

/// The simulator's clock: system time plus `--clock-offset`, printed as Compass does (`yyyy-MM-dd HH:mm:ss`, UTC).
public struct SimClock: Sendable {
    public let offset: Int

    public init(offset: Int = 0) { self.offset = offset }

    public var now: Int { Int(time(nil)) + offset }

    public static func format(_ seconds: Int) -> String {
        var value = time_t(seconds)
        var parts = tm()
        gmtime_r(&value, &parts)
        func pad(_ number: Int32, _ width: Int) -> String {
            let text = String(number)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2)) "
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
    }
}
