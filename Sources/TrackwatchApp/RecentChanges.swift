import StateStore
import TrackwatchCore

/// The page of recent changes (`ChangesPage`) from every source's store: what the daemon keeps in the state
/// directory after each poll, and what `trackwatch log --html` prints.
public enum RecentChanges {
    /// - Parameter stores: each source's store with its configuration (`nil` without a configuration file: then
    ///   records are linked only where their change carries its link).
    public static func page(
        stores: [(source: (any SourceSettings)?, store: StateStore)], since: Double? = nil,
        record: RecordID? = nil, limit: Int = ChangesPage.defaultLimit, now: Double
    ) throws -> String {
        var found: [(order: Int, detectedAt: Double, entry: ChangesPage.Entry)] = []
        for (source, store) in stores {
            for stored in try store.changes(since: since, record: record, limit: limit) {
                let entry = ChangesPage.Entry(
                    change: stored.change, detected: SystemClocks.localDateTime(stored.detectedAt),
                    server: stores.count > 1 ? source?.label : nil,
                    url: source?.link(for: stored.change) ?? stored.change.link ?? "", muted: stored.muted)
                found.append((found.count, stored.detectedAt, entry))
            }
        }
        // Several sources merged, newest first; within one poll, the store's own order.
        found.sort { ($0.detectedAt, -$0.order) > ($1.detectedAt, -$1.order) }
        let trackers = Set(stores.compactMap { $0.source?.trackerName })
        return ChangesPage.render(found.prefix(limit).map(\.entry), updated: SystemClocks.localDateTime(now),
                                  limited: found.count >= limit, tracker: trackers.count == 1 ? trackers.first : nil)
    }
}
