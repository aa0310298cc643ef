#if canImport(Glibc)
    import Glibc
#endif
import SimulatorKit

/// Everything the server knows: repositories, issues, access, quotas, switches, clock, faults and stats. Guarded
/// by one lock in `GitHubSimulator`; every method runs with the lock held.
struct GitHubState {
    /// Where an `owner/repo#number` leads.
    enum Location {
        case live(Int)
        /// Transferred away: the slot of the issue, now elsewhere.
        case moved(Int)
        case deleted
    }

    /// A token's use of one rate-limit resource in the current window.
    struct Bucket {
        var reset: Int
        var used = 0
    }

    let options: GitHubSimulatorOptions
    var switches: GitHubSwitches
    var clockOffset: Int
    /// The second the clock is stopped at (`POST /sim/clock {"freeze": 1}`): every change lands in it.
    var frozenAt: Int?
    var repos: [Repository]
    var issues: [Issue] = []
    /// `"repoID#number"` → where it leads.
    var locations: [String: Location] = [:]
    /// `[account, repo index]` pairs refused by `POST /sim/access`.
    var hidden: Set<[Int]> = []
    /// Of those, the ones refused as by SAML SSO enforcement: 403 with GitHub's words instead of 404.
    var ssoRefused: Set<[Int]> = []
    /// Rate-limit windows by `"resource token"`.
    var buckets: [String: Bucket] = [:]
    var nextEventID = 1_000_000_001
    var nextCommentID = 2_000_000_001
    var nextReviewID = 3_000_000_001
    var nextIssueID = 900_000_001
    var requestCount = 0
    var faults: [GitHubFault] = []
    var stats = GitHubStats()

    init(options: GitHubSimulatorOptions) {
        self.options = options
        switches = options.switches
        clockOffset = options.clockOffset
        repos = [
            Repository(id: 700_001, owner: "acme", name: "web", isPrivate: false, nextNumber: options.issues + 1),
            Repository(id: 700_002, owner: "acme", name: "api", isPrivate: true, nextNumber: options.issues + 1),
        ]
        Seed.populate(&self)
    }

    var now: Int { frozenAt ?? Int(time(nil)) + clockOffset }

    static func locationKey(repo: Repository, number: Int) -> String { "\(repo.id)#\(number)" }

    /// Adds an issue where its repository and number say.
    mutating func insert(_ issue: Issue) {
        locations[Self.locationKey(repo: repos[issue.repo], number: issue.number)] = .live(issues.count)
        issues.append(issue)
    }

    /// Whether a token may read a repository: not refused by `/sim/access`, and (private) with the `repo` scope.
    func canRead(_ token: Token, repo: Int) -> Bool {
        !hidden.contains([token.user, repo]) && (!repos[repo].isPrivate || token.readsPrivate)
    }

    /// Whether an issue is still where it was made visible: not deleted, not transferred away.
    func isLive(_ slot: Int) -> Bool {
        let key = Self.locationKey(repo: repos[issues[slot].repo], number: issues[slot].number)
        if case .live(let live) = locations[key] {
            return live == slot
        }
        return false
    }

    /// Appends a timeline event by `actor` now and bumps `updated_at`.
    mutating func record(_ kind: EventKind, on slot: Int, by actor: Int) {
        let id: Int
        switch kind {
        case .commented:
            id = nextCommentID
            nextCommentID += 1
        case .reviewed:
            id = nextReviewID
            nextReviewID += 1
        default:
            id = nextEventID
            nextEventID += 1
        }
        issues[slot].timeline.append(Event(id: id, kind: kind, actor: actor, created: now))
        issues[slot].updated = now
    }

    /// A deterministic 40-hex-digit commit sha.
    static func sha(_ seed: String) -> String {
        var out = ""
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for round in 0..<3 {
            for byte in (seed + "/\(round)").utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            let hex = String(hash, radix: 16)
            out += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return String(out.prefix(40))
    }
}

/// `GET /sim/stats`: what the API was asked, for benchmarks ("requests per poll") and tests.
struct GitHubStats: Encodable {
    /// API requests (`/sim/` routes are not counted), faulted and refused answers included.
    var requests = 0
    /// By GitHub's route name, e.g. `GET /issues`, `GET /repos/{owner}/{repo}/issues/{issue_number}/timeline`.
    var requestsByRoute: [String: Int] = [:]
    /// By the login of the authenticated user; requests that fail authentication are not here.
    var requestsByUser: [String: Int] = [:]
    /// 304 answers sent.
    var notModified = 0
    /// Core quota used by token, since the stats were last cleared (304s and search requests are free).
    var coreQuotaUsed: [String: Int] = [:]
    /// Search quota used by token, since the stats were last cleared.
    var searchQuotaUsed: [String: Int] = [:]
    /// 403/429 rate-limit answers sent (quota exhausted, or injected).
    var rateLimited = 0
    /// 401 answers sent.
    var unauthorized = 0
}

/// An API error answer: GitHub's `{"message": …, "documentation_url": …}`, with extra members when given.
struct GitHubError: Error {
    let status: Int
    let message: String
    var documentation = "https://docs.github.com/rest"
    var extra: [(String, JSONValue)] = []
    var headers: [(String, String)] = []

    init(_ status: Int, _ message: String, documentation: String = "https://docs.github.com/rest") {
        self.status = status
        self.message = message
        self.documentation = documentation
    }

    static let notFound = GitHubError(404, "Not Found")
    static let ssoRequired = GitHubError(
        403, "Resource protected by organization SAML enforcement. You must grant your Personal Access token access to "
            + "this organization.")

    /// 422 "Validation Failed" with one error naming the resource, field and code.
    static func invalid(_ resource: String, _ field: String, code: String = "invalid", message: String? = nil)
        -> GitHubError
    {
        var error = GitHubError(422, "Validation Failed")
        var item: JSONValue = ["resource": .string(resource), "field": .string(field), "code": .string(code)]
        if let message { item["message"] = .string(message) }
        error.extra = [("errors", [item])]
        return error
    }

    var body: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("message", .string(message))]
        members += extra.map { (key: $0.0, value: $0.1) }
        members.append(("documentation_url", .string(documentation)))
        members.append(("status", .string(String(status))))
        return .object(members)
    }
}
