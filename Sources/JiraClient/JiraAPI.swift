import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Which Jira the server is, as `serverInfo` says (never guessed from the host name).
enum JiraFlavour: String, Sendable {
    /// As the memory keeps it (`TrackerMemory`).
    case cloud, dataCenter = "datacenter"

    /// The REST version trackwatch speaks: v3 on Cloud (its current API, ADF bodies), v2 on Data Center.
    var apiVersion: String { self == .cloud ? "3" : "2" }
}

/// Every request trackwatch makes of Jira.
enum JiraEndpoint: Equatable {
    case serverInfo, myself
    /// Cloud's search (`nextPageToken`).
    case searchJQL
    /// Data Center's search (`startAt`/`total`); removed from Cloud (410).
    case search
    /// Cloud's changelogs of up to 1,000 issues at once.
    case bulkChangelog
    case issue(id: String), issueChangelog(id: String), issueComments(id: String)

    func path(_ flavour: JiraFlavour) -> String {
        let (_, path, version) = parts
        return "/rest/api/\(version ?? flavour.apiVersion)\(path)"
    }

    /// How messages name it.
    var name: String { parts.name }

    /// Its name, its path under `/rest/api/<version>`, and the version where only one has it.
    private var parts: (name: String, path: String, version: String?) {
        switch self {
        case .serverInfo: ("serverInfo", "/serverInfo", "2")
        case .myself: ("myself", "/myself", nil)
        case .searchJQL: ("search/jql", "/search/jql", nil)
        case .search: ("search", "/search", "2")
        case .bulkChangelog: ("changelog/bulkfetch", "/changelog/bulkfetch", "3")
        case .issue(let id): ("issue", "/issue/\(id)", nil)
        case .issueChangelog(let id): ("issue changelog", "/issue/\(id)/changelog", nil)
        case .issueComments(let id): ("issue comments", "/issue/\(id)/comment", nil)
        }
    }
}

/// Jira's REST API over one `HTTPTransport`: credentials on every request, every answer read whole (or the request
/// fails), errors as `JiraError`. Not thread-safe: a source polls from one queue.
final class JiraAPI {
    let requests: APIRequests
    private let logger: Logger
    /// Issues an answer held that could not be read: left out, told once.
    let skipped: SkippedItems
    /// Learned from `serverInfo` at the first request that needs it; kept for the process.
    var flavour: JiraFlavour?

    /// `signIn` says how the secret is sent: a personal access token as `Bearer`, the others as HTTP Basic.
    init(_ access: APIAccess, signIn: JiraSettings.SignIn) {
        let secret = access.secret.value
        let authorization = signIn == .personalToken
            ? "Bearer " + secret : BasicAuthorization.header(user: signIn.user, password: secret)
        requests = APIRequests(
            base: access.url, transport: access.transport, timeout: access.timeout,
            headers: [("Authorization", authorization), ("Accept", "application/json")],
            unreachable: JiraError.unreachable)
        logger = access.logger
        skipped = SkippedItems(tracker: "Jira", logger: access.logger)
    }

    /// The server's flavour, asked once.
    func knownFlavour() async throws -> JiraFlavour {
        if let flavour { return flavour }
        let info: JiraServerInfo = try await get(.serverInfo, flavour: .dataCenter)
        let found: JiraFlavour = info.deploymentType?.lowercased() == "cloud" ? .cloud : .dataCenter
        logger.info("Jira flavour", metadata: ["flavour": "\(found)", "version": "\(SafeText.bounded(info.version ?? "", 40))"])
        flavour = found
        return found
    }

    func get<Answer: Decodable>(
        _ endpoint: JiraEndpoint, _ query: [(String, String)] = [], flavour: JiraFlavour? = nil
    ) async throws -> Answer {
        let flavour = if let flavour { flavour } else { try await knownFlavour() }
        return try await send(.get, endpoint, query, body: nil, flavour: flavour)
    }

    func post<Answer: Decodable>(_ endpoint: JiraEndpoint, _ body: some Encodable) async throws -> Answer {
        try await send(.post, endpoint, [], body: APIRequests.json(body), flavour: knownFlavour())
    }

    /// One request, its answer read; an error status becomes a `JiraError`.
    private func send<Answer: Decodable>(
        _ method: HTTPMethod, _ endpoint: JiraEndpoint, _ query: [(String, String)], body: [UInt8]?,
        flavour: JiraFlavour
    ) async throws -> Answer {
        let response = try await requests.answer(method, endpoint.path(flavour), query, body: body) {
            Self.failure($0, endpoint: endpoint, cloud: flavour == .cloud)
        }
        return try JiraError.decode(Answer.self, response, endpoint: endpoint.name, skipped: skipped)
    }

