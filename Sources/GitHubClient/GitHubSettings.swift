import SourceKit
import TrackwatchCore

/// One `[[github]]` table: an account (github.com, or a GitHub Enterprise Server), a source of its own with its own
/// token and its own state folder.
public struct GitHubSettings: ForgeSettings {
    public static let table = "github"
    /// `url`: the REST API's base, `https://api.github.com`, or an Enterprise Server's
    /// `https://ghe.example.com/api/v3`. Default name `github`.
    public var account: TrackerAccount
    /// `owner/name` of the repositories to watch, lower-cased; `nil`: every repository the token can see.
    public var repos: [String]?
    public var ignoreBots = false

    /// The other keys as when left out; the reader sets them.
    public init(account: TrackerAccount) { self.account = account }

    /// The web UI: `https://github.com` for the public API, the Enterprise Server's host otherwise.
    var webBase: String {
        if ServerURL.host(of: url)?.lowercased() == "api.github.com" { return "https://github.com" }
        return url.hasSuffix("/api/v3") ? String(url.dropLast("/api/v3".count)) : url
    }

    public var trackerName: String { "GitHub" }
    /// The issue or pull request (`/issues/42` redirects to `/pull/42` on GitHub).
    public func link(for change: Change) -> String? {
        change.link ?? GitHubReference(change.record.rawValue).map { "\(webBase)/\($0.repo)/issues/\($0.number)" }
    }
}

/// `owner/repo#42`: GitHub's own reference to an issue or pull request.
typealias GitHubReference = ForgeReference

/// `[[github]]` tables.
public struct GitHubSourceKind: TrackerSourceKind {
    public init() {}

    public var ownKeys: [String] { ["repos", "ignore_bots"] }

    public func read(_ table: TOMLTable, line: Int?, reader: ConfigReader) throws(ConfigError) -> GitHubSettings {
        var settings = GitHubSettings(
            account: try reader.tokenAccount(
                table, "github", defaultName: "github", line: line,
                token: "a personal access token: GitHub, Settings, Developer settings"
            ) { (table) throws(ConfigError) in
                try reader.trackerURL(
                    table, "github",
                    expected: "https://api.github.com, or an Enterprise Server's https://ghe.example.com/api/v3",
                    fallback: "https://api.github.com", line: line)
            })
        settings.repos = try reader.watchedPaths(
            table, "github", "repos", one: "owner/name", many: "owner/name", example: "acme/web",
            everything: "every repository", isValid: ForgeRepo.isValid)
        settings.ignoreBots = try reader.boolean(table, "github", "ignore_bots") ?? false
        return settings
    }
}
