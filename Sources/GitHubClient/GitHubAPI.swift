import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Every request trackwatch makes of GitHub.
enum GitHubEndpoint: Equatable {
    case user
    /// `GET /issues`: issues and pull requests assigned to me (`assigned`) or opened by me (`created`).
    case issues(filter: String)
    case searchIssues
    case issue(GitHubReference)
    case timeline(GitHubReference)
    /// `GET /repos/{owner}/{repo}`: whether this token can read a repository.
    case repository(String)

    var path: String {
        switch self {
        case .user: "/user"
        case .issues: "/issues"
        case .searchIssues: "/search/issues"
        case .issue(let reference): "/repos/\(reference.repo)/issues/\(reference.number)"
        case .timeline(let reference): "/repos/\(reference.repo)/issues/\(reference.number)/timeline"
        case .repository(let repo): "/repos/\(repo)"
        }
    }

    var name: String {
        switch self {
        case .user: "user"
        case .issues(let filter): "issues (\(filter))"
        case .searchIssues: "search/issues"
        case .issue: "issue"
        case .timeline: "timeline"
        case .repository: "repository"
        }
    }
}

/// One answer: its body unless it was `304 Not Modified`, and what it says about paging and caching.
struct GitHubAnswer {
    var response: HTTPResponse
    var notModified: Bool { response.status == 304 }
    var etag: String? { response.header("ETag").map { String($0.prefix(200)) } }
}

/// GitHub's REST API over one `HTTPTransport`: the token on every request, conditional requests where asked, every
/// answer read whole, errors as `GitHubError`. Not thread-safe: a source polls from one queue.
final class GitHubAPI {
    /// The API versions trackwatch reads: the default one, and the next where a server retired the default.
    static let versions = ["2022-11-28", "2026-03-10"]

    let requests: APIRequests
    var transport: any HTTPTransport { requests.transport }
    private let logger: Logger
    /// Items an answer held that could not be read: left out, told once.
    let skipped: SkippedItems
    private var version = GitHubAPI.versions[0]
    /// The longest `X-Poll-Interval` seen since it was last taken: it holds for the next poll only.
    var pollInterval: Double?

    init(base: String, token: Secret, transport: any HTTPTransport, timeout: Int, logger: Logger) {
        requests = APIRequests(
            base: base, transport: transport, timeout: timeout,
            headers: [("Authorization", "Bearer " + token.value), ("Accept", "application/vnd.github+json")],
            unreachable: GitHubError.unreachable)
        self.logger = logger
        skipped = SkippedItems(tracker: "GitHub", logger: logger)
    }

