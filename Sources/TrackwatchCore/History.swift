/// Identifies a history entry across polls: the overlap window returns entries again, and this key makes
/// each one count once. `occurrence` tells identical entries apart (`numbered`).
public struct HistoryKey: Hashable, Codable, Sendable {
    public let record: RecordID
    public let action: String
    public let timestamp: Timestamp
    public let user: String
    /// 1 for the first entry with these values in a window, 2 for the second, …
    public let occurrence: Int

    public init(record: RecordID, action: String, timestamp: Timestamp, user: String, occurrence: Int = 1) {
        self.record = record
        self.action = action
        self.timestamp = timestamp
        self.user = user
        self.occurrence = occurrence
    }

    /// The same key as the `number`th of its kind.
    public func occurrence(_ number: Int) -> HistoryKey {
        HistoryKey(record: record, action: action, timestamp: timestamp, user: user, occurrence: number)
    }

    /// `keys`, in their order, with identical ones numbered. Identical entries — the same person doing the same
    /// action on one record twice within a second (a script, a bulk update, a quick Modify + Modify) — are two
    /// real actions: they are numbered 1, 2, … so that each counts once. A window returns all of them together, as they share
    /// their timestamp, so the numbering is the same in every poll that sees them; the second arriving in a
    /// later poll than the first is then number 2, unseen, and reported.
    public static func numbered(_ keys: [HistoryKey]) -> [HistoryKey] {
        // One hash per entry in the usual case of no twins; the rare twin counts in a second table.
        var firsts = Set<HistoryKey>(minimumCapacity: keys.count)
        var counts: [HistoryKey: Int] = [:]
        return keys.map { key in
            if firsts.insert(key).inserted { return key }
            let occurrence = (counts[key] ?? 1) + 1
            counts[key] = occurrence
            return key.occurrence(occurrence)
        }
    }
}
