import TrackwatchCore

/// A project as a poll knows it: its code now, its title, and the codes it had before.
public struct QaseProject: Equatable, Sendable {
    public var code: String
    public var title: String
    /// Former codes, oldest first (a renamed project is still found by them).
    public var was: [String] = []

    public init(code: String, title: String, was: [String] = []) {
        self.code = code
        self.title = title
        self.was = was
    }

    /// At most this many former codes are kept.
    static let formerCodeLimit = 5

    /// The project's marker in a snapshot (`DEMO/project`).
    var marker: Record { QaseRecords.projectMarker(code, title: title, was: was) }

    /// The projects whose markers are in `snapshot`.
    static func known(in snapshot: Snapshot?) -> [QaseProject] {
        (snapshot?.sortedRecords ?? []).compactMap { record in
            guard let (segment, _) = QaseKey.parse(record.id), segment.item == .project else { return nil }
            let was = (record["was"] ?? "").split(separator: ",").map(String.init)
            return QaseProject(code: segment.project, title: record[QaseFields.title] ?? "", was: was)
        }
    }
}

/// Which projects one poll asks, and which renames it applies. Qase has no project id, and a project's code can
/// change (qase-api.md §7), which changes every key in it: a known code that is gone while a new code with the
/// same title appeared is that project renamed, and its items keep their history under the new code instead of
/// leaving and arriving all at once.
public struct QaseProjectPlan: Equatable, Sendable {
    /// The projects to ask, with their former codes.
    public var targets: [QaseProject] = []
    /// Old code → new code.
    public var renames: [String: String] = [:]
    /// Configured codes that are neither visible nor a known project's former code.
    public var missing: [String] = []

    /// - Parameters:
    ///   - configured: the `projects` key, or `nil` for every visible project.
    ///   - visible: what `GET /project` lists now.
    ///   - known: the projects the last polls asked (their markers).
    public init(configured: [String]?, visible: [QaseProject], known listed: [QaseProject]) {
        var known: [QaseProject] = []  // each code once: every watch keeps its own markers
        for project in listed where !known.contains(where: { $0.code == project.code }) { known.append(project) }
        let visibleCodes = Set(visible.map(\.code)), knownCodes = Set(known.map(\.code))
        for old in known where !visibleCodes.contains(old.code) {
            let sameTitle = visible.filter { $0.title == old.title && !knownCodes.contains($0.code) }
            let twins = known.filter { $0.title == old.title && !visibleCodes.contains($0.code) }
            if sameTitle.count == 1, twins.count == 1, !old.title.isEmpty { renames[old.code] = sameTitle[0].code }
        }
        let renamedFrom = Dictionary(renames.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        func former(_ code: String) -> [String] {
            guard let old = renamedFrom[code] else { return known.first { $0.code == code }?.was ?? [] }
            let earlier = known.first { $0.code == old }?.was ?? []
            return Array((earlier + [old]).suffix(QaseProject.formerCodeLimit))
        }
        let chosen: [QaseProject]
        if let configured {
            var picked: [QaseProject] = []
            for code in configured {
                let project =
                    visible.first { $0.code == code }
                    ?? visible.first { former($0.code).contains(code) || renames[code] == $0.code }
                if let project {
                    if !picked.contains(where: { $0.code == project.code }) { picked.append(project) }
                } else {
                    missing.append(code)
                }
            }
            chosen = picked
        } else {
            chosen = visible
        }
        targets = chosen.map { QaseProject(code: $0.code, title: $0.title, was: former($0.code)) }
    }

    /// Configured codes that now name another code: the configuration should say the new one.
    public func outdated(configured: [String]?) -> [(old: String, new: String)] {
        guard let configured else { return [] }
        return configured.compactMap { code in
            targets.contains { $0.code == code } ? nil : targets.first { $0.was.contains(code) }.map { (code, $0.code) }
        }
    }
}