    /// `GET` of an endpoint, or of a `next` page's URL (same origin and base only).
    func get(
        _ endpoint: GitHubEndpoint, _ query: [(String, String)] = [], url: String? = nil, etag: String? = nil
    ) throws -> GitHubAnswer {
        let target = url ?? requests.url(endpoint.path, query)
        guard target.hasPrefix(requests.base + "/") else {
            // The token never follows a link elsewhere. A server reached by an alias links its pages under its own
            // name: say which, so that a person can configure that one.
            let detail = Self.origin(of: target).map {
                "a next page on \($0), not on the configured url; if that is this server's own name, set url in "
                    + "[[github]] to \($0)\(Self.path(of: requests.base))"
            }
            throw GitHubError.invalidResponse(endpoint: endpoint.name, detail: detail ?? "a link to another server")
        }
        let answer = try send(target, endpoint: endpoint, etag: etag)
        if answer.response.status == 400, version == Self.versions[0],
            Self.message(answer.response).lowercased().contains("version")
        {
            logger.notice("GitHub refused API version 2022-11-28; using 2026-03-10")
            version = Self.versions[1]
            return try get(endpoint, query, url: url, etag: etag)
        }
        guard (200..<300).contains(answer.response.status) || answer.notModified || answer.response.status == 301 else {
            var failure = Self.failure(answer.response, endpoint: endpoint)
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

    func decode<Value: Decodable>(_ type: Value.Type, _ answer: GitHubAnswer, _ endpoint: GitHubEndpoint) throws -> Value {
        try GitHubError.decode(type, answer.response, endpoint: endpoint.name, skipped: skipped)
    }

    /// The elements of a list answer; those that cannot be read are left out (`LossyList`).
    func decodeList<Element: Decodable>(
        _ type: Element.Type, _ answer: GitHubAnswer, _ endpoint: GitHubEndpoint
    ) throws -> [Element] {
        try decode(LossyList<Element>.self, answer, endpoint).elements
    }

    private func send(_ url: String, endpoint: GitHubEndpoint, etag: String?) throws -> GitHubAnswer {
        let response = try requests.send(
            .get, url, headers: [("X-GitHub-Api-Version", version)] + (etag.map { [("If-None-Match", $0)] } ?? []))
        if let interval = response.header("X-Poll-Interval").flatMap({ Int($0.prefix(6)) }), interval > 0 {
            pollInterval = max(pollInterval ?? 0, Double(min(interval, 3_600)))
        }
        return GitHubAnswer(response: response)
    }

    /// The `GitHubError` for an error answer: the limits (with how long to wait), a missing scope, the rest as
    /// any tracker's.
    static func failure(_ response: HTTPResponse, endpoint: GitHubEndpoint) -> GitHubError {
        let message = Self.message(response)
        func limited(_ wait: Double?, _ resource: String?) -> GitHubError {
            .rateLimited(status: nil, retryAfter: wait.map(RetryAfter.jittered), limit: GitHubRefusal.limit(resource))
        }
        switch response.status {
        case 403, 429:
            if let wait = RetryAfter.seconds(in: response) { return limited(wait, nil) }
            if response.header("X-RateLimit-Remaining") == "0" {
                let resource = response.header("X-RateLimit-Resource").map { SafeText.oneLine($0, limit: 20) }
                return limited(untilReset(response), resource ?? "core")
            }
            if response.status == 429 || message.lowercased().contains("rate limit") {
                return limited(60, nil)  // GitHub's advice: a minute at least
            }
            return .refused(.missingScope(message: message, scopes: scopes(response)))
        // A search refused as a whole, and a classic token (it says its scopes) without the repo scope: the scope.
        case 422 where endpoint == .searchIssues
            && scopes(response).map({ !$0.split(separator: ",").contains { $0.filter { $0 != " " } == "repo" } }) == true:
            return .refused(.missingScope(message: message, scopes: scopes(response)))
        default: return .answer(response, message: message, endpoint: endpoint.name)
        }
    }

    /// `https://host:port` of a URL from the server, if it is made of a host name's characters only (it is shown).
    static func origin(of url: String) -> String? {
        guard let scheme = ["https://", "http://"].first(where: url.hasPrefix) else { return nil }
        let rest = url.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard (1...100).contains(authority.utf8.count),
            authority.utf8.allSatisfy({ $0 < 0x80 && ($0 == 0x2E || $0 == 0x2D || $0 == 0x3A || Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber) })
        else { return nil }
        return scheme + authority
    }

    /// The path of the configured base (`/api/v3`, or empty).
    static func path(of base: String) -> String {
        guard let origin = origin(of: base) else { return "" }
        return String(base.dropFirst(origin.count))
    }

    static func scopes(_ response: HTTPResponse) -> String? {
        response.header("X-OAuth-Scopes").map { SafeText.oneLine(String($0.prefix(200))) }
    }

    /// Seconds until `X-RateLimit-Reset` (epoch seconds), counted from the answer's `Date`; at most an hour.
    static func untilReset(_ response: HTTPResponse) -> Double? {
        guard let reset = response.header("X-RateLimit-Reset").flatMap({ Double($0.prefix(12)) }), reset.isFinite,
            let date = response.header("Date").flatMap(RetryAfter.httpDate)
        else { return nil }
        return min(max(0, reset - date), 3_600)
    }

    static func message(_ response: HTTPResponse) -> String {
        APIErrorBody.text(response) ?? ""
    }

    /// The `rel="next"` URL of the `Link` header.
    static func nextPage(_ response: HTTPResponse) -> String? { LinkHeader.target("next", in: response) }
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
        switch resource {
        case nil: "a secondary limit"
        case "core"?: "the hourly limit"
        case "search"?: "the search limit, per minute"
        case let other?: "the \(other) limit"
        }
    }

    public func cause(tracker: String) -> String? {
        if case .repositoriesUnavailable(let names) = self { return "\(tracker) repository \(names.joined(separator: ", ")) is not available" }
        return nil
    }
}
