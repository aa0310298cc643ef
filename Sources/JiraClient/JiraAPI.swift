#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Which Jira the server is, as `serverInfo` says (never guessed from the host name).
enum JiraFlavour: Equatable, Sendable {
    case cloud, dataCenter

    /// The REST version trackwatch speaks: v3 on Cloud (its current API, ADF bodies), v2 on Data Center.
    var apiVersion: String { self == .cloud ? "3" : "2" }
}

/// Every request trackwatch makes of Jira.
enum JiraEndpoint: Equatable {
    case serverInfo
    case myself
    /// Cloud's search (`nextPageToken`).
    case searchJQL
    /// Data Center's search (`startAt`/`total`); removed from Cloud (410).
    case search
    /// Cloud's changelogs of up to 1,000 issues at once.
    case bulkChangelog
    case issue(id: String)
    case issueChangelog(id: String)
    case issueComments(id: String)

    func path(_ flavour: JiraFlavour) -> String {
        let api = "/rest/api/\(flavour.apiVersion)"
        switch self {
        case .serverInfo: return "/rest/api/2/serverInfo"
        case .myself: return "\(api)/myself"
        case .searchJQL: return "\(api)/search/jql"
        case .search: return "/rest/api/2/search"
        case .bulkChangelog: return "/rest/api/3/changelog/bulkfetch"
        case .issue(let id): return "\(api)/issue/\(id)"
        case .issueChangelog(let id): return "\(api)/issue/\(id)/changelog"
        case .issueComments(let id): return "\(api)/issue/\(id)/comment"
        }
    }

    /// How messages name it.
    var name: String {
        switch self {
        case .serverInfo: "serverInfo"
        case .myself: "myself"
        case .searchJQL: "search/jql"
        case .search: "search"
        case .bulkChangelog: "changelog/bulkfetch"
        case .issue: "issue"
        case .issueChangelog: "issue changelog"
        case .issueComments: "issue comments"
        }
    }
}

/// Jira's REST API over one `HTTPTransport`: credentials on every request, every answer read whole (or the request
/// fails), errors as `JiraError`. Not thread-safe: a source polls from one queue.
final class JiraAPI {
    let requests: APIRequests
    var transport: any HTTPTransport { requests.transport }
    private let logger: Logger
    /// Learned from `serverInfo` at the first request that needs it; kept for the process.
    var flavour: JiraFlavour?

    init(base: String, authorization: Secret, transport: any HTTPTransport, timeout: Int, logger: Logger) {
        requests = APIRequests(
            base: base, transport: transport, timeout: timeout,
            headers: [("Authorization", authorization.value), ("Accept", "application/json")],
            unreachable: JiraError.unreachable)
        self.logger = logger
    }

    /// The `Authorization` header for a sign-in and its secret.
    static func authorization(_ signIn: JiraSettings.SignIn, secret: Secret) -> Secret {
        switch signIn {
        case .apiToken(let user), .password(let user):
            Secret(BasicAuthorization.header(user: user, password: secret.value))
        case .personalToken: Secret("Bearer " + secret.value)
        }
    }

    /// The server's flavour, asked once.
    func knownFlavour() throws -> JiraFlavour {
        if let flavour { return flavour }
        let info: JiraServerInfo = try get(.serverInfo, flavour: .dataCenter)
        let found: JiraFlavour = info.deploymentType?.lowercased() == "cloud" ? .cloud : .dataCenter
        logger.info("Jira flavour", metadata: ["flavour": "\(found)", "version": "\(SafeText.bounded(info.version ?? "", 40))"])
        flavour = found
        return found
    }

    func get<Answer: Decodable>(
        _ endpoint: JiraEndpoint, _ query: [(String, String)] = [], flavour: JiraFlavour? = nil
    ) throws -> Answer {
        let flavour = try flavour ?? knownFlavour()
        let response = try send(.get, endpoint, query, body: nil, flavour: flavour)
        return try decode(response, endpoint)
    }

    func post<Body: Encodable, Answer: Decodable>(_ endpoint: JiraEndpoint, _ body: Body) throws -> Answer {
        let flavour = try knownFlavour()
        let bytes: [UInt8]
        do { bytes = Array(try JSONEncoder().encode(body)) } catch {
            preconditionFailure("a request body that does not encode: \(error)")
        }
        let response = try send(.post, endpoint, [], body: bytes, flavour: flavour)
        return try decode(response, endpoint)
    }

    private func decode<Answer: Decodable>(_ response: HTTPResponse, _ endpoint: JiraEndpoint) throws -> Answer {
        try JSONAnswer.decode(Answer.self, response) { JiraError.invalidResponse(endpoint: endpoint.name, detail: $0) }
    }

    /// Sends one request; an error status becomes a `JiraError`.
    private func send(
        _ method: HTTPMethod, _ endpoint: JiraEndpoint, _ query: [(String, String)], body: [UInt8]?,
        flavour: JiraFlavour
    ) throws -> HTTPResponse {
        let response = try requests.send(method, url(endpoint.path(flavour), query), body: body)
        guard !(200..<300).contains(response.status) else { return response }
        throw Self.failure(response, endpoint: endpoint, cloud: flavour == .cloud)
    }

    /// The `JiraError` for an error answer.
    static func failure(_ response: HTTPResponse, endpoint: JiraEndpoint, cloud: Bool) -> JiraError {
        let message = JSONAnswer.message(JiraErrorBody.self, response)?.text ?? ""
        switch response.status {
        case 401: return .credentialsRejected(message: message, cloud: cloud)
        case 403 where response.header("X-Authentication-Denied-Reason") != nil || message.lowercased().contains("captcha"):
            return .forbidden(endpoint: endpoint.name, message: message)
        case 410: return .removed(endpoint: endpoint.name, message: message)
        case 429, 503:
            // A 503 without Retry-After is an outage like any 5xx; with it, the server asked for a pause.
            if response.status == 503, response.header("Retry-After") == nil {
                return .server(status: 503, message: message, endpoint: endpoint.name)
            }
            // Atlassian's advice: wait what it says, plus jitter, so that clients do not come back in step.
            let wait = retryAfter(response).map(RetryAfter.jittered)
            let reason = response.header("RateLimit-Reason").map { SafeText.oneLine($0, limit: 60) }
            return .rateLimited(status: response.status, retryAfter: wait, reason: reason)
        default: return .server(status: response.status, message: message, endpoint: endpoint.name)
        }
    }

    /// `Retry-After`, else `X-RateLimit-Reset` (an ISO 8601 time) counted from the answer's `Date`.
    static func retryAfter(_ response: HTTPResponse) -> Double? {
        if let seconds = RetryAfter.seconds(in: response) { return seconds }
        guard let reset = response.header("X-RateLimit-Reset").flatMap({ Timestamp.parse($0)?.timestamp }),
            let resetSeconds = reset.secondsSinceEpoch,
            let date = response.header("Date").flatMap(RetryAfter.httpDate)
        else { return nil }
        return min(max(0, Double(resetSeconds) - date), RetryAfter.longest)
    }

    func url(_ path: String, _ query: [(String, String)]) -> String { requests.url(path, query) }

}
