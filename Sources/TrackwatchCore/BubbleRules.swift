/// `quiet = "22:00-08:00"`: local wall-clock minutes in which no bubble is shown (the journal still gets
/// every change); one summary bubble follows when they end. A range may wrap past midnight.
public struct QuietHours: Equatable, Sendable, CustomStringConvertible {
    /// Minutes after local midnight.
    public let start: Int
    public let end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// `HH:MM-HH:MM`; `nil` when malformed or empty (start equal to end).
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { $0.split(separator: " ").joined() }
        guard parts.count == 2, let start = Self.minutes(parts[0]), let end = Self.minutes(parts[1]), start != end else {
            return nil
        }
        self.init(start: start, end: end)
    }

    private static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), (0...23).contains(hours), (0...59).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }

    public func contains(minuteOfDay minute: Int) -> Bool {
        start < end ? (start..<end).contains(minute) : (minute >= start || minute < end)
    }

    /// Minutes from `minute` until the quiet hours end (0 when not inside them).
    public func minutesUntilEnd(from minute: Int) -> Int {
        guard contains(minuteOfDay: minute) else { return 0 }
        return (end - minute + 1_440) % 1_440
    }

    public var description: String {
        func format(_ minutes: Int) -> String {
            let hours = minutes / 60, rest = minutes % 60
            return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
        }
        return "\(format(start))-\(format(end))"
    }
}

/// Which changes become bubbles. Every change is journaled whatever these say.
public struct BubbleRules: Equatable, Sendable {
    public var quiet: QuietHours?
    /// Bubbles only for priorities whose leading number is at most this (`min_priority = 2`: 1 and 2).
    public var minPriority: Int?
    /// Likewise for severity; a change passes when its priority *or* its severity is high enough.
    public var minSeverity: Int?
    /// A muted record is heard again when a change touches one of these fields (or it enters or leaves the set);
    /// `nil`: its owner or state, as its source names them (`SourceSettings.ownerAndStateFields`).
    public var unmuteOn: [String]?

    /// What lifts a mute unless `unmute_on` or the source says otherwise.
    public static let ownerAndState = ["Owner", "State"]

    public init(quiet: QuietHours? = nil, minPriority: Int? = nil, minSeverity: Int? = nil,
                unmuteOn: [String]? = nil) {
        self.quiet = quiet
        self.minPriority = minPriority
        self.minSeverity = minSeverity
        self.unmuteOn = unmuteOn
    }

    public enum Verdict: Equatable, Sendable {
        /// Show it now.
        case show
        /// Quiet hours: hold it for the summary bubble when they end.
        case hold
        /// Journal only: muted, or below the priority threshold.
        case journalOnly
    }

    /// The verdict for one change, and whether it lifts the record's mute. `ownerAndState`: the fields of the
    /// change's source that lift a mute when `unmuteOn` is not set.
    public func verdict(
        for change: Change, muted: Bool, minuteOfDay: Int, ownerAndState: [String] = ownerAndState
    ) -> (Verdict, liftsMute: Bool) {
        let liftsMute = muted && lifts(change, lifters: unmuteOn ?? ownerAndState)
        // What a mute must never hide: the record made critical breaks through (the mute stays for the rest).
        let breaksThrough = NotificationPlan.criticalReason(change) != nil
        if muted && !liftsMute && !breaksThrough { return (.journalOnly, false) }
        if !important(change) { return (.journalOnly, liftsMute) }
        if quiet?.contains(minuteOfDay: minuteOfDay) == true { return (.hold, liftsMute) }
        return (.show, liftsMute)
    }

    /// Entering or leaving my records lifts a mute, and so does a change of an `unmute_on` field. A record
    /// entering or leaving a watched query does not: that is the query's view of it, not the record's fate.
    func lifts(_ change: Change, lifters: [String]) -> Bool {
        switch change.kind {
        case .assigned, .unassigned: true
        case .modified, .changed: change.changes.contains { lifters.contains($0.field) }
        case .entered, .left: false
        }
    }

    func important(_ change: Change) -> Bool {
        guard minPriority != nil || minSeverity != nil else { return true }
        let priority = Self.level(change.priority), severity = Self.level(change.severity)
        if priority == nil && severity == nil { return true }  // nothing to judge by: do not hide it
        if let minPriority, let priority, priority <= minPriority { return true }
        if let minSeverity, let severity, severity <= minSeverity { return true }
        return false
    }

    /// The leading number of `1-Resolve Immediately`, `2-Major`, …; Jira's named priorities by their rank in its
    /// two default schemes (`Highest` … `Lowest`, `Blocker` … `Trivial`).
    static func level(_ value: String?) -> Int? {
        guard let value else { return nil }
        if let number = Int(value.prefix { $0.isASCII && $0.isNumber }) { return number }
        return namedLevels[value.lowercased()]
    }

    static let namedLevels = [
        "highest": 1, "high": 2, "medium": 3, "low": 4, "lowest": 5,
        "blocker": 1, "critical": 2, "major": 3, "minor": 4, "trivial": 5,
    ]
}

/// What a click on a bubble or one of its buttons asks for. `source` names the source that saw the change
/// (`Change.source`): keys of different trackers may look alike.
public enum BubbleAction: Equatable, Sendable, CustomStringConvertible {
    /// Open the record's web page (a click on a change's bubble, "Open").
    case open(RecordID, source: String? = nil)
    /// Stop bubbles for the record until it changes owner or state ("Mute this record").
    case mute(RecordID, source: String? = nil)
    /// Open the page of recent changes (a click on a summary bubble, "Show all").
    case showAll

    /// How the journal names it: `open SAMPL00000042`, `mute 3 in devices`, `show all`.
    public var description: String {
        switch self {
        case .open(let record, let source): "open \(record)" + (source.map { " in \($0)" } ?? "")
        case .mute(let record, let source): "mute \(record)" + (source.map { " in \($0)" } ?? "")
        case .showAll: "show all"
        }
    }
}
