import StateStore
import TrackwatchCore

/// The page of recent changes (`ChangesPage`) from every server's store: what the daemon keeps in the state
/// directory after each poll, and what `trackwatch log --html` prints.
public enum RecentChanges {
    /// - Parameter stores: each server's store with its configuration (`nil` without a configuration file:
    ///   then records are not linked, for want of a server URL).
    public static func page(
        stores: [(server: ServerConfig?, store: StateStore)], notify: NotifyConfig, since: Double? = nil,
        record: RecordID? = nil, limit: Int = ChangesPage.defaultLimit, now: Double
    ) throws -> String {
        var found: [(order: Int, detectedAt: Double, entry: ChangesPage.Entry)] = []
        for (server, store) in stores {
            for stored in try store.changes(since: since, record: record, limit: limit) {
                let entry = ChangesPage.Entry(
                    change: stored.change, detected: SystemClocks.localDateTime(stored.detectedAt),
                    server: stores.count > 1 ? server?.label : nil,
                    url: server.map { notify.recordURL(stored.change.record, server: $0) } ?? "")
                found.append((found.count, stored.detectedAt, entry))
            }
        }
        // Several servers merged, newest first; within one poll, the store's own order.
        found.sort { ($0.detectedAt, -$0.order) > ($1.detectedAt, -$1.order) }
        return ChangesPage.render(found.prefix(limit).map(\.entry), updated: SystemClocks.localDateTime(now),
                                  limited: found.count >= limit)
    }
}
