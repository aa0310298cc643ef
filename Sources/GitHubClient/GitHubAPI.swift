import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Every request trackwatch makes of GitHub: its path, and its name in errors.
struct GitHubEndpoint: Equatable {
    var path: String, name: String

    static let user = Self(path: "/user", name: "user")
    /// `GET /issues`: issues and pull requests assigned to me (`assigned`) or opened by me (`created`).
    static func issues(filter: String) -> Self { Self(path: "/issues", name: "issues (\(filter))") }
    static let searchIssues = Self(path: "/search/issues", name: "search/issues")
    static func issue(_ reference: GitHubReference) -> Self {
        Self(path: "/repos/\(reference.repo)/issues/\(reference.number)", name: "issue")
    }
    static func timeline(_ reference: GitHubReference) -> Self {
        Self(path: issue(reference).path + "/timeline", name: "timeline")
    }
    /// `GET /repos/{owner}/{repo}`: whether this token can read a repository.
    static func repository(_ repo: String) -> Self { Self(path: "/repos/\(repo)", name: "repository") }
}

/// What an answer says about caching.
extension HTTPResponse {
    /// `304 Not Modified`: nothing moved since the `ETag` asked with.
    var notModified: Bool { status == 304 }
    var etag: String? { header("ETag").map { String($0.prefix(200)) } }
}

/// GitHub's REST API over one `HTTPTransport`: the token on every request, conditional requests where asked, every
/// answer read whole, errors as `GitHubError`. Not thread-safe: a source polls from one queue.
final class GitHubAPI {
    /// The API versions trackwatch reads: the default one, and the next where a server retired the default.
    static let versions = ["2022-11-28", "2026-03-10"]

    let requests: APIRequests
    private let logger: Logger
    /// Items an answer held that could not be read: left out, told once.
    let skipped: SkippedItems
    private var version = GitHubAPI.versions[0]
    /// The longest `X-Poll-Interval` seen since it was last taken: it holds for the next poll only.
    let pollInterval = AskedWait()

    init(_ access: APIAccess) {
        requests = APIRequests(
            base: access.url, transport: access.transport, timeout: access.timeout,
            headers: [("Authorization", "Bearer " + access.secret.value), ("Accept", "application/vnd.github+json")],
            unreachable: GitHubError.unreachable)
        logger = access.logger
        skipped = SkippedItems(tracker: "GitHub", logger: access.logger)
    }

    /// `GET` of an endpoint, or of a `next` page's URL (same origin and base only).
    func get(
        _ endpoint: GitHubEndpoint, _ query: [(String, String)] = [], url: String? = nil, etag: String? = nil
    ) async throws -> HTTPResponse {
        let target = url ?? requests.url(endpoint.path, query)
        guard target.hasPrefix(requests.base + "/") else {
            // The token never follows a link elsewhere. A server reached by an alias links its pages under its own
            // name: say which, so that a person can configure that one.
            let base = Self.origin(of: requests.base).map { String(requests.base.dropFirst($0.count)) } ?? ""
            let detail = Self.origin(of: target).map {
                "a next page on \($0), not on the configured url; if that is this server's own name, set url in "
                    + "[[github]] to \($0)\(base)"
            }
            throw GitHubError.invalidResponse(endpoint: endpoint.name, detail: detail ?? "a link to another server")
        }
        let answer = try await requests.send(
            .get, target, headers: [("X-GitHub-Api-Version", version)] + (etag.map { [("If-None-Match", $0)] } ?? []))
        if let interval = answer.header("X-Poll-Interval").flatMap({ Int($0.prefix(6)) }), interval > 0 {
            pollInterval.ask(Double(min(interval, 3_600)))
        }
        if answer.status == 400, version == Self.versions[0],
            (APIErrorBody.text(answer) ?? "").lowercased().contains("version")
        {
            logger.notice("GitHub refused API version 2022-11-28; using 2026-03-10")
            version = Self.versions[1]
            return try await get(endpoint, query, url: url, etag: etag)
        }
        guard (200..<300).contains(answer.status) || answer.notModified || answer.status == 301 else {
            var failure = Self.failure(answer, endpoint: endpoint)
            // An Enterprise Server's API lives under /api/v3: its web root answers 404 (often a page) to /user.
            if case .server(404, let message, let name) = failure, endpoint == .user,
                ServerURL.host(of: requests.base)?.lowercased() != "api.github.com", !requests.base.hasSuffix("/api/v3")
            {
                let hint = "an Enterprise Server's url in [[github]] ends in /api/v3 (\(requests.base)/api/v3)"
                failure = .server(status: 404, message: message.isEmpty ? hint : "\(message); \(hint)", endpoint: name)
            }
            throw failure
        }
        return answer
    }

