import SourceKit
import TrackwatchCore

// Forgejo's configuration: one `[[forgejo]]` table per account (Codeberg, a Forgejo or a Gitea server), each a
// source of its own with its own token and its own state folder.

/// One `[[forgejo]]` table.
public struct ForgejoSettings: ForgeSettings {
    public static let table = "forgejo"
    /// `url`: the web root (`https://codeberg.org`, or a self-hosted base with a sub-path); the API is under
    /// `/api/v1`. Default name `forgejo`.
    public var account: TrackerAccount
    /// `owner/name` of the repositories to watch, lower-cased; `nil`: every repository the token can see.
    public var repos: [String]?
    public var ignoreBots = false

    public static let defaultName = "forgejo"

    /// The other keys as when left out; the reader sets them.
    public init(account: TrackerAccount) { self.account = account }

    public var trackerName: String { "Forgejo" }
    /// The issue or pull request (`/issues/42` redirects to `/pulls/42` for a pull request).
    public func link(for change: Change) -> String? {
        if let link = change.link { return link }
        guard let reference = ForgejoReference(change.record.rawValue) else { return nil }
        return "\(url)/\(reference.repo)/issues/\(reference.number)"
    }
}

/// `owner/repo#42`: an issue or pull request.
typealias ForgejoReference = ForgeReference

extension ForgeReference {
    /// `/api/v1/repos/owner/name/issues/42` and the like, under the web root.
    func path(_ kind: String = "issues", _ tail: String = "") -> String {
        "/api/v1/repos/\(repo)/\(kind)/\(number)\(tail)"
    }
}

/// `[[forgejo]]` tables.
public struct ForgejoSourceKind: TrackerSourceKind {
    public init() {}

    public var ownKeys: [String] { ["repos", "ignore_bots"] }
    public var advice: String { "a [[forgejo]] table with url and token_file" }

    public func read(_ table: TOMLTable, line: Int?, reader: ConfigReader) throws(ConfigError) -> ForgejoSettings {
        try reader.forgejo(table, line: line)
    }
}

extension ConfigReader {
    func forgejo(_ table: TOMLTable, line: Int?) throws(ConfigError) -> ForgejoSettings {
        var settings = ForgejoSettings(
            account: try tokenAccount(
                table, "forgejo", defaultName: ForgejoSettings.defaultName, line: line,
                token: "an access token with read:user, read:issue and read:repository"
            ) { (table) throws(ConfigError) in
                try trackerURL(
                    table, "forgejo", expected: "the web root, such as https://codeberg.org",
                    missing: "missing; add url = \"https://codeberg.org\"", line: line)
            })
        if let repos = try stringArray(table, "forgejo", "repos") {
            guard !repos.isEmpty, repos.allSatisfy(ForgeRepo.isValid) else {
                throw error(table["repos"], "forgejo.repos", "expected owner/name such as [\"acme/web\"], or no repos")
            }
            settings.repos = repos.map { $0.lowercased() }
        }
        settings.ignoreBots = try boolean(table, "forgejo", "ignore_bots") ?? false
        return settings
    }
}
