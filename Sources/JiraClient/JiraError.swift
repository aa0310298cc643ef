import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Why talking to Jira failed, in words that say what to do next. A poll that meets one of these commits nothing:
/// no partial answer is ever diffed.
public enum JiraError: Error, Equatable {
    /// No HTTP answer: connection refused, DNS, TLS, timeout, an answer over the size limit.
    case unreachable(TransportError)
    /// 401: the token (or password) is wrong, expired or revoked — Jira cannot say which. `cloud` picks the advice.
    case credentialsRejected(message: String, cloud: Bool)
    /// 403: signed in, but refused (Data Center's CAPTCHA after failed logins says so here too).
    case forbidden(endpoint: String, message: String)
    /// 429, or 503 with `Retry-After`: the server asked to wait; `retryAfter` with jitter added.
    case rateLimited(status: Int, retryAfter: Double?, reason: String?)
    /// 410: the endpoint was removed (Jira Cloud's `/search`, CHANGE-2046).
    case removed(endpoint: String, message: String)
    /// Any other error status.
    case server(status: Int, message: String, endpoint: String)
    /// A 2xx answer that is not what the API documents (HTML, garbage, a cut body, a page that repeats).
    case invalidResponse(endpoint: String, detail: String)
    /// A configured project this account cannot see, or that does not exist (Jira answers 400, not 403).
    case projectUnavailable(key: String)
    /// The configured `jql` is refused by Jira.
    case invalidJQL(message: String)

}

extension JiraError: TrackerFailure {
    public static var tracker: String { "Jira" }
    public static var limited: String { "requests" }

    public var common: CommonFailure? {
        switch self {
        case .unreachable(let error) where ![.tls, .responseTooLarge, .notTLS].contains(error.kind): .unreachable(error)
        case .rateLimited(let status, let retryAfter, let reason):
            .rateLimited(
                status: status, retryAfter: retryAfter, limit: "HTTP \(status)\(reason.map { " (\($0))" } ?? "")")
        case .server(let status, let message, let endpoint):
            .server(status: status, message: message, endpoint: endpoint)
        case .invalidResponse(let endpoint, let detail): .invalidResponse(endpoint: endpoint, detail: detail)
        default: nil
        }
    }

    public var own: OwnFailure {
        let quote = CommonFailure.quote
        switch self {
        case .unreachable(let error):
            let description = switch error.kind {
            case .tls: "\(error.detail). If the server uses a private or self-signed certificate, set ca_file in [[jira]]."
            case .notTLS: "Jira does not speak TLS on this port (\(error.detail)); check the url in [[jira]]."
            default: "Jira sent an answer larger than trackwatch accepts for one page: \(error.detail)."
            }
            return OwnFailure(description, kind: .unreachable(error.kind), reason: error.reason)
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
                kind: .credentials, reason: "HTTP 403" + CommonFailure.short(message))
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
        default: preconditionFailure("a shared failure")
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
