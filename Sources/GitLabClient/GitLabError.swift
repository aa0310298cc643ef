import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Why talking to GitLab failed, in words that say what to do next. A poll that meets one of these commits nothing.
public enum GitLabError: Error, Equatable, CustomStringConvertible {
    case unreachable(TransportError)
    /// 401: the token is wrong, expired or revoked.
    case tokenRejected(message: String)
    /// 429 (with `Retry-After`, or GitLab's plain "Retry later"): wait as told.
    case rateLimited(retryAfter: Double?)
    case server(status: Int, message: String, endpoint: String)
    case invalidResponse(endpoint: String, detail: String)
    /// A configured project the token cannot see (404) or may not read (403).
    case projectUnavailable(path: String, status: Int)

    public var description: String {
        switch self {
        case .unreachable(let error):
            switch error.kind {
            case .tls: return "\(error.detail). If the server uses a private certificate, set ca_file in [[gitlab]]."
            case .timedOut: return "GitLab did not answer in time: \(error.detail). The next poll retries."
            case .responseTooLarge: return "GitLab sent an answer larger than trackwatch accepts: \(error.detail)."
            default:
                return "Cannot reach GitLab: \(error.detail). Check the url in [[gitlab]] and the network; the next "
                    + "poll retries."
            }
        case .tokenRejected(let message):
            return "GitLab rejected the token (HTTP 401\(message.isEmpty ? "" : ": \(message)")): it expired, was "
                + "revoked or is wrong. Make a new personal access token with the read_api scope (GitLab, "
                + "Preferences, Access tokens) and put it in the token_file of [[gitlab]]."
        case .rateLimited(let retryAfter):
            let wait = retryAfter.map { "; it asked to wait \(Int(min(max($0, 0), 1e9).rounded(.up))) s" } ?? ""
            return "GitLab is limiting this token's requests (HTTP 429)\(wait). trackwatch waits and tries again by "
                + "itself; nothing is lost."
        case .server(let status, let message, let endpoint):
            return "GitLab answered HTTP \(status) to the \(endpoint) request\(message.isEmpty ? "" : ": \(message)")."
        case .invalidResponse(let endpoint, let detail):
            return "GitLab sent an unexpected answer to the \(endpoint) request: \(detail)."
        case .projectUnavailable(let path, let status):
            let why = status == 403 ? "the token may not read it" : "GitLab has no such project, or the token cannot see it"
            return "Project \(path): \(why) (HTTP \(status)). Check projects in [[gitlab]] (full paths, such as "
                + "platform/web), or ask for access; the other projects are watched."
        }
    }
}

extension GitLabError: SourceFailure {
    public var failureKind: FailureKind {
        switch self {
        case .unreachable(let transport): .unreachable(transport.kind)
        case .tokenRejected: .credentials
        case .rateLimited: .server(status: 429)
        case .server(let status, _, _): .server(status: status)
        case .invalidResponse: .badAnswer
        case .projectUnavailable: .configuration
        }
    }

    public var retryAfter: Double? {
        if case .rateLimited(let seconds) = self { return seconds }
        return nil
    }

    public var isRateLimited: Bool {
        if case .rateLimited = self { return true }
        return false
    }

    public var reason: String {
        switch self {
        case .unreachable(let transport): transport.reason
        case .tokenRejected: "HTTP 401: token rejected"
        case .rateLimited: "HTTP 429: too many requests"
        case .server(let status, let message, _): "HTTP \(status)" + (message.isEmpty ? "" : ": " + SafeText.bounded(message, 100))
        case .invalidResponse(let endpoint, _): "an unexpected answer to the \(endpoint) request"
        case .projectUnavailable(let path, let status): "project \(path): HTTP \(status)"
        }
    }

    public func cause(tracker: String) -> String? {
        if case .projectUnavailable(let path, _) = self { return "\(tracker) project \(path) is not available" }
        return nil
    }
}
