/// A string from Compass with a meaning of its own; encoded as the bare string.
public protocol CompassString: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    var rawValue: String { get }
    init(_ rawValue: String)
}

extension CompassString {
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

/// A Compass record's display id, such as `SAMPL00000042`.
public struct RecordID: CompassString {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// One record as a watched query returned it: its id and the watched fields, keyed by Compass field name
/// (`Headline`, `State`, `Priority`, …). Values are Compass's strings; an empty cell is `""`.
public struct Record: Equatable, Codable, Sendable {
    public let id: RecordID
    public var fields: [String: String]

    public init(id: RecordID, fields: [String: String]) {
        self.id = id
        self.fields = fields
    }

    public subscript(field: String) -> String? { fields[field] }
    public var headline: String { fields["Headline"] ?? "" }
}

/// The persisted result of a watched query: record id → the fields seen at the last successful poll.
public struct Snapshot: Equatable, Sendable {
    public var records: [RecordID: Record]

    public init(records: [RecordID: Record] = [:]) { self.records = records }
    public init(_ list: [Record]) {
        records = Dictionary(list.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    public var count: Int { records.count }
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
