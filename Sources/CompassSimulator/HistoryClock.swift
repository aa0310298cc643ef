#if canImport(Glibc)
import Glibc
#endif

/// A time zone for the simulated database server: a fixed offset (`UTC`, `+09:30`, `-07:00`) or a POSIX TZ rule
/// with daylight saving time (`MST7MDT,M3.2.0,M11.1.0`: UTC−7, UTC−6 from the second Sunday of March 02:00 to the
/// first Sunday of November 02:00). Its own small implementation, so that it needs no time zone database.
public struct SimZone: Sendable, Equatable {
    /// Seconds east of UTC outside daylight saving time.
    let standard: Int
    /// Seconds east of UTC during daylight saving time, with the rules for its start and end.
    let daylight: (offset: Int, start: Rule, end: Rule)?

    struct Rule: Sendable, Equatable {
        let month: Int, week: Int, weekday: Int
        /// Seconds after local midnight.
        let time: Int
    }

    public static let utc = SimZone(standard: 0, daylight: nil)

    init(standard: Int, daylight: (offset: Int, start: Rule, end: Rule)?) {
        self.standard = standard
        self.daylight = daylight
    }

    public static func == (lhs: SimZone, rhs: SimZone) -> Bool {
        lhs.standard == rhs.standard && lhs.daylight?.offset == rhs.daylight?.offset
            && lhs.daylight?.start == rhs.daylight?.start && lhs.daylight?.end == rhs.daylight?.end
    }

    /// `UTC`, `±HH:MM`, or a POSIX TZ string with alphabetic zone names and `Mm.w.d[/time]` rules.
    public init?(_ text: String) {
        if text.uppercased() == "UTC" || text == "Z" {
            self = .utc
            return
        }
        if let first = text.first, first == "+" || first == "-" {
            guard let offset = Self.clock(String(text.dropFirst())) else { return nil }
            self.init(standard: first == "-" ? -offset : offset, daylight: nil)
            return
        }
        var rest = Substring(text)
        func name() -> Bool {
            let letters = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(letters.count)
            return letters.count >= 3
        }
        func offset() -> Int? {
            let sign = rest.first == "-" ? -1 : 1
            if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
            let part = rest.prefix { $0.isNumber || $0 == ":" }
            rest = rest.dropFirst(part.count)
            return Self.clock(String(part)).map { -sign * $0 }  // POSIX offsets count west
        }
        guard name(), let standard = offset() else { return nil }
        if rest.isEmpty {
            self.init(standard: standard, daylight: nil)
            return
        }
        guard name() else { return nil }
        var daylightOffset = standard + 3_600
        if rest.first != ",", let explicit = offset() { daylightOffset = explicit }
        let rules = rest.split(separator: ",").map(String.init)
        guard rules.count == 2, let start = Self.rule(rules[0]), let end = Self.rule(rules[1]) else { return nil }
        self.init(standard: standard, daylight: (daylightOffset, start, end))
    }

    /// `H`, `HH:MM` or `HH:MM:SS` as seconds.
    private static func clock(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 }), parts[0]! <= 24 else { return nil }
        return parts.enumerated().reduce(0) { $0 + $1.element! * [3_600, 60, 1][$1.offset] }
    }

    /// `Mm.w.d[/time]`.
    private static func rule(_ text: String) -> Rule? {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts[0].hasPrefix("M") else { return nil }
        let numbers = parts[0].dropFirst().split(separator: ".").compactMap { Int($0) }
        guard numbers.count == 3, (1...12).contains(numbers[0]), (1...5).contains(numbers[1]), (0...6).contains(numbers[2])
        else { return nil }
        let time = parts.count > 1 ? clock(parts[1]) : 7_200
        guard let time else { return nil }
        return Rule(month: numbers[0], week: numbers[1], weekday: numbers[2], time: time)
    }

    /// Seconds east of UTC at the instant `utc`.
    public func offset(at utc: Int) -> Int {
        guard let daylight else { return standard }
        let year = Self.components(utc + standard).year
        // The start is given in standard time, the end in daylight time.
        let start = daylight.start.wall(year: year) - standard
        let end = daylight.end.wall(year: year) - daylight.offset
        let inDaylight = start < end ? (utc >= start && utc < end) : (utc >= start || utc < end)
        return inDaylight ? daylight.offset : standard
    }

    /// The local wall-clock reading of the instant `utc`, as seconds on a zone-less scale.
    public func wall(_ utc: Int) -> Int { utc + offset(at: utc) }

    /// The instant whose wall-clock reading is `wall`. A reading that happens twice (autumn) is taken as the first;
    /// one that never happens (spring) as if the clock had not moved yet.
    public func instant(ofWall wall: Int) -> Int {
        let offsets = [daylight?.offset, standard].compactMap { $0 }
        let matches = offsets.map { wall - $0 }.filter { self.wall($0) == wall }
        return matches.min() ?? wall - standard
    }

    static func components(_ seconds: Int) -> (year: Int, month: Int, day: Int, weekday: Int) {
        var value = time_t(seconds)
        var parts = tm()
        gmtime_r(&value, &parts)
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_wday))
    }

    static func seconds(year: Int, month: Int, day: Int) -> Int {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        return Int(timegm(&parts))
    }
}

