/// What a project holds. Ids are per project; authors are author ids, assignees user ids (as Qase's API has them).

struct TestCase: Sendable {
    var id: Int
    var title: String
    var description: String?
    var severity: Int
    var priority: Int
    var type: Int
    var behavior: Int
    var status: Int
    var milestoneID: Int?
    var suiteID: Int?
    var tags: [String]
    var authorID: Int
    /// The author id of the last editor: QQL's `updated_by`, the only last-editor field in the API.
    var updatedBy: Int
    var createdAt: Int
    var updatedAt: Int
}

struct Defect: Sendable {
    var id: Int
    var title: String
    var actualResult: String
    var severity: Int
    var status: DefectStatus
    var milestoneID: Int?
    var tags: [String]
    var authorID: Int
    /// The user assigned in the web UI; not part of the REST Defect, visible only to QQL `assignee`.
    var assigneeUserID: Int?
    var resolvedAt: Int?
    var createdAt: Int
    var updatedAt: Int

    /// A status change: `resolved_at` is set on resolving and cleared on leaving it; `updated_at` moves.
    mutating func setStatus(_ status: DefectStatus, now: Int) {
        self.status = status
        resolvedAt = status == .resolved ? now : nil
        updatedAt = now
    }
}

enum DefectStatus: String, Sendable, CaseIterable {
    case open, inProgress = "in_progress", resolved, invalid

    /// The QQL label (`"In progress"`); QQL takes the label or the slug.
    var label: String { self == .inProgress ? "In progress" : rawValue.capitalized }
}

struct Plan: Sendable {
    struct Entry: Sendable {
        var caseID: Int
        /// A user id [INF: the namespace is not stated; Qase's UI assigns people].
        var assigneeUserID: Int?
    }

    var id: Int
    var title: String
    var description: String?
    var entries: [Entry]
    var createdAt: Int
    var updatedAt: Int
}

struct Review: Sendable {
    struct Reviewer: Sendable {
        var authorID: Int
        var status: ReviewerStatus
    }

    var id: Int
    var title: String
    var status: ReviewStatus
    var caseID: Int?
    var authorID: Int
    var reviewers: [Reviewer]
    var createdAt: Int
    var updatedAt: Int?

    var type: String { caseID == nil ? "create" : "edit" }
}

enum ReviewStatus: String, Sendable, CaseIterable { case open, merged, declined }
enum ReviewerStatus: String, Sendable, CaseIterable {
    case unapproved, approved, changesRequested = "changes_requested"
}

struct Run: Sendable {
    var id: Int
    var title: String
    var caseIDs: [Int]
    /// Who started it: not in the REST Run, only QQL `author` sees it.
    var authorID: Int
    var startTime: Int
    var endTime: Int?
}

struct TestResult: Sendable {
    var hash: String
    var runID: Int
    var caseID: Int
    var status: String
    /// The user who reported it: not in the response, only the `member` filter and QQL `author` see it.
    var authorID: Int
    var endTime: Int?
    var timeSpentMS: Int
}

/// One project: its code (renamable), title and items. `key` never changes, so a rename keeps everything.
struct Project: Sendable {
    let key: Int
    var code: String
    var title: String
    var cases: [TestCase] = []
    var defects: [Defect] = []
    var plans: [Plan] = []
    var reviews: [Review] = []
    var runs: [Run] = []
    var results: [TestResult] = []

    /// The last ids handed out: a deleted item's id is never used again.
    var lastCaseID = 0
    var lastDefectID = 0
}

/// Qase's system-field slugs for the integer enums of a test case, index = value [INF: the order of
/// `GET /system_field` is not published; these follow the QQL documentation's order].
enum CaseEnums {
    static let severity = ["undefined", "blocker", "critical", "major", "normal", "minor", "trivial"]
    static let priority = ["undefined", "high", "medium", "low"]
    static let type = [
        "other", "functional", "smoke", "regression", "security", "usability", "performance", "acceptance",
    ]
    static let behavior = ["undefined", "positive", "negative", "destructive"]
    static let status = ["actual", "draft", "deprecated"]
}
