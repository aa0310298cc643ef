import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Why talking to Jira failed, in words that say what to do next. A poll that meets one of these commits nothing:
/// no partial answer is ever diffed.
public enum JiraError: Error, Equatable, CustomStringConvertible {
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

    public var description: String {
        switch self {
        case .unreachable(let error):
            switch error.kind {
            case .tls:
                return "\(error.detail). If the server uses a private or self-signed certificate, set ca_file in [[jira]]."
            case .timedOut:
                return "Jira did not answer in time: \(error.detail). The next poll retries."
            case .responseTooLarge:
                return "Jira sent an answer larger than trackwatch accepts for one page: \(error.detail)."
            case .notTLS:
                return "Jira does not speak TLS on this port (\(error.detail)); check the url in [[jira]]."
            default:
                return "Cannot reach Jira: \(error.detail). Check the url in [[jira]] and the network; the next poll "
                    + "retries."
            }
        case .credentialsRejected(let message, let cloud):
            let advice = cloud
                ? "The API token expired or was revoked, or is wrong (a 401 cannot tell which; Cloud tokens expire "
                    + "within a year of being made): make a new one at "
                    + "https://id.atlassian.com/manage-profile/security/api-tokens, put it in the token_file of "
                    + "[[jira]], and check that email is your Atlassian account's."
                : "The personal access token (or password) expired, was revoked or is wrong: make a new token in "
                    + "Jira (your profile, Personal Access Tokens) and put it in the token_file of [[jira]]."
            return "Jira rejected the credentials (HTTP 401\(Self.quote(message))). \(advice)"
        case .forbidden(let endpoint, let message):
            return "Jira refused the \(endpoint) request (HTTP 403\(Self.quote(message))). If Jira asks for a CAPTCHA "
                + "after failed logins, sign in once in the browser; a personal access token avoids this."
        case .rateLimited(let status, let retryAfter, let reason):
            let wait = retryAfter.map { "; it asked to wait \(Self.wholeSeconds($0)) s" } ?? ""
            let why = reason.map { " (\($0))" } ?? ""
            return "Jira is limiting requests (HTTP \(status)\(why))\(wait). trackwatch waits and tries again by "
                + "itself; nothing is lost."
        case .removed(let endpoint, let message):
            return "Jira answered 410 Gone to the \(endpoint) request: Atlassian removed that API\(Self.quote(message)). "
                + "trackwatch uses /rest/api/3/search/jql on Jira Cloud; if this persists, report it."
        case .server(let status, let message, let endpoint):
            return "Jira answered HTTP \(status) to the \(endpoint) request\(Self.quote(message))."
        case .invalidResponse(let endpoint, let detail):
            return "Jira sent an unexpected answer to the \(endpoint) request: \(detail)."
        case .projectUnavailable(let key):
            return "Project \(key): Jira says it does not exist or this account cannot see it. Check projects in "
                + "[[jira]] (keys as Jira shows them), or ask for access; the other projects are watched."
        case .invalidJQL(let message):
            return "Jira refused the jql of [[jira]]\(Self.quote(message)). Correct it (try it in Jira's issue "
                + "search first)."
        }
    }

    private static func quote(_ message: String) -> String { message.isEmpty ? "" : ": \(message)" }

    /// Seconds as a whole number for a message, whatever the value (it may come from the server).
    static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        return Int(min(max(seconds, 0), 1e9).rounded(.up))
    }
}

extension JiraError: SourceFailure {
    public var failureKind: FailureKind {
        switch self {
        case .unreachable(let transport): .unreachable(transport.kind)
        case .credentialsRejected, .forbidden: .credentials
        case .rateLimited(let status, _, _): .server(status: status)
        case .removed: .server(status: 410)
        case .server(let status, _, _): .server(status: status)
        case .invalidResponse: .badAnswer
        case .projectUnavailable, .invalidJQL: .configuration
        }
    }

    public var retryAfter: Double? {
        if case .rateLimited(_, let seconds, _) = self { return seconds }
        return nil
    }

    public var isRateLimited: Bool {
        if case .rateLimited = self { return true }
        return false
    }

    public var reason: String {
        switch self {
        case .unreachable(let transport): transport.reason
        case .credentialsRejected: "HTTP 401: credentials rejected"
        case .forbidden(_, let message): "HTTP 403" + Self.short(message)
        case .rateLimited(let status, _, _): "HTTP \(status): too many requests"
        case .removed: "HTTP 410: API removed"
        case .server(let status, let message, _): "HTTP \(status)" + Self.short(message)
        case .invalidResponse(let endpoint, _): "an unexpected answer to the \(endpoint) request"
        case .projectUnavailable(let key): "project \(key) not available"
        case .invalidJQL: "the jql was refused"
        }
    }

    private static func short(_ message: String) -> String {
        message.isEmpty ? "" : ": " + SafeText.bounded(message, 100)
    }

    public func cause(tracker: String) -> String? {
        switch self {
        case .projectUnavailable(let key): "\(tracker) project \(key) is not available"
        case .credentialsRejected: "\(tracker) rejected the token"
        default: nil
        }
    }
}
