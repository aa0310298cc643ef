/// A project: `WEB` ("Web Shop", id 10000), `OPS` ("Operations", id 10001), others "KEY project".
struct Project: Sendable {
    let index: Int
    let id: Int
    var key: String
    let name: String
    /// The number the next created or moved-in issue gets.
    var nextNumber: Int
}

/// The workflow every project shares: To Do → In Progress → Done, any to any, by transitions 11, 21 and 31.
enum Workflow {
    struct Status: Sendable {
        let id: String
        let name: String
        let categoryID: Int
        let categoryKey: String
        let categoryName: String
        let colorName: String
        let transitionID: String
    }

    static let statuses = [
        Status(id: "10000", name: "To Do", categoryID: 2, categoryKey: "new", categoryName: "To Do",
            colorName: "blue-gray", transitionID: "11"),
        Status(id: "3", name: "In Progress", categoryID: 4, categoryKey: "indeterminate",
            categoryName: "In Progress", colorName: "yellow", transitionID: "21"),
        Status(id: "10001", name: "Done", categoryID: 3, categoryKey: "done", categoryName: "Done",
            colorName: "green", transitionID: "31"),
    ]
    static let toDo = 0, inProgress = 1, done = 2

    /// Jira's default priorities, highest first, with their ids.
    static let priorities = [("1", "Highest"), ("2", "High"), ("3", "Medium"), ("4", "Low"), ("5", "Lowest")]
    /// Every project's versions, for `fixVersions`.
    static let versions = [("10100", "1.0"), ("10101", "2.0"), ("10102", "3.0")]
    static let issueTypes = [("10001", "Task"), ("10002", "Bug"), ("10003", "Story")]

    static func priority(named name: String) -> (id: String, name: String)? {
        priorities.first { $0.1.lowercased() == name.lowercased() }.map { ($0.0, $0.1) }
    }

    static func version(named name: String) -> (id: String, name: String)? {
        versions.first { $0.1 == name }.map { ($0.0, $0.1) }
    }
}

/// One side of a changelog item: a person (rendered as accountId or name by flavour), a text with its id, or none.
enum ItemValue: Sendable, Equatable {
    case none
    case person(Int)
    /// `id` is what Jira puts in `from`/`to` (a status id, a project id); nil leaves them null.
    case text(id: String?, String)
}

/// A changelog item: which field changed, from what to what.
struct HistoryItem: Sendable {
    let field: String
    let fieldtype: String
    let fieldId: String
    let from: ItemValue
    let to: ItemValue
}

/// One changelog history: who changed what, when.
struct History: Sendable {
    let id: Int
    let author: Int
    let created: Int
    let items: [HistoryItem]
}

struct Comment: Sendable {
    let id: Int
    let author: Int
    var updateAuthor: Int
    var body: String
    let created: Int
    var updated: Int
}

/// An issue as the server keeps it; `render` turns it into Jira's JSON for one caller and flavour.
struct Issue: Sendable {
    let id: Int
    var projectIndex: Int
    var number: Int
    /// Keys it had before moves; they still find it.
    var oldKeys: [String] = []
    var summary: String
    var description: String?
    var issueType: String
    var assignee: Int?
    var reporter: Int
    let creator: Int
    /// People watching it, in the order they started to.
    var watchers: [Int]
    var status: Int
    var priority: String
    var labels: [String]
    var fixVersions: [String]
    /// Sprint id, or nil for the backlog.
    var sprint: Int?
    let created: Int
    var updated: Int
    var histories: [History] = []
    var comments: [Comment] = []

    mutating func watch(_ person: Int) {
        if !watchers.contains(person) { watchers.append(person) }
    }
}
