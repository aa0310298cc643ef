// What one record and one change may hold, whatever a server sends: values are cut where they arrive
// (`Record.stored`); so are field names, the number of fields of an item, and the field changes of one change.
// One item of 100,000 members changing every poll must not add megabytes to the state folder a poll, nor a
// change of it make the page of recent changes megabytes long.

extension Record {
    /// The most fields a record made from a server's item keeps: the rest become one field, `otherFields`.
    public static let fieldLimit = 200
    /// The most characters of a field name a record keeps; a longer one is cut as a long value is.
    public static let nameLimit = 200
    /// The field that stands for an item's fields past `fieldLimit`: how many, and a fingerprint of them all.
    public static let otherFields = "(other fields)"

    /// `name`, or its start and `… (N characters, #fingerprint)`, `nameLimit` characters in all: still one name
    /// for one field, poll after poll.
    public static func storedName(_ name: String) -> String { cut(name, to: nameLimit) }

    /// `fields` with every name and value as stored (`storedName`, `stored`), and past `fieldLimit` the first
    /// `fieldLimit - 1` in name order kept and the others folded into `otherFields`
    /// (`99808 fields, #fingerprint`), so that a change in any of them still changes the record. Idempotent.
    public static func bounded(fields: [String: String]) -> [String: String] {
        var stored: [String: String] = [:]
        stored.reserveCapacity(min(fields.count, fieldLimit))
        for (name, value) in fields { stored[storedName(name)] = Self.stored(value) }
        guard stored.count > fieldLimit else { return stored }
        let names = stored.keys.sorted()
        var rest = ""
        for name in names[(fieldLimit - 1)...] { rest += "\(name)\u{0}\(stored[name]!)\u{0}" }
        var kept = [String: String](minimumCapacity: fieldLimit)
        for name in names.prefix(fieldLimit - 1) { kept[name] = stored[name] }
        kept[otherFields] = "\(names.count - fieldLimit + 1) fields, #\(fingerprint(rest))"
        return kept
    }
}

extension Change {
    /// The most field changes one change keeps, a count of the others included (`FieldChange.more`).
    public static let fieldLimit = 50
    /// About the most bytes of field names and values one change keeps (the first field change is always kept).
    public static let fieldBytesLimit = 32_000

    /// `changes`, each name and value as a record stores them (so even the first is small), or when they are more
    /// than `fieldLimit` or take more than `fieldBytesLimit`: the first that fit and `FieldChange.more(n)` counting
    /// the others. Idempotent.
    public static func bounded(_ changes: [FieldChange]) -> [FieldChange] {
        let changes = changes.map(\.stored)
        let total = changes.reduce(0) { $0 + $1.size }
        guard changes.count > fieldLimit || total > fieldBytesLimit else { return changes }
        var kept: [FieldChange] = [], bytes = 0
        for change in changes {
            guard kept.count < fieldLimit - 1, kept.isEmpty || bytes + change.size <= fieldBytesLimit else { break }
            kept.append(change)
            bytes += change.size
        }
        guard kept.count < changes.count else { return kept }  // one field change alone past the bytes
        return kept + [.more(changes[kept.count...].reduce(0) { $0 + $1.count })]
    }

    /// This change with its field changes `bounded`: what the store keeps of any source's change.
    public func withBoundedFields() -> Change {
        var change = self
        change.changes = Self.bounded(changes)
        return change
    }
}

extension FieldChange {
    /// Stands for `count` field changes left out of a change: `and 149 more fields` (a change with no values).
    public static func more(_ count: Int) -> FieldChange {
        FieldChange(field: "and \(count) more fields", old: nil, new: nil)
    }

    /// How many field changes this one stands for: `n` for `more(n)`, else 1.
    public var count: Int { moreCount ?? 1 }

    /// Whether this stands for field changes left out (`more`).
    public var isMore: Bool { moreCount != nil }

    private var moreCount: Int? {
        guard old == nil, new == nil, field.hasPrefix("and "), field.hasSuffix(" more fields"),
            let count = Int(field.dropFirst(4).dropLast(12)), count > 0
        else { return nil }
        return count
    }

    /// Its name and values as a record keeps them (`Record.storedName`, `Record.stored`): a tracker's changelog
    /// names its fields, and a 5 MB name is stored as 200 characters.
    var stored: FieldChange {
        FieldChange(field: Record.storedName(field), old: old.map(Record.stored), new: new.map(Record.stored))
    }

    /// Bytes of name and values.
    var size: Int { field.utf8.count + (old?.utf8.count ?? 0) + (new?.utf8.count ?? 0) }
}