extension SimZone.Rule {
    /// The rule's moment in `year`, as a wall-clock reading (seconds on the zone-less scale).
    func wall(year: Int) -> Int {
        let first = SimZone.seconds(year: year, month: month, day: 1)
        let firstWeekday = SimZone.components(first).weekday
        var day = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
        let nextMonth = month == 12 ? SimZone.seconds(year: year + 1, month: 1, day: 1) : SimZone.seconds(year: year, month: month + 1, day: 1)
        let daysInMonth = (nextMonth - first) / 86_400
        while day > daysInMonth { day -= 7 }  // week 5: the last such weekday
        return first + (day - 1) * 86_400 + time
    }
}

/// How the simulated server keeps and prints history timestamps, and how it reads a filter on them. The
/// variants a real server may plausibly have (shared/compass-api.md §7.1 items 16 and 17).
public struct HistoryClock: Sendable {
    /// In which zone `history.action_timestamp` is stored and returned.
    public enum Storage: String, Sendable, CaseIterable {
        /// The database server's local time (older databases).
        case local
        /// UTC (`installutil setutchistorytimestamps`).
        case utc
    }

    /// In which zone a filter value on the timestamp is read.
    public enum FilterTime: String, Sendable, CaseIterable {
        /// The zone it is stored in: a plain comparison of wall-clock strings.
        case asStored = "as-stored"
        case local
        case utc
    }

    /// How a returned timestamp is printed.
    public enum Format: String, Sendable, CaseIterable {
        case sql, sqlFraction = "sql-fraction", iso, isoZ = "iso-z", isoOffset = "iso-offset",
            isoFractionOffset = "iso-fraction-offset", us
    }

    public var zone: SimZone = .utc
    public var storage: Storage = .utc
    public var filterTime: FilterTime = .asStored
    /// `--ignore-history-filter`: a filter on `history.action_timestamp` matches every entry, as a server that
    /// ignores it answers (the whole history, however old).
    public var ignoresFilter = false
    public var format: Format = .sql

    public init() {}

    private var storageZone: SimZone { storage == .utc ? .utc : zone }

    private var filterZone: SimZone {
        switch filterTime {
        case .asStored: return storageZone
        case .local: return zone
        case .utc: return .utc
        }
    }

    /// The stored value, `yyyy-MM-dd HH:mm:ss` in the storage zone: what filters and sorting compare, as a
    /// database compares a DATETIME column without a zone.
    func stored(_ instant: Int) -> String { SimClock.format(storageZone.wall(instant)) }

    /// The value as the server prints it in a result row.
    func printed(_ instant: Int) -> String {
        let wall = storageZone.wall(instant)
        let sql = SimClock.format(wall)
        let iso = sql.replacing(" ", with: "T")
        let offset = storageZone.wall(instant) - instant
        let sign = offset < 0 ? "-" : "+"
        let zoneText = sign + Self.two(abs(offset) / 3_600) + ":" + Self.two(abs(offset) % 3_600 / 60)
        switch format {
        case .sql: return sql
        case .sqlFraction: return sql + ".000"
        case .iso: return iso
        case .isoZ: return iso + "Z"
        case .isoOffset: return iso + zoneText
        case .isoFractionOffset: return iso + ".250" + zoneText
        case .us:
            let parts = SimZone.components(wall)
            let hour = wall / 3_600 % 24
            let rest = sql.dropFirst(13)  // ":mm:ss"
            return "\(Self.two(parts.month))/\(Self.two(parts.day))/\(parts.year) \(Self.two(hour % 12 == 0 ? 12 : hour % 12))\(rest) "
                + (hour < 12 ? "AM" : "PM")
        }
    }

    /// A filter value (`yyyy-MM-dd HH:mm:ss`, read in the filter zone) as the stored value it is compared with.
    func storedValue(ofFilter text: String) -> String {
        guard filterZone != storageZone, let wall = SimClock.parse(text) else { return text }
        return SimClock.format(storageZone.wall(filterZone.instant(ofWall: wall)))
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