    func decode<Value: Decodable>(_ type: Value.Type, _ answer: HTTPResponse, _ endpoint: GitHubEndpoint) throws -> Value {
        try GitHubError.decode(type, answer, endpoint: endpoint.name, skipped: skipped)
    }

    /// The `GitHubError` for an error answer: the limits (with how long to wait), a missing scope, the rest as
    /// any tracker's.
    static func failure(_ response: HTTPResponse, endpoint: GitHubEndpoint) -> GitHubError {
        let message = APIErrorBody.text(response) ?? ""
        func limited(_ wait: Double?, _ resource: String?) -> GitHubError {
            .rateLimited(status: nil, retryAfter: wait.map(RetryAfter.jittered), limit: GitHubRefusal.limit(resource))
        }
        switch response.status {
        case 403, 429:
            if let wait = RetryAfter.seconds(in: response) { return limited(wait, nil) }
            if response.header("X-RateLimit-Remaining") == "0" {
                let resource = response.header("X-RateLimit-Resource").map { SafeText.oneLine($0, limit: 20) }
                // `X-RateLimit-Reset`: epoch seconds, counted from the answer's `Date`; at most an hour.
                let reset = response.header("X-RateLimit-Reset").flatMap { Double($0.prefix(12)) }
                    .flatMap { RetryAfter.untilReset($0, in: response, longest: 3_600) }
                return limited(reset, resource ?? "core")
            }
            if response.status == 429 || message.lowercased().contains("rate limit") {
                return limited(60, nil)  // GitHub's advice: a minute at least
            }
            return .refused(.missingScope(message: message, scopes: scopes(response)))
        // A search refused as a whole, and a classic token (it says its scopes) without the repo scope: the scope.
        case 422 where endpoint == .searchIssues && scopes(response).map(hasRepoScope) == false:
            return .refused(.missingScope(message: message, scopes: scopes(response)))
        default: return .answer(response, message: message, endpoint: endpoint.name)
        }
    }

    /// `https://host:port` of a URL from the server, if it is made of a host name's characters only (it is shown).
    static func origin(of url: String) -> String? {
        guard let scheme = ["https://", "http://"].first(where: url.hasPrefix) else { return nil }
        let authority = url.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard (1...100).contains(authority.utf8.count),
            authority.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:".contains($0)) })
        else { return nil }
        return scheme + authority
    }

    /// A classic token's scopes (`X-OAuth-Scopes`); a fine-grained token's answers have none.
    static func scopes(_ response: HTTPResponse) -> String? {
        response.header("X-OAuth-Scopes").map { SafeText.oneLine(String($0.prefix(200))) }
    }

    static func hasRepoScope(_ scopes: String) -> Bool {
        scopes.split(separator: ",").contains { $0.filter { $0 != " " } == "repo" }
    }

}

/// Reads lists, searches, issues and timelines whole or not at all. A server that links pages without end makes the
/// read fail rather than be diffed incomplete.
struct GitHubReader {
    let api: GitHubAPI
    static let mostPages = 100, mostTimelinePages = 30

    /// A list of `/issues`: `notModified` when its first page answered 304 to `etag` (nothing in it moved).
    struct ListRead {
        var issues: [GitHubIssue] = []
        var etag: String?
        var notModified = false
        /// Where a read with `since` stopped: the oldest update it saw (`nil`: the list was read to its end).
        var coveredSince: Timestamp?
    }

    /// Pull requests awaiting my review; `complete` false where GitHub said so, `refused` the repositories it refused.
    typealias ReviewRequests = (items: [GitHubIssue], complete: Bool, refused: [String])

