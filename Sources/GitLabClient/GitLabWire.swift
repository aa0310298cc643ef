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

    var actor: Actor? {
        guard let id else { return nil }
        let username = username.map { SafeText.oneLine($0, limit: 60) } ?? String(id)
        return Actor(id: String(id), name: username, login: username, isApp: isBot)
    }
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
    /// Merge requests only.
    var merged_at: String?
    var source_branch: String?
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

struct GitLabErrorBody: Decodable {
    var message: String?
    var error: String?

    var text: String { SafeText.oneLine(message ?? error ?? "", limit: 300) }
}

enum GitLabTime {
    static func parse(_ text: String?) -> Timestamp? {
        guard let text, text.utf8.count <= 64 else { return nil }
        return Timestamp.parse(text)?.timestamp
    }
}
