/// How a server printed a timestamp: reported by `trackwatch probe` and logged once per client.
public struct TimestampFormat: Hashable, Sendable, CustomStringConvertible {
    public enum Form: String, Sendable, CaseIterable {
        /// `2024-01-31 10:15:00`, what clients send in filters.
        case sql
        /// `2024-01-31T10:15:00`: ISO 8601 without a zone.
        case iso
        /// `2024-01-31T10:15:00Z` (or `… UTC`).
        case isoUTC = "iso-utc"
        /// `2024-01-31T10:15:00+09:30` (also with a space instead of `T`).
        case isoOffset = "iso-offset"
        /// `01/31/2024 10:15:00 AM` (or 24-hour without AM/PM).
        case us
    }

    public var form: Form
    public var hasFraction: Bool

    public init(_ form: Form, hasFraction: Bool = false) {
        self.form = form
        self.hasFraction = hasFraction
    }

    /// Whether the value says which zone it is in (then trackwatch converts it to UTC).
    public var namesItsZone: Bool { form == .isoUTC || form == .isoOffset }

    public var description: String { form.rawValue + (hasFraction ? " with fractional seconds" : "") }
}

extension Timestamp {
    /// Reads a timestamp in any form a tracker's server plausibly prints — SQL, ISO 8601, US (`TimestampFormat.Form`) —
    /// with up to nine digits of fractional seconds, and returns it in normal form. `nil` for anything else,
    /// including impossible dates and times (`2023-02-29`, hour 25) and years outside 1…9999: every number is
    /// bounded before it is used, so no answer can make the arithmetic trap.
    public static func parse(_ text: String) -> (timestamp: Timestamp, format: TimestampFormat)? {
        // Most timestamps are already in normal form (a server's history rows, our own store): checked, not rebuilt.
        if let normal = normalSQL(text) { return (normal, TimestampFormat(.sql, hasFraction: false)) }
        // A CHAR column or a sloppy formatter may pad with spaces.
        var scanner = TimestampScanner(text, trimmingSpaces: true)
        if scanner.looksLikeUSDate { return parseUS(&scanner) }
        guard let date = scanner.date() else { return nil }
        let isISO = scanner.take("T") || scanner.take("t")
        guard isISO || scanner.take(" "), let time = scanner.time(), let fraction = scanner.fraction(),
            var seconds = seconds(date, time)
        else { return nil }
        var form: TimestampFormat.Form = isISO ? .iso : .sql
        if !scanner.isAtEnd {
            _ = scanner.take(" ")
            guard let offset = scanner.zoneOffset(), scanner.isAtEnd else { return nil }
            seconds -= offset.seconds
            form = offset.isUTCDesignator ? .isoUTC : .isoOffset
            guard secondsRange.contains(seconds) else { return nil }
        }
        let whole = Timestamp(secondsSinceEpoch: seconds).rawValue
        return (Timestamp(fraction.isEmpty ? whole : whole + "." + fraction),
                TimestampFormat(form, hasFraction: scanner.sawFraction))
    }

