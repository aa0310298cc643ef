import SourceKit
import TrackwatchCore

// GitLab's answers (REST v4) as trackwatch reads them (shared/trackers-api.md §2.2). Tolerant: an old GitLab without
// reviewers has no `reviewers` member; unknown note bodies are skipped, never shown.

struct GitLabUser: Decodable, Equatable {
    var id: Int64?
    var username: String?
    var name: String?
    var bot: Bool?

    /// A bot: GitLab says so, or a project or group access token's user (`project_42_bot_…`, `group_7_bot_…`).
    var isBot: Bool {
        bot == true || (username ?? "").contains("_bot")
    }

    var actor: Actor? { .user(id: id, login: username, name: name, isApp: isBot) }
}

/// An issue or a merge request.
struct GitLabItem: Decodable {
    struct References: Decodable { var full: String? }
    struct Milestone: Decodable { var title: String? }

    var id: Int64
    var iid: Int
    var project_id: Int64?
    var title: String?
    var state: String?
    var labels: FirstValues<String>?
    var milestone: Milestone?
    var assignees: [GitLabUser]?
    var reviewers: [GitLabUser]?
    var author: GitLabUser?
    var user_notes_count: Int?
    var updated_at: String?
    var references: References?
    var moved_to_id: Int64?
}

struct GitLabNote: Decodable {
    var id: Int64
    var body: String?
    var author: GitLabUser?
    var created_at: String?
    var system: Bool?
}

/// A label, state or milestone event.
struct GitLabResourceEvent: Decodable {
    struct Label: Decodable { var name: String? }
    var id: Int64
    var user: GitLabUser?
    var created_at: String?
    var label: Label?
    var milestone: GitLabItem.Milestone?
    var action: String?
    var state: String?
}
