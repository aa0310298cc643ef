/// The `Retry-After` header (RFC 9110 §10.2.3): either delay-seconds or an HTTP-date. Both come from the
/// server and are bounded here, before anything converts them: a hostile `9223372036854775807` or a date in
/// the year 999999999999 once overflowed an `Int` and crashed `check` and `run`.
public enum RetryAfter {
    /// The longest wait a server can ask for: a day. The poll schedule caps it further.
    public static let longest: Double = 86_400

    /// Seconds to wait from `now` (local seconds since 1970), at most `longest`, or `nil` when absent or
    /// unreadable. A date in the past means "now" (0): the server's clock may differ from ours.
    public static func seconds(_ header: String?, now: Double) -> Double? {
        guard let header, header.utf8.count <= 64 else { return nil }
        let trimmed = header.split(separator: " ").joined(separator: " ")
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Digits only: any count of them is a valid (if absurd) delay; more than a day is a day.
            let significant = trimmed.drop { $0 == "0" }
            guard significant.count <= 6, let seconds = Double(significant.isEmpty ? "0" : String(significant)) else {
                return longest
            }
            return min(seconds, longest)
        }
        guard let date = httpDate(trimmed), now.isFinite else { return nil }
        return min(max(0, date - now), longest)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`, as seconds since 1970; also the older
    /// `06-Nov-1994` form of cookies' `Expires`. Years outside 1970…9999 are refused (`nil`).
    public static func httpDate(_ text: String) -> Double? {
        guard text.utf8.count <= 64 else { return nil }
        var parts = text.split(separator: " ")
        if parts.count == 4, parts[1].split(separator: "-").count == 3 {
            // `Sun, 06-Nov-1994 08:49:37 GMT`
            parts = [parts[0]] + parts[1].split(separator: "-") + parts[2...]
        }
        guard parts.count == 6, parts[5] == "GMT", parts[1].count <= 2, let day = Int(parts[1]),
            let month = months.firstIndex(of: String(parts[2])), parts[3].count == 4, let year = Int(parts[3]),
            (1970...9999).contains(year)
        else { return nil }
        let time = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard time.count == 3, time.allSatisfy({ $0.count == 2 }) else { return nil }
        let clock = time.compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), (0...23).contains(clock[0]), (0...59).contains(clock[1]),
            (0...60).contains(clock[2])
        else { return nil }
        let days = daysFromCivil(year: year, month: month + 1, day: day)
        return Double(days * 86_400 + clock[0] * 3_600 + clock[1] * 60 + clock[2])
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm); the year is within
    /// 1970…9999, so nothing here can overflow.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
