import TrackwatchCore

extension ConfigReader {
    /// What a table narrows the watch to (`repos = ["acme/web"]`, `projects = ["platform/web"]`), lower-cased; `nil`
    /// when left out. An empty list, or a path `isValid` refuses, is an error that shows the form (`one`, `many`)
    /// with `example`, and says what leaving the key out watches (`everything`).
    public func watchedPaths(
        _ table: TOMLTable, _ kind: String, _ key: String, one: String, many: String, example: String,
        everything: String, isValid: (String) -> Bool
    ) throws(ConfigError) -> [String]? {
        guard let paths = try stringArray(table, kind, key) else { return nil }
        guard !paths.isEmpty else {
            throw error(
                table[key], "\(kind).\(key)",
                "expected \(many) such as [\"\(example)\"]; leave \(key) out to watch \(everything)")
        }
        if let bad = paths.first(where: { !isValid($0) }) {
            throw error(
                table[key], "\(kind).\(key)", "expected \(one) such as \"\(example)\", found \"\(bad.prefix(60))\"")
        }
        return paths.map { $0.lowercased() }
    }
}

/// What `watchedPaths` read, as a poll asks it.
public enum WatchedPaths {
    /// Whether an item at `path` (`acme/web`, in any case) is watched: every item where `watched` is `nil`, else one
    /// at a path among them; an item whose path is unknown is not.
    public static func include(_ watched: [String]?, _ path: String?) -> Bool {
        guard let watched else { return true }
        return path.map { watched.contains($0.lowercased()) } ?? false
    }
}
