import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Why talking to Qase failed, in words that say what to do next. A watch that meets one of these commits
/// nothing: no partial answer is ever diffed.
public enum QaseError: Error, Equatable, CustomStringConvertible {
    /// No HTTP answer: connection refused, DNS, TLS, timeout, an answer over the size limit.
    case unreachable(TransportError)
    /// 401: the token is missing, wrong, revoked, or its person inactive.
    case tokenRejected(message: String)
    /// 403 on a route that is not a project's: the token's role may not read it.
    case forbidden(endpoint: String, message: String)
    /// 429: too many requests for this token; `retryAfter` is what the server asked, with jitter added.
    case rateLimited(retryAfter: Double?)
    /// Any other error status.
    case server(status: Int, message: String, endpoint: String, retryAfter: Double? = nil)
    /// A 2xx answer that is not what the API documents (HTML, garbage, a cut body, a page that repeats).
    case invalidResponse(endpoint: String, detail: String)
    /// A configured project the token cannot see (403) or that does not exist (404).
    case projectUnavailable(code: String, status: Int, message: String)
    /// No Qase person has the configured e-mail.
    case noSuchUser(email: String, authorsSearched: Int)

    public var description: String {
        switch self {
        case .unreachable(let error):
            switch error.kind {
            case .tls:
                return
                    "\(error.detail). If the server uses a private or self-signed certificate, set ca_file in [[qase]]."
            case .timedOut:
                return "Qase did not answer in time: \(error.detail). The next poll retries."
            case .responseTooLarge:
                return "Qase sent an answer larger than trackwatch accepts for one page: \(error.detail)."
            case .notTLS:
                return "Qase does not speak TLS on this port (\(error.detail)); check the url in [[qase]]."
            default:
                return "Cannot reach Qase: \(error.detail). Check the url in [[qase]] and the network; the next "
                    + "poll retries."
            }
        case .tokenRejected(let message):
            return "Qase rejected the API token (HTTP 401\(Self.quote(message))). Create a personal token in Qase "
                + "(your profile, API tokens) and put it in the token_file of [[qase]]."
        case .forbidden(let endpoint, let message):
            return "Qase refused the \(endpoint) request (HTTP 403\(Self.quote(message))): the token's role may not "
                + "read it. Use a personal token of a member with read access."
        case .rateLimited(let retryAfter):
            let wait = retryAfter.map { "; it asked to wait \(Self.wholeSeconds($0)) s" } ?? ""
            return "Qase is limiting this token's requests (HTTP 429)\(wait). trackwatch waits and tries again by "
                + "itself; nothing is lost. Other tools using the same token share its limit."
        case .server(let status, let message, let endpoint, let retryAfter):
            let wait = retryAfter.map { "; it asked to retry after \(Self.wholeSeconds($0)) s" } ?? ""
            let hint =
                status == 404 && endpoint == "project list"
                ? " Check that the url in [[qase]] ends with the API version, e.g. https://api.qase.io/v1." : ""
            return "Qase answered HTTP \(status) to the \(endpoint) request\(Self.quote(message))\(wait).\(hint)"
        case .invalidResponse(let endpoint, let detail):
            return "Qase sent an unexpected answer to the \(endpoint) request: \(detail)."
        case .projectUnavailable(let code, let status, let message):
            let why = status == 403 ? "the token cannot see it" : "Qase has no such project"
            return "Project \(code): \(why) (HTTP \(status)\(Self.quote(message))). Check projects in [[qase]] (codes "
                + "as Qase shows them), or ask for access to the project; the other projects are watched."
        case .noSuchUser(let email, let searched):
            return "No Qase user has the e-mail \(email) (searched \(searched) people). Set email in [[qase]] to the "
                + "address of your Qase account, the person whose token it is."
        }
    }

    private static func quote(_ message: String) -> String { message.isEmpty ? "" : ": \(message)" }

    /// Seconds as a whole number for a message, whatever the value (it may come from the server).
    static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        return Int(min(max(seconds, 0), 1e9).rounded(.up))
    }
}

extension QaseError: SourceFailure {
    public var failureKind: FailureKind {
        switch self {
        case .unreachable(let transport): .unreachable(transport.kind)
        case .tokenRejected, .forbidden: .credentials
        case .rateLimited: .server(status: 429)
        case .server(let status, _, _, _): .server(status: status)
        case .invalidResponse: .badAnswer
        case .projectUnavailable, .noSuchUser: .configuration
        }
    }

    public var retryAfter: Double? {
        switch self {
        case .rateLimited(let seconds): seconds
        case .server(_, _, _, let seconds): seconds
        default: nil
        }
    }

    public var isRateLimited: Bool {
        if case .rateLimited = self { return true }
        return false
    }

    public var reason: String {
        switch self {
        case .unreachable(let transport): transport.reason
        case .tokenRejected(let message): "HTTP 401" + Self.short(message)
        case .forbidden(_, let message): "HTTP 403" + Self.short(message)
        case .rateLimited: "HTTP 429: too many requests"
        case .server(let status, let message, _, _): "HTTP \(status)" + Self.short(message)
        case .invalidResponse(let endpoint, _): "an unexpected answer to the \(endpoint) request"
        case .projectUnavailable(let code, let status, _): "project \(code): HTTP \(status)"
        case .noSuchUser(let email, _): "no user with the e-mail \(SafeText.bounded(email, 80))"
        }
    }

    private static func short(_ message: String) -> String {
        message.isEmpty ? "" : ": " + SafeText.bounded(message, 100)
    }

    public func cause(tracker: String) -> String? {
        switch self {
        case .projectUnavailable(let code, _, _): "\(tracker) project \(code) is not available"
        case .noSuchUser: "\(tracker) has no user with your e-mail"
        default: nil
        }
    }
}