    /// `/issues?filter=…`, newest update first: every page, or (with `since`) pages until the updates are older.
    func list(filter: String, state: String, since: Timestamp?, etag: String?) async throws -> ListRead {
        let endpoint = GitHubEndpoint.issues(filter: filter)
        let query = [
            ("filter", filter), ("state", state), ("sort", "updated"), ("direction", "desc"), ("per_page", "100"),
        ]
        let first = try await api.get(endpoint, query, etag: etag)
        var read = ListRead(etag: first.etag, notModified: first.notModified)
        if first.notModified { return read }
        let whole = try await follow(endpoint, from: first, most: Self.mostPages) { answer in
            let page = try api.decode(LossyList<GitHubIssue>.self, answer, endpoint).elements
            read.issues += page
            guard let since, let oldest = page.last.flatMap({ ServerTime.parse($0.updated_at) }), oldest < since,
                LinkHeader.target("next", in: answer) != nil
            else { return true }
            read.coveredSince = oldest
            return false
        }
        guard whole else {
            throw GitHubError.invalidResponse(endpoint: endpoint.name, detail: "more than \(Self.mostPages) pages")
        }
        return read
    }

    /// Open pull requests whose review is requested from me, in any of `repos` (none: anywhere), as a search finds
    /// them; `complete` is false where GitHub said its results are incomplete, or capped them.
    private func search(_ repos: [String], refused: [String] = []) async throws -> ReviewRequests {
        let endpoint = GitHubEndpoint.searchIssues
        let query = "is:open is:pr review-requested:@me" + repos.map { " repo:\($0)" }.joined()
        var items: [GitHubIssue] = [], complete = true
        // Search reaches 1,000 results at most: 10 pages.
        let whole = try await follow(endpoint, from: try api.get(endpoint, [("q", query), ("per_page", "100")]), most: 10) {
            let page = try api.decode(GitHubSearchPage.self, $0, endpoint)
            items += page.items.elements
            let last = LinkHeader.target("next", in: $0) == nil
            if page.incomplete_results == true || (last && (page.total_count ?? 0) > items.count) { complete = false }
            return true
        }
        return (items, complete && whole, refused)
    }

    /// Open pull requests whose review is requested from me, directly or through a team; in any of `repos` if
    /// configured (GitHub ORs `repo:`). GitHub refuses the whole search (422) when one `repo:` of it cannot be read:
    /// the repositories are then asked one by one, those refused are named in `refused`, and the search is asked
    /// again for the rest.
    func reviewRequests(repos: [String]?) async throws -> ReviewRequests {
        guard let repos else { return try await search([]) }
        if repos.isEmpty { return ([], true, []) }
        do {
            return try await search(repos)
        } catch GitHubError.server(422, let message, let endpoint) {
            var refused: [String] = []
            for repo in repos where try await !canRead(repository: repo) { refused.append(repo) }
            guard !refused.isEmpty else { throw GitHubError.server(status: 422, message: message, endpoint: endpoint) }
            let rest = repos.filter { !refused.contains($0) }
            return try await rest.isEmpty ? ([], true, refused) : search(rest, refused: refused)
        }
    }

    /// Whether this token can read `repo` (`owner/name`): 404 and 403 say it cannot.
    func canRead(repository repo: String) async throws -> Bool {
        do {
            _ = try await api.get(.repository(repo))
            return true
        } catch GitHubError.server(404, _, _), GitHubError.server(410, _, _), GitHubError.refused(.missingScope) {
            return false
        }
    }

    /// One issue or pull request, following a transfer (301 to the same server); `nil` for an answer that is the item
    /// but cannot be read (an unusable number).
    func issue(_ reference: GitHubReference) async throws -> GitHubIssue? {
        let endpoint = GitHubEndpoint.issue(reference)
        var answer = try await api.get(endpoint)
        if answer.status == 301, let location = answer.header("Location") { answer = try await api.get(endpoint, url: location) }
        return try api.decode(LossyItem<GitHubIssue>.self, answer, endpoint).value
    }