    /// `text` itself when it is a valid timestamp in normal form, `yyyy-MM-dd HH:mm:ss` (which the general path
    /// would take apart and print again, identical): a fifth of the CPU a history row cost.
    static func normalSQL(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { bytes -> Timestamp? in
            guard bytes.count == 19, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20, bytes[13] == 0x3A,
                bytes[16] == 0x3A
            else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    let digit = Int(bytes[index]) - 0x30
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                TimestampScanner.Date(year: year, month: month, day: day).isValid,
                TimestampScanner.Time(hour: hour, minute: minute, second: second).isValid
            else { return nil }
            return Timestamp(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// `M/d/yyyy h:mm:ss AM` (1 or 2 digits for month, day and hour), or without AM/PM in 24-hour time.
    private static func parseUS(_ scanner: inout TimestampScanner) -> (timestamp: Timestamp, format: TimestampFormat)? {
        guard let month = scanner.digits(1...2), scanner.take("/"), let day = scanner.digits(1...2), scanner.take("/"),
            let year = scanner.digits(4...4), scanner.take(" "), var hour = scanner.digits(1...2), scanner.take(":"),
            let minute = scanner.digits(2...2), scanner.take(":"), let second = scanner.digits(2...2)
        else { return nil }
        if !scanner.isAtEnd {
            guard scanner.take(" "), let isPM = scanner.meridiem(), scanner.isAtEnd, (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (isPM ? 12 : 0)
        }
        let date = TimestampScanner.Date(year: year, month: month, day: day)
        guard let seconds = seconds(date, TimestampScanner.Time(hour: hour, minute: minute, second: second)) else { return nil }
        return (Timestamp(secondsSinceEpoch: seconds), TimestampFormat(.us))
    }
}

/// Reads the parts of a timestamp from its UTF-8 bytes; every number is a bounded count of ASCII digits.
struct TimestampScanner {
    struct Date {
        let year: Int, month: Int, day: Int
        var isValid: Bool {
            (1...9999).contains(year) && (1...12).contains(month)
                && (1...Timestamp.daysIn(month: month, year: year)).contains(day)
        }
    }

    struct Time {
        let hour: Int, minute: Int, second: Int
        var isValid: Bool { (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second) }
    }

    struct Offset {
        let seconds: Int
        let isUTCDesignator: Bool
    }

    private let bytes: [UInt8]
    private var index = 0
    private(set) var sawFraction = false

    init(_ text: String, trimmingSpaces: Bool = false) {
        var bytes = Array(text.utf8)
        if trimmingSpaces {
            while bytes.last == 0x20 { bytes.removeLast() }
            if let first = bytes.firstIndex(where: { $0 != 0x20 }) { bytes.removeFirst(first) } else { bytes = [] }
        }
        self.bytes = bytes
    }

    var isAtEnd: Bool { index == bytes.count }

    /// A slash among the first three bytes: `1/5/2024` or `01/31/2024`.
    var looksLikeUSDate: Bool { bytes.prefix(3).contains(UInt8(ascii: "/")) }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// Between `count.lowerBound` and `count.upperBound` digits, as many as there are.
    mutating func digits(_ count: ClosedRange<Int>) -> Int? {
        var value = 0, read = 0
        while read < count.upperBound, index < bytes.count, (0x30...0x39).contains(bytes[index]) {
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
            read += 1
        }
        return read >= count.lowerBound ? value : nil
    }

    /// `yyyy-MM-dd`.
    mutating func date() -> Date? {
        guard let year = digits(4...4), take("-"), let month = digits(2...2), take("-"), let day = digits(2...2) else {
            return nil
        }
        return Date(year: year, month: month, day: day)
    }

    /// `HH:mm:ss`.
    mutating func time() -> Time? {
        guard let hour = digits(2...2), take(":"), let minute = digits(2...2), take(":"), let second = digits(2...2) else {
            return nil
        }
        return Time(hour: hour, minute: minute, second: second)
    }

    /// `.d…` with one to nine digits, returned without trailing zeros; `""` when there is no fraction, `nil` when
    /// it is malformed.
    mutating func fraction() -> String? {
        guard take(".") || take(",") else { return "" }
        let start = index
        while index < bytes.count, index - start < 10, (0x30...0x39).contains(bytes[index]) { index += 1 }
        guard (1...9).contains(index - start) else { return nil }
        sawFraction = true
        var digits = bytes[start..<index]
        while digits.last == 0x30 { digits.removeLast() }
        return String(decoding: digits, as: UTF8.self)
    }

    /// `Z`, `UTC`, `GMT`, or `±HH`, `±HHMM`, `±HH:MM` up to 18 hours.
    mutating func zoneOffset() -> Offset? {
        if take("Z") || take("z") { return Offset(seconds: 0, isUTCDesignator: true) }
        if word("UTC") || word("GMT") { return Offset(seconds: 0, isUTCDesignator: true) }
        let sign: Int
        if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
        guard let hours = digits(2...2), hours <= 18 else { return nil }
        var minutes = 0
        if !isAtEnd {
            _ = take(":")
            guard let value = digits(2...2), value < 60 else { return nil }
            minutes = value
        }
        return Offset(seconds: sign * (hours * 3_600 + minutes * 60), isUTCDesignator: false)
    }

    /// `AM`/`PM` in any case: true for PM.
    mutating func meridiem() -> Bool? {
        if word("AM") { return false }
        if word("PM") { return true }
        return nil
    }

    private mutating func word(_ word: String) -> Bool {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count,
            zip(bytes[index..<(index + expected.count)], expected).allSatisfy({ $0 | 0x20 == $1 | 0x20 })
        else { return false }
        index += expected.count
        return true
    }
}
