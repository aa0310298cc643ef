/// The changes one bubble stands for until the person has seen it: a summary that later bursts add to (replaced
/// in place, it must not read "4 changes" for eight unseen ones), or a critical bubble that later changes are
/// folded into (GNOME Shell holds every later banner back while a critical one is up).
///
/// It counts every change but keeps only the few a bubble names: the latest critical ones, then the latest others.
public struct BubbleDigest: Equatable, Sendable {
    /// How many changes a summary names, one line each: with the count and `and N more`, a summary stays within
    /// the six body lines GNOME Shell shows even when two of them wrap.
    public static let named = 3

    public private(set) var count = 0
    private var critical: [Change] = []
    private var others: [Change] = []
    private var trackers: Set<String> = []
    private var unnamed = false

    /// - Parameter tracker: what the changes' tracker is called (`NotificationPlan.make`'s `tracker`).
    public init(_ changes: [Change] = [], tracker: String? = nil) { add(changes, tracker: tracker) }

    public mutating func add(_ changes: [Change], tracker: String? = nil) {
        guard !changes.isEmpty else { return }
        if let tracker { trackers.insert(tracker) } else { unnamed = true }
        count += changes.count
        for change in changes {
            if NotificationPlan.criticalReason(change) != nil {
                critical = Array((critical + [change]).suffix(Self.named))
            } else {
                others = Array((others + [change]).suffix(Self.named))
            }
        }
    }

    /// The one tracker all its changes come from, for "8 … changes"; `nil` for changes of several.
    public var tracker: String? { unnamed || trackers.count != 1 ? nil : trackers.first }

    /// Whether any change it stands for is critical: then so is its bubble.
    public var isCritical: Bool { !critical.isEmpty }

    /// What the bubble names: critical changes first, each group newest first.
    public var changes: [Change] { Array((critical.reversed() + others.reversed()).prefix(Self.named)) }
}