    /// The timeline of an issue or pull request, oldest first: whole, or — for an item too busy to read whole — its
    /// newest `mostTimelinePages` pages, read back from the last (`complete` false).
    func timeline(_ reference: GitHubReference) async throws -> (entries: LossyList<GitHubTimelineItem>, complete: Bool) {
        let endpoint = GitHubEndpoint.timeline(reference)
        var answer = try await api.get(endpoint, [("per_page", "100")])
        if let last = LinkHeader.target("last", in: answer), let pages = Self.page(of: last),
            pages > Self.mostTimelinePages
        {
            var pages: [LossyList<GitHubTimelineItem>] = [], seen = Set<String>()
            answer = try await api.get(endpoint, url: last)
            while true {
                pages.append(try api.decode(LossyList<GitHubTimelineItem>.self, answer, endpoint))
                guard pages.count < Self.mostTimelinePages,
                    let previous = LinkHeader.target("prev", in: answer), seen.insert(previous).inserted
                else { break }
                answer = try await api.get(endpoint, url: previous)
            }
            return (LossyList(merging: pages.reversed()), false)
        }
        var entries = LossyList<GitHubTimelineItem>()
        let whole = try await follow(endpoint, from: answer, most: Self.mostTimelinePages) {
            entries += try api.decode(LossyList<GitHubTimelineItem>.self, $0, endpoint)
            return true
        }
        return (entries, whole)
    }

    /// Pages from `first` on by `rel="next"` (`LinkPages`), each given to `read`: `false` where more were left.
    private func follow(
        _ endpoint: GitHubEndpoint, from first: HTTPResponse, most: Int, _ read: (HTTPResponse) async throws -> Bool
    ) async throws -> Bool {
        try await LinkPages.follow(
            GitHubError.self, endpoint.name, from: first, most: most, get: { try await api.get(endpoint, url: $0) }, read)
    }

    /// The `page` query parameter of a link (`…&page=42`), if it is a number.
    static func page(of link: String) -> Int? {
        let query = link.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        return query.split(separator: "&").first { $0.hasPrefix("page=") }.flatMap { Int($0.dropFirst(5).prefix(9)) }
    }
}

/// Why talking to GitHub failed, in words that say what to do next.
public typealias GitHubError = TrackerError<GitHubRefusal>

/// What only GitHub refuses.
public enum GitHubRefusal: TrackerRefusal {
    /// 403 naming a scope or a permission the token lacks.
    case missingScope(message: String, scopes: String?)
    /// Configured repositories this token cannot read (deleted, made private, access lost): named, the rest watched.
    case repositoriesUnavailable(names: [String])

    public static var tracker: String { "GitHub" }
    public static var newToken: String { "personal access token (GitHub, Settings, Developer settings)" }
    public static var sharedLimit: String? { "Other tools using the same token share its limit." }

    public var own: OwnFailure {
        switch self {
        case .missingScope(let message, let scopes):
            let has = scopes.map { " The token's scopes: \($0.isEmpty ? "none" : $0)." } ?? ""
            return OwnFailure(
                "GitHub refused the token (HTTP 403\(GitHubError.quote(message))).\(has) Give a classic token the "
                    + "repo scope (or a fine-grained one read access to Issues and Pull requests of the repositories), "
                    + "then put it in the token_file of [[github]].",
                kind: .credentials, reason: "HTTP 403: the token lacks a scope")
        case .repositoriesUnavailable(let names):
            let one = names.count == 1
            return OwnFailure(
                "GitHub \(one ? "repository" : "repositories") \(names.joined(separator: ", ")): not there, or this "
                    + "token can no longer read \(one ? "it" : "them") (deleted, made private, SSO not authorised, or a "
                    + "fine-grained token narrowed). The other repositories are watched; fix repos in [[github]] or the "
                    + "token's access.",
                kind: .configuration, reason: "repository \(SafeText.bounded(names.joined(separator: ", "), 100)) not available")
        }
    }

    /// The limit a rate limit is, in words: `the hourly limit`.
    static func limit(_ resource: String?) -> String {
        guard let resource else { return "a secondary limit" }
        return ["core": "the hourly limit", "search": "the search limit, per minute"][resource] ?? "the \(resource) limit"
    }

    public func cause(tracker: String) -> String? {
        if case .repositoriesUnavailable(let names) = self { return "\(tracker) repository \(names.joined(separator: ", ")) is not available" }
        return nil
    }
}
