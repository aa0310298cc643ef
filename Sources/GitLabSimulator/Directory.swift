/// A GitLab user of the fixture: a person, or a project access token's bot user (`bot: true`).
struct User: Sendable, Equatable {
    let username: String
    let id: Int
    let name: String
    let bot: Bool

    var email: String { bot ? "\(username)@noreply.gitlab.test" : "\(username)@example.com" }
    /// `@username`, as system notes name users.
    var reference: String { "@" + username }
}

/// A project of the group `platform`; `path` changes with `POST /sim/rename-project`, `id` never does.
struct Project: Sendable {
    let id: Int
    var path: String
    /// Paths it had before a rename; GETs naming them still find it (GitLab follows project redirects).
    var formerPaths: [String] = []
    let visibility: String
    var nextIssueIID: Int
    var nextMergeRequestIID: Int

    var fullPath: String { "\(Directory.group.path)/\(path)" }
}

/// A user's access to a project, set by `POST /sim/access`: `none` hides it (404), `forbidden` makes it a member
/// without the right to read issues and merge requests (403), `member` (the default) reads and writes.
enum AccessLevel: String, Codable, Sendable {
    case none, forbidden, member
}

/// The fixture's users, tokens, group and milestones (docs/gitlab-sim.md, "Users and tokens"); an index into
/// `users` stands for a user.
enum Directory {
    static let users: [User] = [
        User(username: "engineer", id: 101, name: "Eve Engineer", bot: false),
        User(username: "alice", id: 102, name: "Alice Example", bot: false),
        User(username: "lead", id: 103, name: "Lena Lead", bot: false),
        User(username: "project_42_bot_1a2b", id: 104, name: "web-deploy bot", bot: true),
    ]
    static let engineer = 0, alice = 1, lead = 2, bot = 3

    static let group = (id: 51, path: "platform", name: "Platform")

    /// Every project has these milestones; a milestone's id is `project id · 100 + iid`.
    static let milestones = [1: "v1.0", 2: "v2.0"]

    static func milestoneID(project: Int, iid: Int) -> Int { project * 100 + iid }

    static func token(of user: Int) -> String { "glpat-sim-" + users[user].username }

    /// The index of the user with this username (case-insensitive), or nil.
    static func user(named username: String) -> Int? {
        let bare = username.hasPrefix("@") ? String(username.dropFirst()) : username
        return users.firstIndex { $0.username.lowercased() == bare.lowercased() }
    }

    static func user(id: Int) -> Int? { users.firstIndex { $0.id == id } }

    /// The user a request authenticates as: `PRIVATE-TOKEN: T` or `Authorization: Bearer T`; nil for none or an
    /// unknown token.
    static func user(privateToken: String?, authorization: String?) -> Int? {
        var text = privateToken?.trimmed
        if text == nil, let header = authorization {
            let parts = header.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2, parts[0].lowercased() == "bearer" { text = parts[1].trimmed }
        }
        guard let text else { return nil }
        return users.indices.first { token(of: $0) == text }
    }
}
