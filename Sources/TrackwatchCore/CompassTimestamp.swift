/// A Compass DATE_TIME value, `yyyy-MM-dd HH:mm:ss`, in the server's clock and zone.
///
/// Kept as the server's string: the zone is undocumented, so trackwatch never mixes these values with the
/// local clock. Fixed-width values order correctly as strings; arithmetic goes through seconds since an
/// arbitrary epoch, treating the value as zone-less.
public struct CompassTimestamp: CompassString {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Seconds since 1970-01-01 00:00:00 in the value's own zone, or `nil` if the text is not a timestamp.
    public var secondsSinceEpoch: Int? {
        let bytes = Array(rawValue.utf8)
        guard bytes.count == 19, bytes[4] == 45, bytes[7] == 45, bytes[10] == 32, bytes[13] == 58, bytes[16] == 58
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        return Self.daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    public init(secondsSinceEpoch seconds: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let (year, month, day) = Self.civilFromDays(days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        rawValue = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) "
            + "\(pad(rest / 3_600, 2)):\(pad(rest % 3_600 / 60, 2)):\(pad(rest % 60, 2))"
    }

    /// This timestamp moved by `seconds` (negative = earlier); `nil` if the text is not a timestamp.
    public func adding(seconds: Int) -> CompassTimestamp? {
        secondsSinceEpoch.map { CompassTimestamp(secondsSinceEpoch: $0 + seconds) }
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
