/// One row of the "modified by others" query: one history entry of a record I own.
public struct HistoryEntry: Equatable, Codable, Sendable {
    public let record: RecordID
    public let headline: String
    public let action: String
    /// Server time as Compass prints it, `yyyy-MM-dd HH:mm:ss`.
    public let timestamp: CompassTimestamp
    public let user: String
    public let oldState: String
    public let newState: String

    public init(
        record: RecordID, headline: String, action: String, timestamp: CompassTimestamp, user: String,
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

    public var key: HistoryKey { HistoryKey(record: record, action: action, timestamp: timestamp, user: user) }
}

/// Identifies a history entry across polls: the overlap window returns entries again, and this key makes
/// each one count once.
public struct HistoryKey: Hashable, Codable, Sendable {
    public let record: RecordID
    public let action: String
    public let timestamp: CompassTimestamp
    public let user: String

    public init(record: RecordID, action: String, timestamp: CompassTimestamp, user: String) {
        self.record = record
        self.action = action
        self.timestamp = timestamp
        self.user = user
    }
}
