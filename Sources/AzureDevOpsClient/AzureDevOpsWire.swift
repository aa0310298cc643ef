import SourceKit
import TrackwatchCore

// Azure DevOps's answers (REST 7.x) as trackwatch reads them (shared/ado-api.md). Tolerant: a member left out is
// nil, a value of another type than documented is `WireValue.other`, never a failed poll.

/// An identity (`IdentityRef`, `IdentityRefWithVote`): compared by `id`, never by name (a Server's unique names are
/// `DOMAIN\user`).
struct AzureDevOpsIdentity: Decodable, Equatable {
    var id: String?
    var displayName: String?
    var uniqueName: String?
    /// Reviewers only.
    var vote: Int?
    var hasDeclined: Bool?

    /// The service identity that authors pull requests' system comments.
    static let service = "00000002-0000-8888-8000-000000000000"

    var key: String? { id.map { $0.lowercased() } }

    /// Who acted, by display name; the service and build identities are apps.
    var actor: Actor? {
        guard let key, key != Self.service else { return nil }
        let name = SafeText.oneLine(displayName ?? uniqueName ?? key, limit: 80)
        let login = uniqueName.map { SafeText.oneLine($0, limit: 80) }
        return Actor(id: key, name: name, login: login, isApp: name.contains("Build Service"))
    }

    var name: String { SafeText.oneLine(displayName ?? uniqueName ?? "?", limit: 80) }
}

/// A value the server sends where the documents say a string, a number or an identity: an old server sends an
/// identity as `"Name <user>"`, a priority may be `2` or `2.0`.
enum WireValue: Decodable, Equatable {
    case text(String)
    case number(Double)
    case flag(Bool)
    case identity(AzureDevOpsIdentity)
    case other

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .other
        } else if let text = try? value.decode(String.self) {
            self = .text(text)
        } else if let number = try? value.decode(Double.self) {
            self = .number(number)
        } else if let flag = try? value.decode(Bool.self) {
            self = .flag(flag)
        } else if let identity = try? value.decode(AzureDevOpsIdentity.self) {
            self = .identity(identity)
        } else {
            self = .other
        }
    }

    /// One line for a field: an identity by its name, a whole number without `.0`, bounded.
    var shown: String? {
        switch self {
        case .text(let text): return SafeText.oneLine(text, limit: 300)
        case .number(let number):
            guard number.isFinite, abs(number) < 1e15 else { return nil }
            return number == number.rounded() ? String(Int64(number)) : String(number)
        case .flag(let flag): return flag ? "yes" : "no"
        case .identity(let identity): return identity.name
        case .other: return nil
        }
    }

    /// The identity's id where it is one.
    var identityKey: String? {
        if case .identity(let identity) = self { return identity.key }
        return nil
    }

    /// The whole text, unbounded (a comment's HTML, cut by its reader).
    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}

/// `GET /_apis/connectionData`.
struct AzureDevOpsConnection: Decodable {
    struct User: Decodable {
        struct Property: Decodable {
            var value: WireValue?
            enum CodingKeys: String, CodingKey { case value = "$value" }
        }
        var id: String?
        var providerDisplayName: String?
        var customDisplayName: String?
        var properties: [String: Property]?
    }
    var authenticatedUser: User?
    var deploymentType: String?
}

/// `POST /_apis/wit/wiql`: ids only; one that is no number in range is left out (`LossyList`).
struct WIQLAnswer: Decodable {
    struct Reference: Decodable { var id: Int }
    var asOf: String?
    var workItems: [Reference]?

    enum CodingKeys: String, CodingKey { case asOf, workItems }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        asOf = try container.decodeIfPresent(String.self, forKey: .asOf)
        workItems = try container.decodeIfPresent(LossyList<Reference>.self, forKey: .workItems)?.elements
    }
}

/// A work item of `workitemsbatch`: only the fields asked for.
struct WorkItem: Decodable {
    struct Fields: Decodable {
        var title: String?
        var state: String?
        var type: String?
        var project: String?
        var assignedTo: WireValue?
        var createdBy: WireValue?
        var changedDate: String?
        var priority: WireValue?
        var iteration: String?
        var area: String?
        var tags: String?
        var commentCount: WireValue?

