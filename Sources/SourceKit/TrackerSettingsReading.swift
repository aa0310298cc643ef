import TrackwatchCore

extension ConfigReader {
    /// `url` of a tracker's table as a server's URL (`serverURL`, whose error says `expected`). Left out, it is
    /// `fallback`, or else an error at the table's `line` that says `missing`. A URL that holds `apiPath` is refused
    /// with `withoutAPI`: the tracker picks its API (and its version) itself.
    public func trackerURL(
        _ table: TOMLTable, _ kind: String, expected: String, fallback: String? = nil, missing: String = "",
        line: Int?, apiPath: String? = nil, withoutAPI: String = ""
    ) throws(ConfigError) -> String {
        guard let url = try serverURL(table, kind, "url", expected: expected) else {
            if let fallback { return fallback }
            throw ConfigError(file: file, line: line, key: "\(kind).url", message: missing)
        }
        if let apiPath, url.lowercased().contains(apiPath) { throw error(table["url"], "\(kind).url", withoutAPI) }
        return url
    }
}
