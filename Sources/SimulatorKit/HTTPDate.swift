#if canImport(Glibc)
    import Glibc
#endif

/// HTTP dates (RFC 9110 §5.6.7, the IMF-fixdate form: `Sun, 06 Nov 1994 08:49:37 GMT`) as seconds since 1970.
public enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    public static func format(_ seconds: Int) -> String {
        let parts = brokenDown(seconds)
        let clock = [parts.tm_hour, parts.tm_min, parts.tm_sec].map(twoDigits).joined(separator: ":")
        return "\(days[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(clock) GMT"
    }

    /// `yyyy-MM-ddTHH:mm:ssZ`, the form JSON APIs use for their timestamps.
    public static func iso8601(_ seconds: Int) -> String {
        let parts = brokenDown(seconds)
        let date = "\(parts.tm_year + 1900)-\(twoDigits(parts.tm_mon + 1))-\(twoDigits(parts.tm_mday))"
        return date + "T" + [parts.tm_hour, parts.tm_min, parts.tm_sec].map(twoDigits).joined(separator: ":") + "Z"
    }

    /// The seconds of an IMF-fixdate, or nil for anything else (which a server then ignores, as RFC 9110 says).
    public static func parse(_ text: String) -> Int? {
        let words = text.split(separator: " ")
        guard words.count == 6, words[0].hasSuffix(","), words[5] == "GMT",
            let day = Int(words[1]), let month = months.firstIndex(of: String(words[2])), let year = Int(words[3])
        else { return nil }
        let clock = words[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(clock[0])
        parts.tm_min = Int32(clock[1])
        parts.tm_sec = Int32(clock[2])
        return Int(timegm(&parts))
    }

    /// `yyyy-MM-dd HH:mm:ss` in UTC: what Compass prints, and Qase's deprecated zone-less dates.
    public static func zoneless(_ seconds: Int) -> String {
        let parts = brokenDown(seconds)
        let year = String(parts.tm_year + 1900)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year
            + "-\(twoDigits(parts.tm_mon + 1))-\(twoDigits(parts.tm_mday)) "
            + [parts.tm_hour, parts.tm_min, parts.tm_sec].map(twoDigits).joined(separator: ":")
    }

    /// The seconds of `yyyy-MM-dd HH:mm:ss` read as UTC, or nil for anything else.
    public static func parseZoneless(_ text: String) -> Int? {
        let numbers = text.split { $0 == "-" || $0 == " " || $0 == ":" }.map { Int($0) }
        guard text.utf8.count == 19, numbers.count == 6, numbers.allSatisfy({ $0 != nil }) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(numbers[0]! - 1900)
        parts.tm_mon = Int32(numbers[1]! - 1)
        parts.tm_mday = Int32(numbers[2]!)
        parts.tm_hour = Int32(numbers[3]!)
        parts.tm_min = Int32(numbers[4]!)
        parts.tm_sec = Int32(numbers[5]!)
        return Int(timegm(&parts))
    }

    private static func brokenDown(_ seconds: Int) -> tm {
        var value = time_t(seconds)
        var parts = tm()
        gmtime_r(&value, &parts)
        return parts
    }

    private static func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
