import TrackwatchCore

/// One row of the "modified by others" query: one history entry of a record I own.
public struct HistoryEntry: Equatable, Codable, Sendable {
    public let record: RecordID
    public let headline: String
    public let action: String
    /// Server time in normal form (`Timestamp.parse`), `yyyy-MM-dd HH:mm:ss`.
    public let timestamp: Timestamp
    public let user: String
    public let oldState: String
    public let newState: String

    public init(
        record: RecordID, headline: String, action: String, timestamp: Timestamp, user: String,
        oldState: String, newState: String
    ) {
        self.record = record
        self.headline = headline
        self.action = action
        self.timestamp = timestamp
        self.user = user
        self.oldState = oldState
        self.newState = newState
    }

    /// The entry's key as the first of its kind; `keys(of:)` numbers identical entries.
    public var key: HistoryKey { HistoryKey(record: record, action: action, timestamp: timestamp, user: user) }

    /// The keys of `entries`, in their order, identical entries numbered (`HistoryKey.numbered`).
    public static func keys(of entries: [HistoryEntry]) -> [HistoryKey] { HistoryKey.numbered(entries.map(\.key)) }
}
