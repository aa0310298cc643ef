import SourceKit
import TrackwatchCore

// GitLab's configuration: one `[[gitlab]]` table per account (gitlab.com, or a self-managed instance), each a
// source of its own with its own token and its own state folder.

/// One `[[gitlab]]` table.
public struct GitLabSettings: TrackerSettings {
    public static let table = "gitlab"
    /// `url`: the instance, without `/api/v4`: `https://gitlab.com`, `https://gitlab.example.com`. Default name
    /// `gitlab`.
    public var account: TrackerAccount
    /// Project paths to watch (`platform/web`), lower-cased; `nil`: everything the token can see.
    public var projects: [String]?
    public var ignoreBots = false

    public static let defaultName = "gitlab", defaultURL = "https://gitlab.com"

    /// The other keys as when left out; the reader sets them.
    public init(account: TrackerAccount) { self.account = account }

    /// The API's base.
    var api: String { url + "/api/v4" }

    public var trackerName: String { "GitLab" }
    /// `platform/web#42` → `<url>/platform/web/-/issues/42`; `platform/web!7` → `…/-/merge_requests/7`.
    public func link(for change: Change) -> String? {
        if let link = change.link { return link }
        guard let reference = GitLabReference(change.record.rawValue) else { return nil }
        return "\(url)/\(reference.project)/-/\(reference.isMergeRequest ? "merge_requests" : "issues")/\(reference.iid)"
    }
    public var ownerAndStateFields: [String] { [GitLabFields.state, GitLabFields.assignees, GitLabFields.reviewers] }
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
            && parts.allSatisfy(PathSegment.isPlain)
    }
}

/// `[[gitlab]]` tables.
public struct GitLabSourceKind: TrackerSourceKind {
    public init() {}

    public var ownKeys: [String] { ["projects", "ignore_bots"] }

    public func read(_ table: TOMLTable, line: Int?, reader: ConfigReader) throws(ConfigError) -> GitLabSettings {
        try reader.gitlab(table, line: line)
    }
}

extension ConfigReader {
    func gitlab(_ table: TOMLTable, line: Int?) throws(ConfigError) -> GitLabSettings {
        let name = try sourceName(table, "gitlab", default: GitLabSettings.defaultName, line: line)
        let url = try gitlabURL(table)
        let credential = try requiredCredential(
            table, "gitlab", url: url, user: name, line: line,
            missing: Self.missingToken(
                "gitlab", "a personal access token with the read_api scope: GitLab, Preferences, Access tokens"))
        var settings = GitLabSettings(
            account: try account(table, "gitlab", name: name, url: url, credential: credential))
        settings.projects = try watchedPaths(
            table, "gitlab", "projects", one: "a project's full path", many: "project paths", example: "platform/web",
            everything: "everything", isValid: GitLabProject.isValid)
        settings.ignoreBots = try boolean(table, "gitlab", "ignore_bots") ?? false
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
