import TrackwatchCore

/// A tracker that keeps an activity log (Jira's changelogs, GitHub's timelines, GitLab's notes), as the shared
/// `ActivityPoller` drives it: a client and a mapping. The tracker says how to read its lists, how to ask for an
/// item by id, how an item and its log become the activity shape, and its words; the poller owns everything around
/// that — the window, full reads, who I am, the stored index, which stored items to ask about and what their
/// answers mean, unreadable parts, the memory committed with the snapshot, and the report.
public protocol ActivityTracker: AnyObject {
    /// An item as the tracker's API returns it (an issue, a pull request).
    associatedtype Item

    /// The most stored items asked for by id in one poll; the rest are asked at the next.
    var mostLookups: Int { get }

    /// Who I am, asked of the server: at the first poll, on a full read, when nothing is remembered.
    func identify(_ memory: inout TrackerMemory) async throws -> ActivityIdentity
    /// Whose events are reported, and which fields are compared and assign.
    func rules(me: ActivityIdentity) -> ActivityRules
    /// Reads my lists in `poll.window`: my items by stable id, items awaiting my review, the stored items the lists
    /// should have shown and did not, and the parts (a project, a repository) that could not be read.
    func readLists(_ poll: ActivityPoll, memory: inout TrackerMemory) async throws -> ActivityLists<Item>
    /// Asks the tracker for stored items by stable id. An id left out of the answer stays watched and is asked
    /// again; only `.gone` drops an item. `lists` may be adjusted (an item found under a new id after a move).
    func lookUp(_ ids: [String], _ poll: ActivityPoll, lists: inout ActivityLists<Item>) async throws -> [String: ItemLookup<Item>]
    /// An item as the diff sees it; `nil` for one whose reference the tracker does not make (never stored).
    func item(_ item: Item, id: String, isMine: Bool, reviewRequested: Bool, _ poll: ActivityPoll) -> ActivityItem?
    /// The logs of the items that changed since they were stored (or are new), by stable id (one request for all
    /// where the tracker can).
    func logs(of changed: [(item: ActivityItem, source: Item)], _ poll: ActivityPoll) async throws -> [String: ItemLog]
    /// The failure that names the parts that could not be read (`PollReport.failure`; the rest was polled); `nil`:
    /// the poller's own words.
    func unavailable(_ parts: [String]) -> (any SourceFailure)?
    /// What a baseline watches, after its count in the note `check` says once: `Jira issues assigned to you, and
    /// those you reported or watch`.
    var watching: String { get }
    /// Seconds the server asked to be left alone after this poll (GitHub's `X-Poll-Interval`), once.
    func takeServerInterval() -> Double?
}

extension ActivityTracker {
    public var mostLookups: Int { 50 }
    public func takeServerInterval() -> Double? { nil }
    public func unavailable(_ parts: [String]) -> (any SourceFailure)? { nil }
}

/// Who I am in a tracker: my own events are silent.
public struct ActivityIdentity: Equatable, Sendable {
    /// The tracker's stable id for me (an account id, a numeric user id).
    public var id: String
    public var login: String
    public var name: String
    public var email: String

    public init(id: String, login: String = "", name: String = "", email: String = "") {
        self.id = id
        self.login = login
        self.name = name
        self.email = email
    }

    /// One line for the store: tab-separated, tabs and line breaks in values made spaces.
    var encoded: String {
        [id, login, name, email].map { String($0.map { $0 == "\t" || $0.isNewline ? " " : $0 }) }
            .joined(separator: "\t")
    }

    init?(encoded: String) {
        let parts = encoded.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, !parts[0].isEmpty else { return nil }
        self.init(id: parts[0], login: parts[1], name: parts[2], email: parts[3])
    }
}

/// What one poll knows before it reads: the window, who I am, the stored items, what is remembered of parts that
/// could not be read.
public struct ActivityPoll {
    public var window: ActivityWindow
    public var me: ActivityIdentity
    public var stored: StoredItems
    /// Parts named unreadable since the last full read: a steady poll leaves them out (a full read asks again).
    public var unreadable: Set<String>

    public init(window: ActivityWindow, me: ActivityIdentity, stored: StoredItems, unreadable: Set<String> = []) {
        self.window = window
        self.me = me
        self.stored = stored
        self.unreadable = unreadable
    }
}

/// The window of one poll, computed once: what changed since the last poll began, less `[poll] overlap`.
public struct ActivityWindow: Equatable, Sendable {
    /// Every item of mine is read again (`FullRead`, or `check --full`).
    public var full: Bool
    /// This poll's local start, seconds since 1970.
    public var started: Double
    /// Items updated since then are read. Never later than `started`: a clock that stepped back widens the
    /// window, it never empties it.
    public var since: Timestamp
    /// The same window in whole minutes back from now, at least 1 (Jira's relative JQL).
    public var minutes: Int
    /// No snapshot yet: this poll is the silent baseline.
    public var isBaseline: Bool

    public init(started: Double, lastPoll: Double?, overlap: Int, full: Bool, isBaseline: Bool) {
        let back = max(0, lastPoll.map { started - $0 } ?? 0) + Double(max(0, overlap))
        self.full = full
        self.started = started
        since = Timestamp(secondsSinceEpoch: Int((started - back).rounded(.down)))
        minutes = max(1, Int((back / 60).rounded(.up)))
        self.isBaseline = isBaseline
    }
}

/// My stored items by stable id: what the last committed poll kept.
public struct StoredItems {
    public let byID: [String: Record]
    /// When the last committed poll began (local seconds since 1970).
    let lastPoll: Double?
    /// Items whose log was read in the very second of their stored `Updated` (whole seconds), before that second was
    /// over: a colleague may have acted later in it without moving `Updated`. Their logs are read again, and events
    /// of that second are told apart from those already seen by their ids, not by time.
    let openSecond: Set<String>

