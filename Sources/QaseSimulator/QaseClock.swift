#if canImport(Glibc)
    import Glibc
#endif

/// The server's clock: system time plus an offset that `--clock-offset` sets and `POST /sim/clock` moves, so
/// that tests reach "a day later" without waiting. Seconds since 1970, UTC.
public struct QaseClock: Sendable {
    public var offset: Int

    public init(offset: Int = 0) { self.offset = offset }

    public var now: Int { Int(time(nil)) + offset }

    public mutating func advance(_ seconds: Int) { offset += seconds }

    /// `2026-08-01T09:10:11+00:00`, the documented form of `created_at`, `updated_at` and the like.
    public static func iso(_ seconds: Int) -> String {
        let (date, time) = parts(seconds)
        return "\(date)T\(time)+00:00"
    }

    /// `2026-08-01 09:10:11`, the deprecated zone-less `created`/`updated` of defects and plans.
    public static func zoneless(_ seconds: Int) -> String {
        let (date, time) = parts(seconds)
        return "\(date) \(time)"
    }

    /// `2026-08-01T09:10:11.000000Z`, the deprecated `created`/`updated` of a test case as the spec shows it.
    public static func microsecondsZ(_ seconds: Int) -> String {
        let (date, time) = parts(seconds)
        return "\(date)T\(time).000000Z"
    }

    /// The HTTP `Date` form (IMF-fixdate).
    public static func httpDate(_ seconds: Int) -> String {
        var value = time_t(seconds)
        var fields = tm()
        gmtime_r(&value, &fields)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(days[Int(fields.tm_wday)]), \(pad(fields.tm_mday, 2)) \(months[Int(fields.tm_mon)]) "
            + "\(fields.tm_year + 1900) \(parts(seconds).time) GMT"
    }

    /// `Y-m-d H:i:s` (UTC) as seconds, or nil: the form of the result filters `from_end_time`/`to_end_time`.
    public static func parseZoneless(_ text: String) -> Int? {
        let numbers = text.split { $0 == "-" || $0 == " " || $0 == ":" }.map { Int($0) }
        guard text.utf8.count == 19, numbers.count == 6, numbers.allSatisfy({ $0 != nil }) else { return nil }
        var fields = tm()
        fields.tm_year = Int32(numbers[0]! - 1900)
        fields.tm_mon = Int32(numbers[1]! - 1)
        fields.tm_mday = Int32(numbers[2]!)
        fields.tm_hour = Int32(numbers[3]!)
        fields.tm_min = Int32(numbers[4]!)
        fields.tm_sec = Int32(numbers[5]!)
        return Int(timegm(&fields))
    }

    private static func parts(_ seconds: Int) -> (date: String, time: String) {
        var value = time_t(seconds)
        var fields = tm()
        gmtime_r(&value, &fields)
        let date = "\(pad(fields.tm_year + 1900, 4))-\(pad(fields.tm_mon + 1, 2))-\(pad(fields.tm_mday, 2))"
        return (date, "\(pad(fields.tm_hour, 2)):\(pad(fields.tm_min, 2)):\(pad(fields.tm_sec, 2))")
    }

    private static func pad(_ number: Int32, _ width: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
