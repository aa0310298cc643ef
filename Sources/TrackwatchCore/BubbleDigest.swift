/// One source's changes on their way to the desktop, with what its tracker is called (`SourceSettings.trackerName`):
/// a summary of several sources counts each under that name ("7 changes: 5 in one, 2 in another").
public struct SourceChanges: Equatable, Sendable {
    public var tracker: String?
    public var changes: [Change]

    public init(tracker: String?, changes: [Change]) {
        self.tracker = tracker
        self.changes = changes
    }
}

/// The changes one bubble stands for until the person has seen it: a summary that later bursts add to (replaced
/// in place, it must not read "4 changes" for eight unseen ones), or a critical bubble that later changes are
/// folded into (GNOME Shell holds every later banner back while a critical one is up).
///
/// It counts every change, by tracker, but keeps only the few a bubble names: the latest critical ones, then the
/// latest others.
public struct BubbleDigest: Equatable, Sendable {
    /// How many changes a summary names, one line each: with the count and `and N more`, a summary stays within
    /// the six body lines GNOME Shell shows even when two of them wrap.
    public static let named = 3

    /// How many changes of one tracker it stands for; `tracker` is `nil` for changes whose tracker was not named.
    public struct Share: Equatable, Sendable {
        public let tracker: String?
        public fileprivate(set) var count: Int
    }

    public private(set) var count = 0
    /// In the order the trackers first came.
    public private(set) var shares: [Share] = []
    private var critical: [Change] = []
    private var others: [Change] = []

    /// - Parameter tracker: what the changes' tracker is called (`NotificationPlan.make`'s `tracker`).
    public init(_ changes: [Change] = [], tracker: String? = nil) { add(changes, tracker: tracker) }

    public mutating func add(_ changes: [Change], tracker: String? = nil) {
        guard !changes.isEmpty else { return }
        if let index = shares.firstIndex(where: { $0.tracker == tracker }) {
            shares[index].count += changes.count
        } else {
            shares.append(Share(tracker: tracker, count: changes.count))
        }
        count += changes.count
        for change in changes {
            if NotificationPlan.criticalReason(change) != nil {
                critical = Array((critical + [change]).suffix(Self.named))
            } else {
                others = Array((others + [change]).suffix(Self.named))
            }
        }
    }

    public mutating func add(_ sources: [SourceChanges]) {
        for source in sources { add(source.changes, tracker: source.tracker) }
    }

    /// What `other` stands for, added: every change counted under its tracker, the changes it names kept as named.
    public mutating func add(_ other: BubbleDigest) {
        for share in other.shares {
            if let index = shares.firstIndex(where: { $0.tracker == share.tracker }) {
                shares[index].count += share.count
            } else {
                shares.append(share)
            }
        }
        count += other.count
        critical = Array((critical + other.critical).suffix(Self.named))
        others = Array((others + other.others).suffix(Self.named))
    }

    /// The one tracker all its changes come from, for "8 … changes"; `nil` for changes of several, or unnamed.
    public var tracker: String? { shares.count == 1 ? shares[0].tracker : nil }

    /// Whether any change it stands for is critical: then so is its bubble.
    public var isCritical: Bool { !critical.isEmpty }

    /// What the bubble names: critical changes first, each group newest first.
    public var changes: [Change] { Array((critical.reversed() + others.reversed()).prefix(Self.named)) }
}
