import TrackwatchCore

/// What kind of Qase item a record is, read from its key (qase-api.md §9): a case `DEMO-9`, `DEMO/defect/7`,
/// `DEMO/plan/3`, `DEMO/review/5`, and `DEMO/project`, the marker every watched project leaves in a snapshot.
public enum QaseItem: String, Hashable, Sendable, CaseIterable {
    case testCase = "case", defect, plan, review, project
}

/// A project and one kind of item in it: the unit a poll asks for as a whole, or leaves as it was.
public struct QaseSegment: Hashable, Sendable, CustomStringConvertible {
    public let project: String
    public let item: QaseItem

    public init(_ project: String, _ item: QaseItem) {
        self.project = project
        self.item = item
    }

    public var description: String { "\(project) \(item.rawValue)s" }
}

/// Record keys: built from a project code and an id, and read back.
public enum QaseKey {
    public static func testCase(_ project: String, _ id: Int) -> RecordID { RecordID("\(project)-\(id)") }
    public static func defect(_ project: String, _ id: Int) -> RecordID { RecordID("\(project)/defect/\(id)") }
    public static func plan(_ project: String, _ id: Int) -> RecordID { RecordID("\(project)/plan/\(id)") }
    public static func review(_ project: String, _ id: Int) -> RecordID { RecordID("\(project)/review/\(id)") }
    public static func project(_ project: String) -> RecordID { RecordID("\(project)/project") }

    /// The project, kind and id a key names; `nil` for anything else. Read by bytes: `/` and `-` are ASCII, and
    /// a part that would differ from a split by characters starts with a combining mark, which no code, kind or
    /// id does. (Splitting by characters was a tenth of a steady poll: every record of both snapshots is parsed.)
    public static func parse(_ key: RecordID) -> (segment: QaseSegment, id: Int?)? {
        let utf8 = key.rawValue.utf8, slash = UInt8(ascii: "/")
        guard let first = utf8.firstIndex(of: slash) else {
            guard let dash = utf8.lastIndex(of: UInt8(ascii: "-")) else { return nil }
            let code = String(decoding: utf8[..<dash], as: UTF8.self)
            guard QaseProjectCode.isValid(code), let id = Int(Substring(utf8[utf8.index(after: dash)...])) else {
                return nil
            }
            return (QaseSegment(code, .testCase), id)
        }
        let code = String(decoding: utf8[..<first], as: UTF8.self)
        let rest = utf8[utf8.index(after: first)...]
        let second = rest.firstIndex(of: slash)
        guard QaseProjectCode.isValid(code),
            let item = QaseItem(rawValue: String(decoding: rest[..<(second ?? rest.endIndex)], as: UTF8.self)),
            item != .testCase
        else {
            return nil
        }
        guard let second else { return item == .project ? (QaseSegment(code, .project), nil) : nil }
        let id = rest[rest.index(after: second)...]
        guard item != .project, !id.contains(slash), let number = Int(Substring(id)) else { return nil }
        return (QaseSegment(code, item), number)
    }

    /// The same key in a renamed project (`DEMO-9` → `SHOP-9`); unchanged when it is not a key of `old`.
    public static func renamed(_ key: RecordID, from old: String, to new: String) -> RecordID {
        guard let (segment, id) = parse(key), segment.project == old else { return key }
        switch segment.item {
        case .testCase: return testCase(new, id ?? 0)
        case .defect: return defect(new, id ?? 0)
        case .plan: return plan(new, id ?? 0)
        case .review: return review(new, id ?? 0)
        case .project: return project(new)
        }
    }
}

/// Links into Qase's web app for a record (qase-api.md §9: the case and plan pages are known; a single defect's
/// and a review's are not, so those open the project's defect list and the project).
public enum QaseLink {
    public static func url(for record: RecordID, web: String) -> String? {
        guard let (segment, id) = QaseKey.parse(record), let id else { return nil }
        let code = segment.project
        switch segment.item {
        case .testCase: return "\(web)/case/\(code)-\(id)"
        case .plan: return "\(web)/plan/\(code)/\(id)"
        case .defect: return "\(web)/defect/\(code)"
        case .review, .project: return "\(web)/project/\(code)"
        }
    }
}