        enum CodingKeys: String, CodingKey {
            case title = "System.Title", state = "System.State", type = "System.WorkItemType"
            case project = "System.TeamProject", assignedTo = "System.AssignedTo", createdBy = "System.CreatedBy"
            case changedDate = "System.ChangedDate", priority = "Microsoft.VSTS.Common.Priority"
            case iteration = "System.IterationPath", area = "System.AreaPath", tags = "System.Tags"
            case commentCount = "System.CommentCount"
        }

        /// What `workitemsbatch` is asked for.
        static let names = [
            "System.Id", "System.Title", "System.State", "System.WorkItemType", "System.TeamProject",
            "System.AssignedTo", "System.CreatedBy", "System.ChangedDate", "Microsoft.VSTS.Common.Priority",
            "System.IterationPath", "System.AreaPath", "System.Tags", "System.CommentCount",
        ]
    }
    var id: Int
    var rev: Int?
    var fields: Fields?
}

/// `workitemsbatch` with `errorPolicy: Omit`: `null` for an item I cannot see. A work item that cannot be read is
/// left out and counted (then no missing one is taken for gone).
typealias WorkItemBatch = ValueList<WorkItem?>

/// One revision of a work item (`WorkItemUpdate`): who, when, each field old → new.
struct WorkItemUpdate: Decodable {
    struct Change: Decodable {
        var oldValue: WireValue?
        var newValue: WireValue?
    }
    var id: Int
    var revisedBy: AzureDevOpsIdentity?
    var revisedDate: String?
    var fields: [String: Change]?
}

/// `{count, value}`, Azure DevOps's list; an element that cannot be read is left out and counted (`LossyList`).
struct ValueList<Element: Decodable>: Decodable {
    var value: LossyList<Element>?

    /// What `value` holds; nothing where it is absent.
    var entries: LossyList<Element> { value ?? LossyList() }
}

struct AzureDevOpsProjectInfo: Decodable {
    var name: String?
}

/// A pull request, from a list or by id.
struct PullRequest: Decodable {
    struct Repository: Decodable {
        var id: String?
        var name: String?
        var project: AzureDevOpsProjectInfo?
    }
    struct Commit: Decodable { var commitId: String? }

    var pullRequestId: Int
    var status: String?
    var title: String?
    var createdBy: AzureDevOpsIdentity?
    var creationDate: String?
    var closedBy: AzureDevOpsIdentity?
    var closedDate: String?
    var repository: Repository?
    var reviewers: [AzureDevOpsIdentity]?
    var lastMergeSourceCommit: Commit?
}

/// A pull request's thread: a discussion, or a system thread telling who voted, pushed, completed.
struct PullRequestThread: Decodable {
    struct Comment: Decodable {
        var id: Int?
        var author: AzureDevOpsIdentity?
        var content: String?
        var publishedDate: String?
        var lastUpdatedDate: String?
        var commentType: String?
        var isDeleted: Bool?
    }
    struct Property: Decodable {
        var value: WireValue?
        enum CodingKeys: String, CodingKey { case value = "$value" }
    }

    var id: Int
    var publishedDate: String?
    var lastUpdatedDate: String?
    var comments: [Comment]?
    var properties: [String: Property]?
    var identities: [String: AzureDevOpsIdentity]?
    var isDeleted: Bool?

    func property(_ name: String) -> String? {
        switch properties?[name]?.value {
        case .text(let text)?: return text
        case .number(let number)? where number.isFinite && abs(number) < 1e9: return String(Int(number))
        default: return nil
        }
    }

    /// The identity a property names by its key into `identities`.
    func identity(_ name: String) -> AzureDevOpsIdentity? {
        property(name).flatMap { identities?[$0] }
    }
}

/// The error envelope of every 4xx and 5xx.
struct AzureDevOpsErrorBody: Decodable {
    var message: String?
    var typeKey: String?

    var text: String { SafeText.oneLine(message ?? "", limit: 300) }
}

enum AzureDevOpsTime {
    /// `2026-11-29T09:00:00.2966667Z` (up to seven fraction digits); the `9999-01-01` of a latest revision is no time.
    static func parse(_ text: String?) -> Timestamp? {
        guard let text, text.utf8.count <= 64, !text.hasPrefix("9999-") else { return nil }
        return Timestamp.parse(text)?.timestamp
    }

    /// `2026-11-29T09:00:00Z`: a time WIQL takes with `timePrecision=true`.
    static func wiql(_ timestamp: Timestamp) -> String {
        timestamp.rawValue.replacing(" ", with: "T").prefix(19) + "Z"
    }
}
