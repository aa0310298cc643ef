/// A person or group of the fixture. An index into `Directory.people` stands for one.
struct Person: Sendable {
    let username: String
    let name: String
    /// The identity id (a GUID), what `connectionData`, `reviewerId` and identity objects carry.
    let id: String
    var isGroup = false
    /// A service identity: no PAT, cannot be `--as`.
    var isService = false
}

/// The fixture's people, groups and projects (docs/azure-devops-sim.md, "Fixture").
enum Directory {
    static let engineer = 0, alice = 1, lead = 2, buildService = 3, tfs = 4, webTeam = 5

    static let people: [Person] = [
        Person(username: "engineer", name: "Eve Engineer", id: "6c1f0e2a-5b1d-4c7e-9a30-000000000101"),
        Person(username: "alice", name: "Alice Example", id: "6c1f0e2a-5b1d-4c7e-9a30-000000000102"),
        Person(username: "lead", name: "Lena Lead", id: "6c1f0e2a-5b1d-4c7e-9a30-000000000103"),
        Person(username: "build", name: "Web Build Service (acme)", id: "6c1f0e2a-5b1d-4c7e-9a30-000000000104",
            isService: true),
        // The identity Azure DevOps writes pull request system comments as.
        Person(username: "Microsoft.VisualStudio.Services.TFS", name: "Microsoft.VisualStudio.Services.TFS",
            id: "00000002-0000-8888-8000-000000000000", isService: true),
        Person(username: "Web Team", name: "[Web]\\Web Team", id: "6c1f0e2a-5b1d-4c7e-9a30-000000000201",
            isGroup: true),
    ]

    /// Members of each group.
    static let members: [Int: [Int]] = [webTeam: [engineer, alice]]

    /// A person's PAT: `adosim-pat-USERNAME`.
    static func pat(_ person: Int) -> String { "adosim-pat-" + people[person].username }

    /// The person a username, display name, unique name (either flavour) or id names.
    static func person(named text: String) -> Int? {
        let lower = text.lowercased()
        return people.firstIndex { person in
            [person.username, person.name, person.id, person.username + "@example.com", "contoso\\" + person.username]
                .contains { $0.lowercased() == lower }
        }
    }

    static func person(id: String) -> Int? { people.firstIndex { $0.id.lowercased() == id.lowercased() } }

    static let projectNames = ["Web", "Platform", "Secret"]
    static func projectID(_ index: Int) -> String { "a1b2c3d4-0000-4000-8000-00000000000\(index + 1)" }
    static func repositoryID(_ index: Int) -> String { "b2c3d4e5-0000-4000-8000-00000000000\(index + 1)" }
    static func project(named text: String) -> Int? {
        projectNames.indices.first { projectNames[$0].lowercased() == text.lowercased() || projectID($0) == text.lowercased() }
    }
}

/// A field value as the server stores it; rendered by `View.field`.
enum FieldValue: Sendable, Equatable {
    case text(String)
    case number(Int)
    /// A person or group (`Directory.people` index): an identity object.
    case person(Int)
    /// Milliseconds since 1970.
    case date(Int)
}

/// One field's change in an update: absent old value on creation, absent new value when cleared.
struct FieldChange: Sendable {
    let field: String
    let old: FieldValue?
    let new: FieldValue?
}

/// One revision of a work item: who, when, what changed (the updates API's `WorkItemUpdate`).
struct Update: Sendable {
    let rev: Int
    let by: Int
    let at: Int
    var changes: [FieldChange]
}

struct WorkItemComment: Sendable {
    let id: Int
    var text: String
    let by: Int
    let at: Int
}

struct WorkItem: Sendable {
    let id: Int
    var project: Int
    var fields: [String: FieldValue]
    var updates: [Update] = []
    var comments: [WorkItemComment] = []
    /// People following it (`@Follows`).
    var followers: Set<Int> = []
    var deleted = false

    var rev: Int { updates.count }
    subscript(field: String) -> FieldValue? { fields[field] }

    /// Every value a field had, creation included (`EVER`).
    func everValues(_ field: String) -> [FieldValue] {
        updates.flatMap { update in update.changes.filter { $0.field == field }.compactMap(\.new) }
    }
}

/// A pull request reviewer: a person or a group; `votedFor` the groups a member's vote counts for.
struct Reviewer: Sendable {
    let who: Int
    var vote = 0
    var isRequired = false
    var votedFor: [Int] = []
}

struct PullRequestComment: Sendable {
    let id: Int
    let parent: Int
    let author: Int
    var content: String
    let at: Int
    let system: Bool
}

/// A thread: a discussion, or a system thread (`kind` = `CodeReviewThreadType`) whose real actor is in its
/// properties, keyed into `identities`.
struct PullRequestThread: Sendable {
    let id: Int
    let at: Int
    var updated: Int
    var comments: [PullRequestComment]
    /// `CodeReviewThreadType` for system threads, nil for a discussion.
    let kind: String?
    /// Property name → value (a string, or an identity key "1", "2" … into `identities`).
    var properties: [(String, PropertyValue)] = []
    var identities: [Int] = []
}

enum PropertyValue: Sendable {
    case string(String)
    case int(Int)
}

struct Iteration: Sendable {
    let id: Int
    let author: Int
    let at: Int
    let commit: String
    let reason: String
}

struct PullRequest: Sendable {
    let id: Int
    let project: Int
    var title: String
    var description: String
    let author: Int
    let created: Int
    var status = "active"
    var closed: Int?
    var closedBy: Int?
    var reviewers: [Reviewer] = []
    var iterations: [Iteration] = []
    var threads: [PullRequestThread] = []
    let sourceBranch: String
    var isDraft = false

    var head: String { iterations.last?.commit ?? "" }
}
