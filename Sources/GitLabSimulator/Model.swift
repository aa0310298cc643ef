/// Issues and merge requests, their notes, resource events, commits and approvals, as the server keeps them;
/// times are milliseconds since 1970.
enum ItemKind: Sendable, Equatable {
    case issue, mergeRequest

    /// `noteable_type` and `resource_type`.
    var typeName: String { self == .issue ? "Issue" : "MergeRequest" }
    /// `#` for issues, `!` for merge requests, as references write them.
    var sigil: String { self == .issue ? "#" : "!" }
}

/// A note: a comment (`system: false`) or a system note saying what someone did.
struct Note: Sendable {
    let id: Int
    var body: String
    let author: Int
    let created: Int
    var updated: Int
    let system: Bool
}

/// A label, milestone or state resource event.
struct ResourceEvent: Sendable {
    enum Change: Sendable {
        /// `add` or `remove` a label.
        case label(name: String, added: Bool)
        /// `add` or `remove` a milestone (its iid).
        case milestone(iid: Int, added: Bool)
        /// `closed`, `reopened` or `merged`.
        case state(String)
    }

    let id: Int
    let change: Change
    let user: Int
    let created: Int
}

/// A commit on a merge request's source branch.
struct Commit: Sendable {
    let sha: String
    let title: String
    let authorName: String
    let authorEmail: String
    let created: Int
}

/// An issue or a merge request. `state` is GitLab's: opened, closed, merged (merge requests), locked.
struct Item: Sendable {
    let kind: ItemKind
    let id: Int
    var project: Int
    let iid: Int
    var title: String
    var description: String
    var state = "opened"
    let author: Int
    var assignees: [Int]
    var reviewers: [Int] = []
    var labels: [String]
    /// The milestone's iid (1 `v1.0`, 2 `v2.0`), or nil.
    var milestone: Int?
    let created: Int
    var updated: Int
    /// When `updated_at` last had a reason to move (the lazy-updated-at switch compares with it).
    var lastChange: Int
    var closed: Int?
    var closedBy: Int?
    var merged: Int?
    var mergedBy: Int?
    var movedTo: Int?
    var draft = false
    var notes: [Note] = []
    var events: [ResourceEvent] = []
    var commits: [Commit] = []
    var approvedBy: [Int] = []

    var isOpen: Bool { state == "opened" }
    var userNotesCount: Int { notes.count { !$0.system } }
    var sha: String? { commits.last?.sha }
    var sourceBranch: String { "feature-\(iid)" }
}
