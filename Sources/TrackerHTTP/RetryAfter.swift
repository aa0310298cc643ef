import Glibc

/// The `Retry-After` header (RFC 9110 §10.2.3): either delay-seconds or an HTTP-date. Both come from the
/// server and are bounded here, before anything converts them: a hostile `9223372036854775807` or a date in
/// the year 999999999999 once overflowed an `Int` and crashed `check` and `run`.
public enum RetryAfter {
    /// The longest wait a server can ask for: a day. The poll schedule caps it further.
    public static let longest: Double = 86_400

    /// Seconds to wait that `response` asks for, at most `longest`, or `nil` when it asks for nothing readable.
    /// An HTTP-date is counted from the answer's own `Date` when it has a readable one (both are the server's
    /// clock, so neither clock's skew matters), else from `now`.
    public static func seconds(in response: HTTPResponse, now: Double = RetryAfter.wallClock()) -> Double? {
        seconds(response.header("Retry-After"), serverDate: response.header("Date"), now: now)
    }

    /// `Retry-After` counted from the server's `Date` header when readable, else from `now` (`seconds(_:now:)`).
    public static func seconds(_ header: String?, serverDate: String?, now: Double) -> Double? {
        seconds(header, now: serverDate.flatMap { httpDate($0) } ?? now)
    }

    /// Seconds to wait from `now` (local seconds since 1970), at most `longest`, or `nil` when absent or
    /// unreadable. A date in the past means "now" (0): the server's clock may differ from ours.
    ///
    /// A `now` of 0 or less is no reading of a clock: callers that had none passed 0, and a date 30 s ahead then
    /// read as a day. The wall clock is read instead.
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
        let now = now > 0 ? now : wallClock()
        guard now.isFinite, let date = httpDate(trimmed, now: now) else { return nil }
        return min(max(0, date - now), longest)
    }

    /// The wall clock, seconds since 1970 (UTC).
    public static func wallClock() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// An HTTP-date as seconds since 1970 (`httpDate(_:now:)`), a two-digit year read against the wall clock.
    public static func httpDate(_ text: String) -> Double? { httpDate(text, now: wallClock()) }

    /// An HTTP-date as seconds since 1970, in any of the three forms RFC 9110 §5.6.7 has recipients accept:
    /// IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`; the obsolete RFC 850 form `Sunday, 06-Nov-94 08:49:37 GMT`
    /// (also with a four-digit year, as cookies' `Expires` has it); and asctime's `Sun Nov  6 08:49:37 1994`.
    /// A two-digit year more than 50 years after `now` is the most recent past year with those digits. Years
    /// outside 1970…9999 are refused (`nil`).
    public static func httpDate(_ text: String, now: Double) -> Double? {
        guard text.utf8.count <= 64 else { return nil }
        let parts = text.split(separator: " ")
        let date: (day: Substring, month: Substring, year: Substring, time: Substring)
        switch parts.count {
        case 6 where parts[5] == "GMT": date = (parts[1], parts[2], parts[3], parts[4])  // IMF-fixdate
        case 4 where parts[3] == "GMT":  // RFC 850: `06-Nov-94`
            let dayMonthYear = parts[1].split(separator: "-", omittingEmptySubsequences: false)
            guard dayMonthYear.count == 3 else { return nil }
            date = (dayMonthYear[0], dayMonthYear[1], dayMonthYear[2], parts[2])
        case 5: date = (parts[2], parts[1], parts[4], parts[3])  // asctime
        default: return nil
        }
        guard date.day.count <= 2, let day = Int(date.day), (1...31).contains(day),
            let month = months.firstIndex(of: String(date.month)),
            let year = fullYear(date.year, now: now), (1970...9999).contains(year),
            let clock = secondsIntoDay(date.time)
        else { return nil }
        let days = daysFromCivil(year: year, month: month + 1, day: day)
        return Double(days * 86_400 + clock)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// A four-digit year, or a two-digit one placed within 50 years after `now` (RFC 9110 §5.6.7).
    private static func fullYear(_ text: Substring, now: Double) -> Int? {
        guard text.count == 4 || text.count == 2, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let digits = Int(text)
        else { return nil }
        guard text.count == 2 else { return digits }
        let thisYear = now.isFinite && now > 0 && now < 253_402_300_800 ? 1970 + Int(now / 31_556_952) : 2000
        let century = thisYear - thisYear % 100
        let year = century + digits
        return year > thisYear + 50 ? year - 100 : year
    }

    /// `hh:mm:ss` as seconds into the day.
    private static func secondsIntoDay(_ text: Substring) -> Int? {
        let time = text.split(separator: ":", omittingEmptySubsequences: false)
        guard time.count == 3, time.allSatisfy({ $0.count == 2 }) else { return nil }
        let clock = time.compactMap { Int($0) }
        guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        return clock[0] * 3_600 + clock[1] * 60 + clock[2]
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
