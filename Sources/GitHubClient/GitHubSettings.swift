import SourceKit
import TrackwatchCore

// GitHub's configuration: one `[[github]]` table per account (github.com, or a GitHub Enterprise Server), each a
// source of its own with its own token and its own state folder.

/// One `[[github]]` table.
public struct GitHubSettings: TrackerSettings {
    public static let table = "github"
    /// `url`: the REST API's base, `https://api.github.com`, or an Enterprise Server's
    /// `https://ghe.example.com/api/v3`. Default name `github`.
    public var account: TrackerAccount
    /// `owner/name` of the repositories to watch, lower-cased; `nil`: every repository the token can see.
    public var repos: [String]?
    public var ignoreBots = false

    public static let defaultName = "github", defaultURL = "https://api.github.com"

    /// The other keys as when left out; the reader sets them.
    public init(account: TrackerAccount) { self.account = account }

    /// The web UI: `https://github.com` for the public API, the Enterprise Server's host otherwise.
    var webBase: String {
        if ServerURL.host(of: url)?.lowercased() == "api.github.com" { return "https://github.com" }
        var base = url
        if base.hasSuffix("/api/v3") { base.removeLast("/api/v3".count) }
        return base
    }

    public var trackerName: String { "GitHub" }
    /// The issue or pull request (`/issues/42` redirects to `/pull/42` on GitHub).
    public func link(for change: Change) -> String? {
        if let link = change.link { return link }
        guard let reference = GitHubReference(change.record.rawValue) else { return nil }
        return "\(webBase)/\(reference.repo)/issues/\(reference.number)"
    }
    /// A mute lifts when the state, the assignees or a review request change.
    public var ownerAndStateFields: [String] { [GitHubFields.state, GitHubFields.assignees, GitHubFields.reviewRequest] }
}

/// `owner/repo#42`: GitHub's own reference to an issue or pull request.
typealias GitHubReference = ForgeReference
typealias GitHubRepo = ForgeRepo

/// `[[github]]` tables.
public struct GitHubSourceKind: TrackerSourceKind {
    public init() {}

    public var ownKeys: [String] { ["repos", "ignore_bots"] }

    public func read(_ table: TOMLTable, line: Int?, reader: ConfigReader) throws(ConfigError) -> GitHubSettings {
        try reader.github(table, line: line)
    }
}

extension ConfigReader {
    func github(_ table: TOMLTable, line: Int?) throws(ConfigError) -> GitHubSettings {
        let name = try sourceName(table, "github", default: GitHubSettings.defaultName, line: line)
        let url = try serverURL(
            table, "github", "url",
            expected: "https://api.github.com, or an Enterprise Server's https://ghe.example.com/api/v3")
            ?? GitHubSettings.defaultURL
        let credential = try requiredCredential(
            table, "github", url: url, user: name, line: line,
            missing: Self.missingToken("github", "a personal access token: GitHub, Settings, Developer settings"))
        var settings = GitHubSettings(
            account: try account(table, "github", name: name, url: url, credential: credential))
        settings.repos = try watchedPaths(
            table, "github", "repos", one: "owner/name", many: "owner/name", example: "acme/web",
            everything: "every repository", isValid: GitHubRepo.isValid)
        settings.ignoreBots = try boolean(table, "github", "ignore_bots") ?? false
        return settings
    }
}