    public init(_ snapshot: Snapshot?, lastPoll: Double?, openSecond: Set<String> = []) {
        let byID = ActivityDiff.byID(snapshot)
        self.byID = byID
        self.lastPoll = lastPoll
        self.openSecond = openSecond.filter { byID[$0] != nil }
    }

    public subscript(id: String) -> Record? { byID[id] }
    public var ids: [String] { byID.keys.sorted() }

    /// The newest moment an item's stored state reflects: its `Updated`, but never later than the poll that stored
    /// it began — a future-dated `updated` (a server's clock stepped back, cluster nodes apart) would hide every
    /// real change until then. An item not stored reflects nothing before the window.
    func seenUpTo(_ id: String, window: ActivityWindow) -> Timestamp {
        guard let updated = byID[id]?[ActivityFields.updated].map(Timestamp.init) else {
            return window.since
        }
        var upTo = lastPoll.map { min(updated, Timestamp(secondsSinceEpoch: Int($0))) } ?? updated
        if openSecond.contains(id), let before = updated.adding(seconds: -1) { upTo = min(upTo, before) }
        return upTo
    }

    /// Whether an item whose log was read by a poll that began at `started` (by the earlier of our clock and the
    /// server's) is read again at the next: its `Updated` is a whole second that had not ended when the poll began. A tracker that keeps fractions of a second moves
    /// `Updated` with any later change (one that falls on `.000` is read again once, which tells nothing twice).
    static func isOpen(updated: Timestamp?, started: Double) -> Bool {
        guard let updated, !updated.rawValue.contains("."), updated.secondsSinceEpoch != nil else { return false }
        return updated >= Timestamp(secondsSinceEpoch: Int(started))
    }
}

/// What a tracker's lists said in one poll.
public struct ActivityLists<Item> {
    /// My items the lists returned, by stable id.
    public var mine: [String: Item]
    /// Stable ids of items awaiting my review (directly or through a team).
    public var reviewRequests: Set<String>
    /// False where the tracker said its review requests are incomplete: a stored request then stands.
    public var reviewRequestsComplete: Bool
    /// Stored items the lists should have shown and did not (unassigned, closed, moved, deleted): asked for by id.
    /// A full read asks for every stored item it did not return, whatever this says.
    public var missing: Set<String>
    /// Parts (a project, a repository) the tracker refused: named, the rest watched.
    public var unreadable: Set<String>

    public init(
        mine: [String: Item] = [:], reviewRequests: Set<String> = [], reviewRequestsComplete: Bool = true,
        missing: Set<String> = [], unreadable: Set<String> = []
    ) {
        self.mine = mine
        self.reviewRequests = reviewRequests
        self.reviewRequestsComplete = reviewRequestsComplete
        self.missing = missing
        self.unreadable = unreadable
    }
}

/// What the tracker said of one stored item asked for by id.
public enum ItemLookup<Item> {
    /// It is there; `isMine`: still one of my items.
    case found(Item, isMine: Bool)
    /// The tracker said it is gone (deleted, or no longer visible to me): dropped silently.
    case gone(status: Int)
    /// It lives in a part I can no longer read (a repository that lost my access): kept, the part named.
    case unreadable(part: String)
}

/// An item's log as read: its events, and whether it was read whole.
public struct ItemLog {
    public var events: [ActivityEvent]
    /// False for an item too busy to read whole: its newest events were read, the rest not.
    public var complete: Bool
    /// Hidden fields to store with the item (GitHub's last commit seen), kept until the tracker sets them again.
    public var marks: [String: String]
    /// Entries the tracker sent and could not read (`LossyList.skipped`): left out and named, and the item's
    /// differences no read entry names are told without a name (`ActivityObservation.partlyRead`).
    public var skipped: Int

    public init(events: [ActivityEvent], complete: Bool = true, marks: [String: String] = [:], skipped: Int = 0) {
        self.events = events
        self.complete = complete
        self.marks = marks
        self.skipped = skipped
    }
}

/// What a tracker remembers between polls, read from the source's store and written with the poll's snapshot in
/// one transaction: a poll that fails remembers nothing of what it saw.
public struct TrackerMemory {
    private let read: (String) throws -> String?
    public private(set) var writes: [String: String?] = [:]

    public init(read: @escaping (String) throws -> String?) { self.read = read }

    public func value(_ key: String) throws -> String? {
        if let written = writes[key] { return written }
        return try read(key)
    }

    public mutating func set(_ key: String, _ value: String?) { writes[key] = .some(value) }

    /// A set of ids remembered under `key`, one a line.
    func ids(_ key: String) throws -> Set<String> {
        Set((try value(key) ?? "").split(separator: "\n").map(String.init))
    }

    /// Remembers `ids` under `key`, one a line; none forgets the key.
    mutating func set(_ key: String, ids: Set<String>) {
        set(key, ids.isEmpty ? nil : ids.sorted().joined(separator: "\n"))
    }
}

/// Fields every activity tracker's records hold, by the same names.
public enum ActivityFields {
    /// When the tracker last updated the item (`Timestamp` text): what tells the poller an item moved.
    public static let updated = "Updated"
    /// Whether my review is requested (`yes`/`no`), for trackers with reviews.
    public static let reviewRequested = "_review"

    /// Whether a read of a newest-first list down to `since` (`nil`: all of it) would have shown the stored item.
    public static func shouldHaveShown(_ record: Record, since: Timestamp?) -> Bool {
        guard let since else { return true }
        return record[updated].map { Timestamp($0) >= since } ?? true
    }
}
