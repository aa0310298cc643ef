import SourceKit
import TrackwatchCore

// Forgejo's configuration: one `[[forgejo]]` table per account (Codeberg, a Forgejo or a Gitea server), each a
// source of its own with its own token and its own state folder.

/// One `[[forgejo]]` table.
public struct ForgejoSettings: Equatable, Sendable {
    /// Unique among all sources; names the state folder (`sources/<name>`). Default `forgejo`.
    public var name: String
    /// The web root (`https://codeberg.org`, or a self-hosted base with a sub-path); the API is under `/api/v1`.
    public var url: String
    public var credential: CredentialSource
    /// `owner/name` of the repositories to watch, lower-cased; `nil`: every repository the token can see.
    public var repos: [String]?
    public var ignoreBots = false
    public var caFile: String?
    public var insecure = false
    public var requestTimeout = 30
    public var proxy = ProxySetting.environment

    public static let defaultName = "forgejo"

    public init(name: String = ForgejoSettings.defaultName, url: String, credential: CredentialSource) {
        self.name = name
        self.url = url
        self.credential = credential
    }

    public var connection: Connection {
        Connection(url: url, caFile: caFile, insecure: insecure, requestTimeout: requestTimeout, proxy: proxy)
    }
}

extension ForgejoSettings: SourceSettings {
    public var sourceName: String { name }
    public var trackerName: String { "Forgejo" }
    public var label: String { name }
    public var stateFolder: String { "sources/\(name)" }
    /// The issue or pull request (`/issues/42` redirects to `/pulls/42` for a pull request).
    public func link(for change: Change) -> String? {
        if let link = change.link { return link }
        guard let reference = ForgejoReference(change.record.rawValue) else { return nil }
        return "\(url)/\(reference.repo)/issues/\(reference.index)"
    }
    /// A mute lifts when the state, the assignees or a review request change.
    public var ownerAndStateFields: [String] {
        [ForgejoFields.state, ForgejoFields.assignees, ForgejoFields.reviewRequest]
    }
    public var files: [(key: String, path: String)] {
        var files: [(key: String, path: String)] = []
        if case .tokenFile(let path) = credential { files.append(("token_file", path)) }
        if let caFile { files.append(("ca_file", caFile)) }
        return files
    }
}

/// `owner/repo#42`: an issue or pull request, checked before it names a record, a link or a request.
struct ForgejoReference: Equatable {
    let repo: String
    let index: Int

    init?(_ text: String) {
        guard let hash = text.lastIndex(of: "#"), let index = Int(text[text.index(after: hash)...]), index > 0,
            index < 1_000_000_000, ForgejoReference.isRepo(String(text[..<hash]))
        else { return nil }
        repo = String(text[..<hash])
        self.index = index
    }

    var key: String { "\(repo)#\(index)" }

    /// `owner/name` as Forgejo allows them: letters, digits, `-`, `_`, `.`; checked before it goes into a path.
    static func isRepo(_ text: String) -> Bool {
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

/// `[[forgejo]]` tables.
public struct ForgejoSourceKind: SourceKind {
    public init() {}

    static let credentialKeys = ["token_file", "token_command", "credential", "keyring"]

    public var tables: [String: [String]] {
        [
            "forgejo": ["name", "url"] + Self.credentialKeys + [
                "repos", "ignore_bots", "ca_file", "insecure", "timeout", "proxy",
            ]
        ]
    }
    public var sharedKeys: [String: [String]] { [:] }
    public var advice: String { "a [[forgejo]] table with url and token_file" }

    public func sources(in root: TOMLTable, reader: ConfigReader) throws(ConfigError) -> [ConfiguredSource] {
        try reader.sourceTables(root, "forgejo") { (table, line) throws(ConfigError) in
            try reader.forgejo(table, line: line)
        }
    }
}

extension ConfigReader {
    func forgejo(_ table: TOMLTable, line: Int?) throws(ConfigError) -> ForgejoSettings {
        let name = try sourceName(table, "forgejo", default: ForgejoSettings.defaultName, line: line)
        guard var url = try serverURL(table, "forgejo", "url", expected: "the web root, such as https://codeberg.org")
        else {
            throw ConfigError(
                file: file, line: line, key: "forgejo.url", message: "missing; add url = \"https://codeberg.org\"")
        }
        while url.hasSuffix("/") { url.removeLast() }
        guard
            let credential = try credential(
                table, "forgejo", keys: ForgejoSourceKind.credentialKeys,
                keyringAttributes: ["service", "trackwatch", "server", url, "user", name])
        else {
            throw ConfigError(
                file: file, line: table["keyring"]?.line ?? line, key: "forgejo.token_file",
                message: "missing; add token_file = \"~/.config/trackwatch/forgejo-token\" (an access token with "
                    + "read:user, read:issue and read:repository), or token_command, credential or keyring = true")
        }
        var settings = ForgejoSettings(name: name, url: url, credential: credential)
        if let repos = try stringArray(table, "forgejo", "repos") {
            guard !repos.isEmpty, repos.allSatisfy(ForgejoReference.isRepo) else {
                throw error(table["repos"], "forgejo.repos", "expected owner/name such as [\"acme/web\"], or no repos")
            }
            settings.repos = repos.map { $0.lowercased() }
        }
        settings.ignoreBots = try boolean(table, "forgejo", "ignore_bots") ?? false
        settings.caFile = try string(table, "forgejo", "ca_file").map(resolved)
        settings.insecure = try boolean(table, "forgejo", "insecure") ?? false
        settings.requestTimeout = try duration(table, "forgejo", "timeout", range: 1...600) ?? settings.requestTimeout
        settings.proxy = try proxy(table, "forgejo")
        return settings
    }
}
