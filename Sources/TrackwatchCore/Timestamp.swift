/// A date and time from a tracker in trackwatch's one normal form, `yyyy-MM-dd HH:mm:ss` with an optional fraction
/// of a second (`.5`, `.123`; trailing zeros dropped).
///
/// Servers print history timestamps in several forms (`Timestamp.parse`); whatever the form, the same
/// moment becomes the same value, so that keys, checkpoints and de-duplication do not depend on it. A value that
/// names its zone (`Z`, `+09:30`) is converted to UTC; one that does not is kept in the server's own (unknown)
/// zone, which is why trackwatch never mixes these values with the local clock. The fixed-width form orders
/// correctly as a string; arithmetic goes through seconds since an arbitrary epoch, treating the value as
/// zone-less.
public struct Timestamp: TrackerString {
    public let rawValue: String

    /// A value already in normal form (stored state, tests); server text goes through `parse`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The earliest and latest values: every parsed or computed timestamp lies within.
    static let secondsRange = Self.seconds(year: 1, month: 1, day: 1)...Self.seconds(year: 9999, month: 12, day: 31, 23, 59, 59)

    /// Whole seconds since 1970-01-01 00:00:00 in the value's own zone (the fraction dropped), or `nil` if the
    /// text is not in normal form.
    public var secondsSinceEpoch: Int? {
        var scanner = TimestampScanner(rawValue)
        guard let date = scanner.date(), scanner.take(" "), let time = scanner.time(), scanner.fraction() != nil,
            scanner.isAtEnd, let seconds = Self.seconds(date, time)
        else { return nil }
        return seconds
    }

    /// A whole-second value; outside years 1…9999 it is clamped to the nearest end.
    public init(secondsSinceEpoch seconds: Int) {
        let seconds = min(max(seconds, Self.secondsRange.lowerBound), Self.secondsRange.upperBound)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let (year, month, day) = Self.civilFromDays(days)
        rawValue = "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2)) "
            + "\(Self.pad(rest / 3_600, 2)):\(Self.pad(rest % 3_600 / 60, 2)):\(Self.pad(rest % 60, 2))"
    }

    /// This timestamp moved by `seconds` (negative = earlier), in whole seconds; `nil` if the text is not a
    /// timestamp. Clamped to years 1…9999.
    public func adding(seconds: Int) -> Timestamp? {
        let bound = 10_000 * 366 * 86_400  // more than the whole range: the sum cannot overflow
        guard let base = secondsSinceEpoch, seconds > -bound, seconds < bound else { return nil }
        return Timestamp(secondsSinceEpoch: base + seconds)
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    static func seconds(year: Int, month: Int, day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Int {
        daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    static func seconds(_ date: TimestampScanner.Date, _ time: TimestampScanner.Time) -> Int? {
        guard date.isValid, time.isValid else { return nil }
        return seconds(year: date.year, month: date.month, day: date.day, time.hour, time.minute, time.second)
    }

    static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's civil-calendar algorithms: exact for the proleptic Gregorian calendar.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
