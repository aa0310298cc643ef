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
