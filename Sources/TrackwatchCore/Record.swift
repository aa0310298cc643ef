/// A string from a tracker with a meaning of its own; encoded as the bare string.
public protocol TrackerString: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    var rawValue: String { get }
    init(_ rawValue: String)
}

extension TrackerString {
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A record's key in its tracker, as people see it (`A-42`, `P/defect/7`, a list item's key field).
public struct RecordID: TrackerString {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// One record as a source observed it: its key and the watched fields, keyed by the tracker's field names
/// (`Headline`, `State`, `Priority`, …). Values are the tracker's text; an empty cell is `""`.
///
/// Kept compact: the fields are one string, their canonical JSON (`CanonicalFields`), not a dictionary.
/// `fields` builds the dictionary on demand; `subscript` reads one value without one.
public struct Record: Sendable {
    public let id: RecordID
    /// `{"key":"value",…}`, keys ascending, minimal escapes: equal fields are equal bytes.
    public private(set) var canonicalFields: String

    public init(id: RecordID, fields: [String: String]) {
        self.id = id
        canonicalFields = CanonicalFields.encode(fields)
    }

    /// `canonicalFields` must be canonical (built by `RecordLayout` or checked by `init?(id:canonicalJSON:)`).
    init(id: RecordID, canonicalFields: String) {
        self.id = id
        self.canonicalFields = canonicalFields
    }

    /// A record whose fields are stored JSON; `nil` unless `json` is exactly the canonical form (then the
    /// caller decodes it some other way and uses `init(id:fields:)`).
    public init?(id: RecordID, canonicalJSON json: UnsafeBufferPointer<UInt8>) {
        guard CanonicalFields.isCanonical(json) else { return nil }
        self.init(id: id, canonicalFields: String(decoding: json, as: UTF8.self))
    }

    public var fields: [String: String] {
        get {
            var fields: [String: String] = [:]
            withCanonicalJSON { CanonicalFields.forEach($0) { fields[$0] = $1 } }
            return fields
        }
        set { canonicalFields = CanonicalFields.encode(newValue) }
    }

    public subscript(field: String) -> String? { withCanonicalJSON { CanonicalFields.value(of: field, in: $0) } }

    /// Calls `body` with the UTF-8 bytes of `canonicalFields`, what the state store keeps.
    public func withCanonicalJSON<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var json = canonicalFields
        return try json.withUTF8(body)
    }

    /// Whether the two records have the same fields (a byte comparison of their canonical JSON).
    public func hasSameFields(as other: Record) -> Bool {
        withCanonicalJSON { mine in other.withCanonicalJSON { theirs in mine.sameBytes(as: theirs) } }
    }
}

extension Record: Equatable {
    public static func == (lhs: Record, rhs: Record) -> Bool { lhs.id == rhs.id && lhs.hasSameFields(as: rhs) }
}

extension Record: Codable {
    private enum CodingKeys: String, CodingKey { case id, fields }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try container.decode(RecordID.self, forKey: .id),
                  fields: try container.decode([String: String].self, forKey: .fields))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(fields, forKey: .fields)
    }
}

/// The persisted result of a watched query: record id → the fields seen at the last successful poll.
///
/// Held as one array sorted by id (ids unique), not a dictionary: at 100,000 records a hash table costs
/// ~10 MB of buckets and a hash per lookup, and the diff walks both snapshots in id order anyway.
public struct Snapshot: Equatable, Sendable {
    /// Every record, in ascending id order, each id once.
    public private(set) var sortedRecords: [Record]

    public init(records: [RecordID: Record] = [:]) {
        sortedRecords = records.values.sorted { $0.id < $1.id }
    }

    /// The records of `list`; of records with the same id, the last one counts.
    public init(_ list: [Record]) {
        if Self.isStrictlyAscending(list) {
            sortedRecords = list
            return
        }
        // Stable: by id, then by position, so that the last of equal ids can be kept.
        let order = list.indices.sorted { list[$0].id < list[$1].id || (list[$0].id == list[$1].id && $0 < $1) }
        var sorted: [Record] = []
        sorted.reserveCapacity(list.count)
        for index in order {
            if let last = sorted.last, last.id == list[index].id { sorted[sorted.count - 1] = list[index] } else {
                sorted.append(list[index])
            }
        }
        sortedRecords = sorted
    }

    public var records: [RecordID: Record] {
        get { Dictionary(uniqueKeysWithValues: sortedRecords.map { ($0.id, $0) }) }
        set { sortedRecords = newValue.values.sorted { $0.id < $1.id } }
    }

    public var count: Int { sortedRecords.count }

    /// The record with `id`, by binary search.
    public func record(_ id: RecordID) -> Record? {
        var low = 0, high = sortedRecords.count
        while low < high {
            let middle = (low + high) / 2
            if sortedRecords[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < sortedRecords.count && sortedRecords[low].id == id ? sortedRecords[low] : nil
    }

    static func isStrictlyAscending(_ list: [Record]) -> Bool {
        guard list.count > 1 else { return true }
        for index in 1..<list.count where !(list[index - 1].id < list[index].id) { return false }
        return true
    }
}

/// What one poll changes in a stored snapshot, so that the store writes only the difference.
public struct SnapshotDelta: Equatable, Sendable {
    public var upserts: [Record]
    public var removals: [RecordID]

    public init(upserts: [Record] = [], removals: [RecordID] = []) {
        self.upserts = upserts
        self.removals = removals
    }

    public var isEmpty: Bool { upserts.isEmpty && removals.isEmpty }
}

extension Record {
    /// The most characters of a field value a record keeps. A longer value is cut where it arrives, its length
    /// and a fingerprint of the whole kept in its place, so that a change anywhere in it still changes the record:
    /// a colleague's (or a hostile server's) 2 MB text must not make every snapshot, change and page carry 2 MB.
    public static let valueLimit = 1_000

    /// `value`, or its start and `… (N characters, #fingerprint)`, `valueLimit` characters in all. Idempotent: a
    /// stored value is stored as it is, so that what a snapshot holds compares equal to the same value arriving
    /// again (a cut longer than the limit was cut anew, with another fingerprint, and was a change every poll).
    public static func stored(_ value: String) -> String { cut(value, to: valueLimit) }

    /// `text`, or its start and `… (N characters, #fingerprint)`, `limit` characters in all; idempotent.
    static func cut(_ text: String, to limit: Int) -> String {
        if text.utf8.count <= limit { return text }
        let characters = text.count
        if characters <= limit, text.unicodeScalars.count <= limit * 4 { return text }
        let suffix = " (\(characters) characters, #\(fingerprint(text)))"
        return SafeText.bounded(text, limit - suffix.count) + suffix
    }

    /// FNV-1a over the UTF-8 bytes, as 16 hexadecimal digits: enough to tell two long values apart.
    public static func fingerprint(_ value: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in value.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
