/// What happened to one record between two polls.
public enum ChangeKind: String, Codable, Sendable, CaseIterable {
    /// The record entered the "assigned to me" set.
    case assigned
    /// The record left it: reassigned, closed out of the query, or deleted.
    case unassigned
    /// Someone else acted on a record I own.
    case modified
    /// The record entered a watched saved query (`[[watch]]`).
    case entered
    /// The record left a watched saved query.
    case left
    /// A compared field of a record in a watched saved query changed.
    case changed

}

/// How a list's item is named: by its title (`Pixel 8 (Android 14)`, the change's headline), or, without one, as
/// `Item 3`.
public enum ItemNaming: String, Codable, Sendable {
    case title
    case key
}

/// One field's value before and after; `nil` where the record was not in that snapshot. In a change of a record that
/// stayed, `old == nil` is something added (a note: only its text is told), and both `nil` a change whose values
/// the source did not keep.
public struct FieldChange: Equatable, Codable, Sendable {
    public let field: String
    public let old: String?
    public let new: String?

    public init(field: String, old: String?, new: String?) {
        self.field = field
        self.old = old
        self.new = new
    }
}

/// One record's change in one poll, carrying all its facts: who acted, the last action, and every field
/// that changed. This is what is journaled, notified and printed.
public struct Change: Equatable, Codable, Sendable {
    public let record: RecordID
    public let kind: ChangeKind
    public let headline: String
    /// The colleague whose action caused the change; `nil` when the tracker does not say.
    public let by: String?
    /// The latest action by `by` in the tracker's words (`Resolve`, `Modify`, `Assign`, …).
    public let action: String?
    /// At most `Change.fieldLimit`, the rest counted (`Change.bounded(_:)`).
    public internal(set) var changes: [FieldChange]
    /// Server timestamp of that action, when known.
    public let at: Timestamp?
    /// Current Priority, Severity and State, kept for urgency and display (`nil` where the query does not
    /// show the field, and in changes stored before State was kept).
    public let priority: String?
    public let severity: String?
    public let state: String?
    /// What the tracker calls `state` (Jira: `Status`); `nil`: `State`.
    public var stateField: String?
    /// The `[[watch]]` the change was seen in (its name, e.g. `Team P1s`), or the list it was seen in; `nil`
    /// for a source's own questions (assigned to me, my records changed by others).
    public let watch: String?
    /// The name of the source that saw it (`SourceSettings.sourceName`); `nil` in changes
    /// stored before there was more than one kind of source (they belong to their store's source).
    public var source: String?
    /// The record's web page as the source knew it when it saw the change (`nil`: the source makes the link
    /// from its configuration when asked, `SourceSettings.link(for:)`).
    public var link: String?
    /// How words name a list's item, whose key may be a bare number that reads as a count; `nil`: by its id, as a
    /// tracker's records are (`A-42`).
    public var naming: ItemNaming?

    public init(
        record: RecordID, kind: ChangeKind, headline: String, by: String? = nil, action: String? = nil,
        changes: [FieldChange] = [], at: Timestamp? = nil, priority: String? = nil, severity: String? = nil,
        state: String? = nil, watch: String? = nil, source: String? = nil, link: String? = nil
    ) {
        self.record = record
        self.kind = kind
        self.headline = headline
        self.by = by
        self.action = action
        self.changes = changes
        self.at = at
        self.priority = priority
        self.severity = severity
        self.state = state
        self.watch = watch
        self.source = source
        self.link = link
    }

    /// The words for one field change, with `value` making each value fit where it goes: `State: Opened → Resolved`,
    /// `Note: Please retest` (something added), `Description changed`.
    public func described(_ field: FieldChange, name: (String) -> String, value: (String?) -> String) -> String {
        // Entering or leaving a list shows both sides; a record that stayed, or an activity log's event (an item given
        // to me or taken away), tells what was added on its own.
        guard [.modified, .changed, .assigned, .unassigned].contains(kind) else {
            return "\(name(field.field)): \(value(field.old)) → \(value(field.new))"
        }
        switch (field.old, field.new) {
        case (nil, nil): return "\(name(field.field)) changed"
        case (nil, .some): return "\(name(field.field)): \(value(field.new))"
        default: return "\(name(field.field)): \(value(field.old)) → \(value(field.new))"
        }
    }

    /// The field change for `field`, if that field changed.
    public func change(of field: String) -> FieldChange? { changes.first { $0.field == field } }
}
