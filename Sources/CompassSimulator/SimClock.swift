#if canImport(Glibc)
import Glibc
#endif

/// The simulator's clock: system time plus an offset (`--clock-offset`, moved by `POST /ccmweb/sim/clock`), printed
/// as Compass does (`yyyy-MM-dd HH:mm:ss`, UTC).
public struct SimClock: Sendable {
    public var offset: Int
    /// The reading the clock stopped at while it is held (`{"hold": 1}`): every history entry written meanwhile
    /// carries the same second, as a script's quick Modify + Modify does.
    public var heldAt: Int?

    public init(offset: Int = 0) { self.offset = offset }

    public var now: Int { heldAt ?? Int(time(nil)) + offset }

    /// Moves the clock by `seconds`, held or not.
    public mutating func advance(_ seconds: Int) {
        offset += seconds
        heldAt = heldAt.map { $0 + seconds }
    }

    /// Stops the clock at its current reading (`true`), or lets it run on from there (`false`).
    public mutating func hold(_ held: Bool) {
        if held, heldAt == nil { heldAt = now }
        if !held, let reading = heldAt {
            offset = reading - Int(time(nil))
            heldAt = nil
        }
    }

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

    /// The HTTP `Date` form (IMF-fixdate), e.g. `Tue, 24 Nov 2026 02:40:00 GMT`.
    public static func httpDate(_ seconds: Int) -> String {
        var value = time_t(seconds)
        var parts = tm()
        gmtime_r(&value, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let day = parts.tm_mday < 10 ? "0\(parts.tm_mday)" : "\(parts.tm_mday)"
        let time = format(seconds).split(separator: " ")[1]
        return "\(days[Int(parts.tm_wday)]), \(day) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(time) GMT"
    }

    /// `yyyy-MM-dd HH:mm:ss` as seconds on the zone-less scale, or `nil`.
    public static func parse(_ text: String) -> Int? {
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
}
