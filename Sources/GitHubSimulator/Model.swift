/// A repository of the `acme` organization.
struct Repository: Sendable {
    let id: Int
    let owner: String
    var name: String
    /// Names it had before `POST /sim/rename-repo`; requests naming them are redirected.
    var formerNames: [String] = []
    let isPrivate: Bool
    /// The number the next created or transferred-in issue gets.
    var nextNumber: Int

    var fullName: String { "\(owner)/\(name)" }
    var nodeID: String { NodeID.make("010:Repository", id) }
}

/// Who a review request names: a user or a team.
enum Reviewer: Sendable, Equatable, Hashable {
    case user(Int)
    case team(Int)
}

/// What happened, with what the timeline item carries besides the common fields.
enum EventKind: Sendable {
    case assigned(Int)
    case unassigned(Int)
    case reviewRequested(Reviewer)
    case reviewRequestRemoved(Reviewer)
    case renamed(from: String, to: String)
    case labeled(String)
    case unlabeled(String)
    case milestoned(String)
    case demilestoned(String)
    case closed(reason: String?, commit: String?)
    case reopened
    case merged(commit: String)
    case commented(body: String)
    /// `state` is the timeline's spelling: approved, changes_requested, commented.
    case reviewed(state: String, body: String, commit: String)
    case committed(sha: String, message: String)
    case transferred(from: String)
    /// The pull request's branch was force-pushed (after a rebase): the event says who pushed and when.
    case headRefForcePushed

    /// The timeline's `event` name.
    var name: String {
        switch self {
        case .assigned: "assigned"
        case .unassigned: "unassigned"
        case .reviewRequested: "review_requested"
        case .reviewRequestRemoved: "review_request_removed"
        case .renamed: "renamed"
        case .labeled: "labeled"
        case .unlabeled: "unlabeled"
        case .milestoned: "milestoned"
        case .demilestoned: "demilestoned"
        case .closed: "closed"
        case .reopened: "reopened"
        case .merged: "merged"
        case .commented: "commented"
        case .reviewed: "reviewed"
        case .committed: "committed"
        case .transferred: "transferred"
        case .headRefForcePushed: "head_ref_force_pushed"
        }
    }
}

/// One timeline item: `id` is the event's, comment's or review's id; a commit is known by its sha.
struct Event: Sendable {
    let id: Int
    let kind: EventKind
    /// The actor; for a comment or review its user, for a commit its author.
    let actor: Int
    let created: Int
}

/// An issue or pull request as the server keeps it; `Render` turns it into GitHub's JSON for one caller.
struct Issue: Sendable {
    let id: Int
    var repo: Int
    var number: Int
    let isPull: Bool
    var title: String
    var body: String
    let author: Int
    var assignees: [Int]
    var labels: [String]
    /// The milestone's number (1 `v1.0`, 2 `v2.0`), or nil.
    var milestone: Int?
    var isOpen = true
    var stateReason: String?
    var comments = 0
    let created: Int
    var updated: Int
    var closed: Int?
    var merged: Int?
    var mergeSHA: String?
    var draft = false
    var requested: [Reviewer] = []
    /// Who submitted a review: `review-requested:` no longer finds the pull request for them.
    var reviewedBy: Set<Int> = []
    /// Accounts @-mentioned in the body or a comment (the `mentioned` filter).
    var mentions: Set<Int> = []
    /// Accounts who commented (with author, assignees and mentions: the `subscribed` filter).
    var commenters: Set<Int> = []
    var headSHA: String
    var timeline: [Event] = []
}

/// The milestones every repository has.
enum Milestones {
    static let titles = [1: "v1.0", 2: "v2.0"]
    static func id(repo: Int, number: Int) -> Int { 3_000_000 + repo * 10 + number }
}
