#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// An account: engineer (me in the tests), colleagues, and a bot.
struct User {
    var id: Int
    var login: String
    var fullName: String

    static let all = [
        User(id: 1, login: "engineer", fullName: "Eve Engineer"),
        User(id: 2, login: "alice", fullName: "Alice Example"),
        User(id: 3, login: "lead", fullName: ""), User(id: 4, login: "renovate[bot]", fullName: "Renovate"),
    ]

    /// `token fj_sim_LOGIN` (or `Bearer`, or Basic with the token as the user name): the account it belongs to.
    static func by(token header: String?) -> User? {
        guard let token = token(header), token.hasPrefix("fj_sim_") else { return nil }
        return named(String(token.dropFirst("fj_sim_".count).prefix { $0 != "." }))
    }

    /// The scopes of a token `fj_sim_LOGIN.read:user,read:issue`; `nil` (every scope) without a dot.
    static func scopes(token header: String?) -> Set<String>? {
        guard let token = token(header), let dot = token.firstIndex(of: ".") else { return nil }
        return Set(token[token.index(after: dot)...].split(separator: ",").map(String.init))
    }

    private static func token(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0].lowercased() {
        case "basic":
            guard let decoded = Data(base64Encoded: parts[1]) else { return nil }
            return String(String(decoding: decoded, as: UTF8.self).prefix { $0 != ":" })
        case "token", "bearer": return parts[1]
        default: return nil
        }
    }

    static func named(_ login: String) -> User? { all.first { $0.login == login } }

    /// A deleted account, as Forgejo shows one (`NewGhostUser`): what `"as": "ghost"` acts as.
    static let ghost = User(id: -1, login: "Ghost", fullName: "")
}

/// One timeline entry (`TimelineComment`): who, what kind, and the kind's fields.
struct Entry {
    var id: Int
    var type: String
    var user: Int
    var at: Int
    var body = ""
    var assignee: Int?
    var removed = false
    var label: String?
    var milestone: String?
    var oldMilestone: String?
    var oldTitle: String?
    var newTitle: String?
    var reviewID: Int?
}

/// A submitted review (`PullReview`).
struct Review {
    var id: Int
    var user: Int
    var state: String
    var body: String
    var at: Int
}

/// An issue or a pull request: one numbering per repository, a global id.
struct Item {
    var id: Int
    var repo: String
    /// The repository's id: it stays when the repository is renamed or transferred.
    var repoID: Int
    var index: Int
    var title: String
    var isPull: Bool
    var author: Int
    var assignees: [Int] = []
    var reviewers: [Int] = []
    var labels: [String] = []
    var milestone: String?
    var state = "open"
    var merged = false
    var created: Int
    var updated: Int
    var timeline: [Entry] = []
    var reviews: [Review] = []

    var reference: String { "\(repo)#\(index)" }
}

/// The server's switches (`POST /sim/switches`).
public struct ForgejoSwitches: Sendable {
    /// Gitea: `/api/forgejo/v1/version` answers 404 and the version is plain.
    public var gitea = false
    /// A server before Gitea 1.17: the timeline route answers the router's plain-text 404.
    public var noTimeline = false
    /// `MAX_RESPONSE_ITEMS`: the most items a page holds, whatever `limit` asks.
    public var maxResponseItems = 50
    /// The version `/api/v1/version` answers instead of the default (`1.13.4`: an old Gitea).
    public var version: String?
    /// A server before Gitea 1.14: `review_requested` is ignored, so the search answers every open item.
    public var ignoreReviewRequested = false
    /// The search's `Link` computed with `ISSUE_PAGING_NUM` (20), not the limit used (the 1.17-era code).
    public var legacyLink = false

    public init() {}
}

/// Options of `forgejo-sim serve`.
public struct ForgejoSimulatorOptions: Sendable {
    /// Issues and pull requests in each of the two repositories.
    public var issues = 6
    public var switches = ForgejoSwitches()
    /// Served under this path (`/git`: `ROOT_URL = http://host/git/`), the API and every URL it writes; empty: at
    /// the root. The control routes stay at `/sim/`.
    public var subPath = ""

    public init() {}
}

/// What an armed fault does to the next answers of a route.
struct Fault {
    var route: String
    var kind: String
    var count: Int
    var retryAfter: Int?
    /// For `item`: the issue's or pull request's id, the member to set and its raw JSON text.
    var item: Int?
    var field: String?
    var value: String?
}

/// Everything the server holds; one lock around it.
struct ForgejoState {
    var switches: ForgejoSwitches
    var items: [Item] = []
    var faults: [Fault] = []
    var requests: [String: Int] = [:]
    var lastEntry = 0
    /// Renamed or transferred repositories: the old name answers 307 to the same path under the new one.
    var redirects: [String: String] = [:]
    /// Repositories that answer 404 to every token (access lost) and are left out of searches.
    var hidden: Set<String> = []
    /// `ForgejoSimulatorOptions.subPath`: what a `Location` the server writes starts with.
    let subPath: String
    private var clock = 0

    static let repos = ["acme/web", "acme/api"]

    /// Seeded per repository, for issue n: a pull request when n % 3 == 0; assigned to engineer when odd; opened
    /// by engineer when an issue and n % 4 == 2, else by alice (even) or lead (odd); engineer's review requested
    /// on even pull requests.
    init(options: ForgejoSimulatorOptions) {
        switches = options.switches
        subPath = options.subPath
        let start = Int(time(nil)) - 86_400
        for (offset, repo) in Self.repos.enumerated() {
            for n in 1...max(1, options.issues) {
                var item = Item(
                    id: offset * 100_000 + n, repo: repo, repoID: offset + 1, index: n,
                    title: "\(n % 3 == 0 ? "Change" : "Issue") \(n)",
                    isPull: n % 3 == 0, author: n % 4 == 2 && n % 3 != 0 ? 1 : (n % 2 == 0 ? 2 : 3), created: start + n,
                    updated: start + n)
                if n % 2 == 1 { item.assignees = [1] }
                if item.isPull, n % 2 == 0 { item.reviewers = [1] }
                items.append(item)
            }
        }
    }

    /// Seconds since 1970, one more than the last time it was read at least: each act is later than the one before.
    mutating func tick() -> Int {
        clock = max(Int(time(nil)), clock + 1)
        return clock
    }

    func find(_ repo: String, _ index: Int) -> Int? { items.firstIndex { $0.repo == repo && $0.index == index } }
}
