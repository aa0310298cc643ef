import SourceKit
import TrackwatchCore

// GitLab's configuration: one `[[gitlab]]` table per account (gitlab.com, or a self-managed instance), each a
// source of its own with its own token and its own state folder.

/// One `[[gitlab]]` table.
public struct GitLabSettings: Equatable, Sendable {
    /// Unique among all sources; names the state folder (`sources/<name>`). Default `gitlab`.
    public var name: String
    /// The instance, without `/api/v4`: `https://gitlab.com`, `https://gitlab.example.com`.
    public var url: String
    public var credential: CredentialSource
    /// Project paths to watch (`platform/web`), lower-cased; `nil`: everything the token can see.
    public var projects: [String]?
    public var ignoreBots: Bool
    public var caFile: String?
    public var insecure: Bool
    public var requestTimeout: Int
    public var proxy: ProxySetting

    public static let defaultName = "gitlab", defaultURL = "https://gitlab.com"

    public init(
        name: String = GitLabSettings.defaultName, url: String = GitLabSettings.defaultURL,
        credential: CredentialSource, projects: [String]? = nil, ignoreBots: Bool = false, caFile: String? = nil,
        insecure: Bool = false, requestTimeout: Int = 30, proxy: ProxySetting = .environment
    ) {
        self.name = name
        self.url = url
        self.credential = credential
        self.projects = projects
        self.ignoreBots = ignoreBots
        self.caFile = caFile
        self.insecure = insecure
        self.requestTimeout = requestTimeout
        self.proxy = proxy
    }

    public var connection: Connection {
        Connection(url: url, caFile: caFile, insecure: insecure, requestTimeout: requestTimeout, proxy: proxy)
    }

    /// The API's base.
    var api: String { url + "/api/v4" }
}

extension GitLabSettings: SourceSettings {
    public var sourceName: String { name }
    public var trackerName: String { "GitLab" }
    public var label: String { name }
    public var stateFolder: String { "sources/\(name)" }
    /// `platform/web#42` → `<url>/platform/web/-/issues/42`; `platform/web!7` → `…/-/merge_requests/7`.
    public func link(for change: Change) -> String? {
        if let link = change.link { return link }
        guard let reference = GitLabReference(change.record.rawValue) else { return nil }
        return "\(url)/\(reference.project)/-/\(reference.isMergeRequest ? "merge_requests" : "issues")/\(reference.iid)"
    }
    public var ownerAndStateFields: [String] { [GitLabFields.state, GitLabFields.assignees, GitLabFields.reviewers] }
    public var files: [(key: String, path: String)] {
        var files: [(key: String, path: String)] = []
        if case .tokenFile(let path) = credential { files.append(("token_file", path)) }
        if let caFile { files.append(("ca_file", caFile)) }
        return files
    }
}

/// `group/project#42` (an issue) or `group/project!7` (a merge request): GitLab's own references, checked before
/// they name a record, a link or a request.
struct GitLabReference: Equatable {
    let project: String
    let iid: Int
    let isMergeRequest: Bool

    init?(_ text: String) {
        guard let mark = text.lastIndex(where: { $0 == "#" || $0 == "!" }), let iid = Int(text[text.index(after: mark)...]),
            iid > 0, iid < 1_000_000_000, GitLabProject.isValid(String(text[..<mark]))
        else { return nil }
        project = String(text[..<mark])
        self.iid = iid
        isMergeRequest = text[mark] == "!"
    }

    var key: String { "\(project)\(isMergeRequest ? "!" : "#")\(iid)" }
}

/// A project's full path (`group/subgroup/project`): letters, digits, `-`, `_`, `.`, at least two segments.
enum GitLabProject {
    static func isValid(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return (2...20).contains(parts.count) && path.utf8.count <= 255
            && parts.allSatisfy { part in
                !part.isEmpty && part != "." && part != ".."
                    && part.utf8.allSatisfy {
                        (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                            || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E
                    }
            }
    }
}

/// `[[gitlab]]` tables.
public struct GitLabSourceKind: SourceKind {
    public init() {}

    static let credentialKeys = ["token_file", "token_command", "credential", "keyring"]

    public var tables: [String: [String]] {
        ["gitlab": ["name", "url"] + Self.credentialKeys + ["projects", "ignore_bots", "ca_file", "insecure", "timeout", "proxy"]]
    }
    public var sharedKeys: [String: [String]] { [:] }
    public var advice: String { "a [[gitlab]] table with token_file" }

    public func sources(in root: TOMLTable, reader: ConfigReader) throws(ConfigError) -> [ConfiguredSource] {
        try reader.sourceTables(root, "gitlab") { (table, line) throws(ConfigError) in try reader.gitlab(table, line: line) }
    }
}

extension ConfigReader {
    func gitlab(_ table: TOMLTable, line: Int?) throws(ConfigError) -> GitLabSettings {
        let name = try sourceName(table, "gitlab", default: GitLabSettings.defaultName, line: line)
        let url = try gitlabURL(table)
        guard
            let credential = try credential(
                table, "gitlab", keys: GitLabSourceKind.credentialKeys,
                keyringAttributes: ["service", "trackwatch", "server", url, "user", name])
        else {
            throw ConfigError(
                file: file, line: table["keyring"]?.line ?? line, key: "gitlab.token_file",
                message: "missing; add token_file = \"~/.config/trackwatch/gitlab-token\" (a personal access token "
                    + "with the read_api scope: GitLab, Preferences, Access tokens), or token_command, credential "
                    + "or keyring = true")
        }
        var settings = GitLabSettings(name: name, url: url, credential: credential)
        if let projects = try stringArray(table, "gitlab", "projects") {
            guard !projects.isEmpty else {
                throw error(
                    table["projects"], "gitlab.projects",
                    "expected project paths such as [\"platform/web\"]; leave projects out to watch everything")
            }
            if let bad = projects.first(where: { !GitLabProject.isValid($0) }) {
                throw error(
                    table["projects"], "gitlab.projects",
                    "expected a project's full path such as \"platform/web\", found \"\(bad.prefix(60))\"")
            }
            settings.projects = projects.map { $0.lowercased() }
        }
        settings.ignoreBots = try boolean(table, "gitlab", "ignore_bots") ?? false
        settings.caFile = try string(table, "gitlab", "ca_file").map(resolved)
        settings.insecure = try boolean(table, "gitlab", "insecure") ?? false
        settings.requestTimeout = try duration(table, "gitlab", "timeout", range: 1...600) ?? settings.requestTimeout
        settings.proxy = try proxy(table, "gitlab")
        return settings
    }

    private func gitlabURL(_ table: TOMLTable) throws(ConfigError) -> String {
        guard let url = try serverURL(table, "gitlab", "url", expected: "your GitLab, such as https://gitlab.example.com")
        else { return GitLabSettings.defaultURL }
        if url.lowercased().hasSuffix("/api/v4") {
            throw error(table["url"], "gitlab.url", "give the instance without /api/v4, e.g. https://gitlab.example.com")
        }
        return url
    }
}
