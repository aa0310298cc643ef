import SourceKit
import TrackwatchCore

// GitHub's configuration: one `[[github]]` table per account (github.com, or a GitHub Enterprise Server), each a
// source of its own with its own token and its own state folder.

/// One `[[github]]` table.
public struct GitHubSettings: Equatable, Sendable {
    /// Unique among all sources; names the state folder (`sources/<name>`). Default `github`.
    public var name: String
    /// The REST API's base: `https://api.github.com`, or an Enterprise Server's `https://ghe.example.com/api/v3`.
    public var url: String
    public var credential: CredentialSource
    /// `owner/name` of the repositories to watch, lower-cased; `nil`: every repository the token can see.
    public var repos: [String]?
    public var ignoreBots: Bool
    public var caFile: String?
    public var insecure: Bool
    public var requestTimeout: Int
    public var proxy: ProxySetting

    public static let defaultName = "github", defaultURL = "https://api.github.com"

    public init(
        name: String = GitHubSettings.defaultName, url: String = GitHubSettings.defaultURL,
        credential: CredentialSource, repos: [String]? = nil, ignoreBots: Bool = false, caFile: String? = nil,
        insecure: Bool = false, requestTimeout: Int = 30, proxy: ProxySetting = .environment
    ) {
        self.name = name
        self.url = url
        self.credential = credential
        self.repos = repos
        self.ignoreBots = ignoreBots
        self.caFile = caFile
        self.insecure = insecure
        self.requestTimeout = requestTimeout
        self.proxy = proxy
    }

    public var connection: Connection {
        Connection(url: url, caFile: caFile, insecure: insecure, requestTimeout: requestTimeout, proxy: proxy)
    }

    /// The web UI: `https://github.com` for the public API, the Enterprise Server's host otherwise.
    var webBase: String {
        if ServerURL.host(of: url)?.lowercased() == "api.github.com" { return "https://github.com" }
        var base = url
        if base.hasSuffix("/api/v3") { base.removeLast("/api/v3".count) }
        return base
    }
}

extension GitHubSettings: SourceSettings {
    public var sourceName: String { name }
    public var trackerName: String { "GitHub" }
    public var label: String { name }
    public var stateFolder: String { "sources/\(name)" }
    /// The issue or pull request (`/issues/42` redirects to `/pull/42` on GitHub).
    public func link(for change: Change) -> String? {
        if let link = change.link { return link }
        guard let reference = GitHubReference(change.record.rawValue) else { return nil }
        return "\(webBase)/\(reference.repo)/issues/\(reference.number)"
    }
    /// A mute lifts when the state, the assignees or a review request change.
    public var ownerAndStateFields: [String] { [GitHubFields.state, GitHubFields.assignees, GitHubFields.reviewRequest] }
    public var files: [(key: String, path: String)] {
        var files: [(key: String, path: String)] = []
        if case .tokenFile(let path) = credential { files.append(("token_file", path)) }
        if let caFile { files.append(("ca_file", caFile)) }
        return files
    }
}

/// `owner/repo#42`: GitHub's own reference to an issue or pull request, checked before it names a record, a link or
/// a request.
struct GitHubReference: Equatable {
    let repo: String
    let number: Int

    init?(_ text: String) {
        guard let hash = text.lastIndex(of: "#"), let number = Int(text[text.index(after: hash)...]), number > 0,
            number < 1_000_000_000, GitHubRepo.isValid(String(text[..<hash]))
        else { return nil }
        repo = String(text[..<hash])
        self.number = number
    }

    init?(repo: String, number: Int) {
        self.init("\(repo)#\(number)")
    }

    var key: String { "\(repo)#\(number)" }
}

/// `owner/name` as GitHub allows them: letters, digits, `-`, `_`, `.`; checked before it goes into a path.
enum GitHubRepo {
    static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2
            && parts.allSatisfy { part in
                (1...100).contains(part.utf8.count) && part != "." && part != ".."
                    && part.utf8.allSatisfy {
                        (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                            || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E
                    }
            }
    }
}

/// `[[github]]` tables.
public struct GitHubSourceKind: SourceKind {
    public init() {}

    static let credentialKeys = ["token_file", "token_command", "credential", "keyring"]

    public var tables: [String: [String]] {
        ["github": ["name", "url"] + Self.credentialKeys + ["repos", "ignore_bots", "ca_file", "insecure", "timeout", "proxy"]]
    }
    public var sharedKeys: [String: [String]] { [:] }
    public var advice: String { "a [[github]] table with token_file" }

    public func sources(in root: TOMLTable, reader: ConfigReader) throws(ConfigError) -> [ConfiguredSource] {
        try reader.sourceTables(root, "github") { (table, line) throws(ConfigError) in try reader.github(table, line: line) }
    }
}

extension ConfigReader {
    func github(_ table: TOMLTable, line: Int?) throws(ConfigError) -> GitHubSettings {
        let name = try sourceName(table, "github", default: GitHubSettings.defaultName, line: line)
        let url = try githubURL(table)
        guard
            let credential = try credential(
                table, "github", keys: GitHubSourceKind.credentialKeys,
                keyringAttributes: ["service", "trackwatch", "server", url, "user", name])
        else {
            throw ConfigError(
                file: file, line: table["keyring"]?.line ?? line, key: "github.token_file",
                message: "missing; add token_file = \"~/.config/trackwatch/github-token\" (a personal access token: "
                    + "GitHub, Settings, Developer settings), or token_command, credential or keyring = true")
        }
        var settings = GitHubSettings(name: name, url: url, credential: credential)
        if let repos = try stringArray(table, "github", "repos") {
            guard !repos.isEmpty else {
                throw error(
                    table["repos"], "github.repos",
                    "expected owner/name such as [\"acme/web\"]; leave repos out to watch every repository")
            }
            if let bad = repos.first(where: { !GitHubRepo.isValid($0) }) {
                throw error(
                    table["repos"], "github.repos", "expected owner/name such as \"acme/web\", found \"\(bad.prefix(60))\"")
            }
            settings.repos = repos.map { $0.lowercased() }
        }
        settings.ignoreBots = try boolean(table, "github", "ignore_bots") ?? false
        settings.caFile = try string(table, "github", "ca_file").map(resolved)
        settings.insecure = try boolean(table, "github", "insecure") ?? false
        settings.requestTimeout = try duration(table, "github", "timeout", range: 1...600) ?? settings.requestTimeout
        settings.proxy = try proxy(table, "github")
        return settings
    }

    private func githubURL(_ table: TOMLTable) throws(ConfigError) -> String {
        try serverURL(
            table, "github", "url",
            expected: "https://api.github.com, or an Enterprise Server's https://ghe.example.com/api/v3")
            ?? GitHubSettings.defaultURL
    }
}
