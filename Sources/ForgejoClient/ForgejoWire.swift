import SourceKit
import TrackwatchCore

// Forgejo's answers as trackwatch reads them (shared/forgejo-api.md): the swagger's `User`, `Issue`,
// `TimelineComment`, `PullReview`, tolerant of fields an older Gitea leaves out.

struct ForgejoUser: ForgeUser, Equatable {
    var id: Int64?
    var login: String?
    var full_name: String?

    /// A bot by its login (`renovate[bot]`): Forgejo's `User` does not say.
    var actor: Actor? {
        guard let id, let login else { return nil }
        let shown = SafeText.oneLine(login, limit: 60)
        let name = full_name.map { SafeText.oneLine($0, limit: 80) } ?? ""
        return Actor(id: String(id), name: name.isEmpty ? shown : name, login: shown, isApp: shown.hasSuffix("[bot]"))
    }
}

typealias ForgejoIssue = ForgeIssue<ForgejoUser>

extension ForgejoIssue {
    var reference: ForgejoReference? { repository?.full_name.flatMap { ForgejoReference("\($0)#\(number)") } }
}

struct ForgejoComment: Decodable {

    var id: Int64?
    var type: String?
    var user: ForgejoUser?
    var body: String?
    var created_at: String?
    var assignee: ForgejoUser?
    var assignee_team: ForgeLabel?
    var removed_assignee: Bool?
    var label: ForgeLabel?
    var milestone: ForgeMilestone?
    var old_milestone: ForgeMilestone?
    var old_title: String?
    var new_title: String?
}

struct ForgejoReview: Decodable {
    var id: Int64?
    var user: ForgejoUser?
    var state: String?
    var body: String?
    var submitted_at: String?

    /// A submitted review's verdict; `nil` for a pending one and a request (`REQUEST_REVIEW`).
    var verdict: String? {
        ["APPROVED": "approved", "REQUEST_CHANGES": "changes requested", "COMMENT": "commented"][state ?? ""]
    }
}

struct ForgejoVersion: Decodable { var version: String? }

/// `pull_push`'s body: `{"is_force_push": true, "commit_ids": […]}`.
struct ForgejoPush: Decodable {
    var is_force_push: Bool?
    var commit_ids: [String]?
}
