import SourceKit
import TrackwatchCore

/// One `[[gitlab]]` table: an account (gitlab.com, or a self-managed instance), a source of its own with its own token
/// and its own state folder.
public struct GitLabSettings: ForgeSettings {
    public static let table = "gitlab"
    /// `url`: the instance without `/api/v4` (`https://gitlab.com`, `https://gitlab.example.com`); name `gitlab`.
    public var account: TrackerAccount
    /// Project paths to watch (`platform/web`), lower-cased; `nil`: everything the token can see.
    public var projects: [String]?
    public var ignoreBots = false

    /// The other keys as when left out; the reader sets them.
    public init(account: TrackerAccount) { self.account = account }

    public var trackerName: String { "GitLab" }
    /// `platform/web#42` → `<url>/platform/web/-/issues/42`; `platform/web!7` → `…/-/merge_requests/7`.
    public func link(for change: Change) -> String? {
        change.link ?? GitLabReference(change.record.rawValue).map { "\(url)/\($0.webPath)" }
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
    /// The item's page under the instance's url.
    var webPath: String { "\(project)/-/\(isMergeRequest ? "merge_requests" : "issues")/\(iid)" }
}

/// A project's full path (`group/subgroup/project`): letters, digits, `-`, `_`, `.`, at least two segments.
enum GitLabProject {
    static func isValid(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return (2...20).contains(parts.count) && path.utf8.count <= 255 && parts.allSatisfy(PathSegment.isPlain)
    }
}

/// `[[gitlab]]` tables.
public struct GitLabSourceKind: TrackerSourceKind {
    public init() {}

    public var ownKeys: [String] { ["projects", "ignore_bots"] }

    public func read(_ table: TOMLTable, line: Int?, reader: ConfigReader) throws(ConfigError) -> GitLabSettings {
        var settings = GitLabSettings(
            account: try reader.tokenAccount(
                table, "gitlab", defaultName: "gitlab", line: line,
                token: "a personal access token with the read_api scope: GitLab, Preferences, Access tokens"
            ) { (table) throws(ConfigError) in
                try reader.trackerURL(
                    table, "gitlab", expected: "your GitLab, such as https://gitlab.example.com",
                    fallback: "https://gitlab.com", line: line, apiPath: "/api/v4",
                    withoutAPI: "give the instance without /api/v4, e.g. https://gitlab.example.com")
            })
        settings.projects = try reader.watchedPaths(
            table, "gitlab", "projects", one: "a project's full path", many: "project paths", example: "platform/web",
            everything: "everything", isValid: GitLabProject.isValid)
        settings.ignoreBots = try reader.boolean(table, "gitlab", "ignore_bots") ?? false
        return settings
    }
}