    /// The `JiraError` for an error answer.
    static func failure(_ response: HTTPResponse, endpoint: JiraEndpoint, cloud: Bool) -> JiraError {
        let message = JSONAnswer.message(JiraErrorBody.self, response)?.text ?? ""
        switch response.status {
        case 401: return .refused(.credentialsRejected(message: message, cloud: cloud))
        case 403 where response.header("X-Authentication-Denied-Reason") != nil || message.lowercased().contains("captcha"):
            return .refused(.forbidden(endpoint: endpoint.name, message: message))
        case 410: return .refused(.removed(endpoint: endpoint.name, message: message))
        // A 503 without Retry-After is an outage like any 5xx; with it, the server asked for a pause.
        case 503 where response.header("Retry-After") == nil:
            return .server(status: 503, message: message, endpoint: endpoint.name)
        case 429, 503:
            // Atlassian's advice: wait what it says, plus jitter, so that clients do not come back in step.
            let reason = response.header("RateLimit-Reason").map { " (\(SafeText.oneLine($0, limit: 60)))" } ?? ""
            return .rateLimited(
                status: response.status, retryAfter: retryAfter(response).map(RetryAfter.jittered),
                limit: "HTTP \(response.status)\(reason)")
        default: return .server(status: response.status, message: message, endpoint: endpoint.name)
        }
    }

    /// `Retry-After`, else `X-RateLimit-Reset` (an ISO 8601 time) counted from the answer's `Date`.
    static func retryAfter(_ response: HTTPResponse) -> Double? {
        RetryAfter.seconds(in: response)
            ?? response.header("X-RateLimit-Reset").flatMap { Timestamp.parse($0)?.timestamp.secondsSinceEpoch }
            .flatMap { RetryAfter.untilReset(Double($0), in: response) }
    }
}

/// Why talking to Jira failed, in words that say what to do next. A poll that meets one of these commits nothing:
/// no partial answer is ever diffed.
public typealias JiraError = TrackerError<JiraRefusal>

/// What only Jira refuses.
public enum JiraRefusal: TrackerRefusal {
    /// 401: the token (or password) is wrong, expired or revoked — Jira cannot say which. `cloud` picks the advice.
    case credentialsRejected(message: String, cloud: Bool)
    /// 403: signed in, but refused (Data Center's CAPTCHA after failed logins says so here too).
    case forbidden(endpoint: String, message: String)
    /// 410: the endpoint was removed (Jira Cloud's `/search`, CHANGE-2046).
    case removed(endpoint: String, message: String)
    /// A configured project this account cannot see, or that does not exist (Jira answers 400, not 403).
    case projectUnavailable(key: String)
    /// The configured `jql` is refused by Jira.
    case invalidJQL(message: String)

    public static var tracker: String { "Jira" }
    public static var limited: String { "requests" }

    public static func unreachable(_ error: TransportError) -> String? {
        switch error.kind {
        case .tls: "\(error.detail). If the server uses a private or self-signed certificate, set ca_file in [[jira]]."
        case .notTLS: "Jira does not speak TLS on this port (\(error.detail)); check the url in [[jira]]."
        case .responseTooLarge: "Jira sent an answer larger than trackwatch accepts for one page: \(error.detail)."
        default: nil
        }
    }

    public var own: OwnFailure {
        let quote = JiraError.quote
        switch self {
        case .credentialsRejected(let message, let cloud):
            let advice = cloud
                ? "The API token expired or was revoked, or is wrong (a 401 cannot tell which; Cloud tokens expire "
                    + "within a year of being made): make a new one at "
                    + "https://id.atlassian.com/manage-profile/security/api-tokens, put it in the token_file of "
                    + "[[jira]], and check that email is your Atlassian account's."
                : "The personal access token (or password) expired, was revoked or is wrong: make a new token in "
                    + "Jira (your profile, Personal Access Tokens) and put it in the token_file of [[jira]]."
            return OwnFailure(
                "Jira rejected the credentials (HTTP 401\(quote(message))). \(advice)", kind: .credentials,
                reason: "HTTP 401: credentials rejected")
        case .forbidden(let endpoint, let message):
            return OwnFailure(
                "Jira refused the \(endpoint) request (HTTP 403\(quote(message))). If Jira asks for a CAPTCHA after "
                    + "failed logins, sign in once in the browser; a personal access token avoids this.",
                kind: .credentials, reason: "HTTP 403" + JiraError.short(message))
        case .removed(let endpoint, let message):
            return OwnFailure(
                "Jira answered 410 Gone to the \(endpoint) request: Atlassian removed that API\(quote(message)). "
                    + "trackwatch uses /rest/api/3/search/jql on Jira Cloud; if this persists, report it.",
                kind: .server(status: 410), reason: "HTTP 410: API removed")
        case .projectUnavailable(let key):
            return OwnFailure(
                "Project \(key): Jira says it does not exist or this account cannot see it. Check projects in "
                    + "[[jira]] (keys as Jira shows them), or ask for access; the other projects are watched.",
                kind: .configuration, reason: "project \(key) not available")
        case .invalidJQL(let message):
            return OwnFailure(
                "Jira refused the jql of [[jira]]\(quote(message)). Correct it (try it in Jira's issue search first).",
                kind: .configuration, reason: "the jql was refused")
        }
    }

    public func cause(tracker: String) -> String? {
        switch self {
        case .projectUnavailable(let key): "\(tracker) project \(key) is not available"
        case .credentialsRejected: "\(tracker) rejected the token"
        default: nil
        }
    }
}
