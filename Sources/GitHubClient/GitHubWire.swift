import SourceKit
import TrackwatchCore

// GitHub's answers as trackwatch reads them (shared/trackers-api.md §2.1). Tolerant where versions differ: the
// singular `assignee` is gone in 2026-03-10 (only `assignees` is read), unknown timeline events are skipped.

struct GitHubUser: ForgeUser, Equatable {
    var id: Int64?
    var login: String?
    var type: String?
    var name: String?
    var email: String?

    /// A bot: GitHub's `type`, or a login such as `dependabot[bot]`.
    var isBot: Bool { type == "Bot" || (login ?? "").hasSuffix("[bot]") }

    var actor: Actor? { .user(id: id, login: login, isApp: isBot) }
}

typealias GitHubIssue = ForgeIssue<GitHubUser>

extension GitHubIssue {
    /// `owner/name`: from `repository`, else from the end of `repository_url`.
    var repo: String? {
        if let name = repository?.full_name, ForgeRepo.isValid(name) { return name }
        let name = repository_url?.split(separator: "/").suffix(2).joined(separator: "/")
        return name.flatMap { ForgeRepo.isValid($0) ? $0 : nil }
    }

    var reference: GitHubReference? { repo.flatMap { GitHubReference(repo: $0, number: number) } }
}

struct GitHubSearchPage: Decodable {
    var total_count: Int?
    var incomplete_results: Bool?
    var items: LossyList<GitHubIssue>
}

/// One timeline item. Events carry `actor`; comments and reviews `user`; commits an `author` of the git commit.
struct GitHubTimelineItem: Decodable {
    struct Rename: Decodable { var from: String?, to: String? }
    struct Team: Decodable { var name: String?, slug: String? }
    struct GitPerson: Decodable { var name: String?, email: String?, date: String? }

    var id: Int64?
    var event: String?
    var actor: GitHubUser?
    var user: GitHubUser?
    var created_at: String?
    var submitted_at: String?
    var body: String?
    var state: String?
    var assignee: GitHubUser?
    var requested_reviewer: GitHubUser?
    var requested_team: Team?
    var rename: Rename?
    var label: ForgeLabel?
    var milestone: ForgeMilestone?
    var sha: String?
    /// The commit an event names (`closed`, `merged`; `head_ref_force_pushed` where GitHub gives the new head).
    var commit_id: String?
    var message: String?
    var author: GitPerson?
    var committer: GitPerson?
}
