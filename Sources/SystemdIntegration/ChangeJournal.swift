import TrackwatchCore

/// One journal entry per change, so that `journalctl --user -u trackwatch TRACKWATCH_RECORD=SAMPL00000042`
/// tells one defect's story. `MESSAGE` is the same sentence as the bubble; the catalog
/// (systemd/trackwatch.catalog) explains each MESSAGE_ID for `journalctl -x`.
public final class ChangeJournal: Sendable {
    /// Fixed per change kind; never change them (people filter on them).
    public static let messageIDs: [ChangeKind: String] = [
        .assigned: "81ca148b15084239b53e959bb3c2db07",
        .unassigned: "5a0c1b8549cf42c9a9b7e75150b871f9",
        .modified: "518125e66bf2452fbd0ed9650b5ededd",
        .entered: "a4ba4ff6b7ac48c7bcf81846ce58a374",
        .left: "485851e29f104b9b904af7090520c2d7",
        .changed: "60e2b220a7bb4ff79ac5a02cc6ba4710",
    ]
    /// A tracker unreachable for several polls, and connected again.
    public static let outageMessageID = "596fdf4c3f784e77a86982259f2d909f"
    public static let recoveryMessageID = "8632c25cb40547288393a14a4c30d10d"
    /// `trackwatch notify-test`.
    public static let testMessageID = "0d6b7a0e4a6c4b8e9a1e0b9c3f6a2d11"

    private let server: String

    public init(server: String) { self.server = server }

    /// The field that identifies a change across restarts (see `JournalReader`).
    public static let changeIDField = "TRACKWATCH_CHANGE_ID"

    /// The fields of a change's entry (separate from sending, so that tests can check them). `id` is unique
    /// per detected change.
    public func fields(for change: Change, id: String) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [
            ("MESSAGE", change.sentence),
            ("PRIORITY", String(Journal.Priority.notice.rawValue)),
            ("SYSLOG_IDENTIFIER", "trackwatch"),
            ("MESSAGE_ID", Self.messageIDs[change.kind] ?? ""),
            ("TRACKWATCH_RECORD", change.record.rawValue),
            ("TRACKWATCH_CHANGE", change.kind.rawValue),
            ("TRACKWATCH_HEADLINE", change.headline),
            ("TRACKWATCH_SERVER", server),
            (Self.changeIDField, id),
        ]
        if let by = change.by { fields.append(("TRACKWATCH_BY", by)) }
        if let action = change.action { fields.append(("TRACKWATCH_ACTION", action)) }
        if !change.changes.isEmpty { fields.append(("TRACKWATCH_FIELDS", change.fieldSummary)) }
        if let at = change.at { fields.append(("TRACKWATCH_AT", at.rawValue)) }
        if let priority = change.priority { fields.append(("TRACKWATCH_PRIORITY", priority)) }
        if let watch = change.watch { fields.append(("TRACKWATCH_WATCH", watch)) }
        if let source = change.source { fields.append(("TRACKWATCH_SOURCE", source)) }
        return fields
    }

    @discardableResult
    public func record(_ change: Change, id: String) -> Int32 { Journal.send(fields(for: change, id: id)) }

    /// The change IDs among `ids` that already have an entry this user can read.
    public static func recordedChangeIDs(among ids: [String]) -> Set<String> {
        JournalReader.presentValues(of: changeIDField, among: ids)
    }

    /// The sample entry of `trackwatch notify-test`.
    @discardableResult
    public func recordTest(_ message: String) -> Int32 {
        Journal.send([
            ("MESSAGE", message), ("PRIORITY", String(Journal.Priority.notice.rawValue)), ("SYSLOG_IDENTIFIER", "trackwatch"),
            ("MESSAGE_ID", Self.testMessageID), ("TRACKWATCH_SERVER", server),
        ])
    }

    /// An outage or a recovery, at `err` or `notice`.
    @discardableResult
    public func recordServiceProblem(_ summary: String, detail: String, resolved: Bool) -> Int32 {
        Journal.send([
            ("MESSAGE", detail.isEmpty ? summary : "\(summary): \(detail)"),
            ("PRIORITY", String((resolved ? Journal.Priority.notice : .error).rawValue)),
            ("SYSLOG_IDENTIFIER", "trackwatch"),
            ("MESSAGE_ID", resolved ? Self.recoveryMessageID : Self.outageMessageID),
            ("TRACKWATCH_SERVER", server),
        ])
    }
}
