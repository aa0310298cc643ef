import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Why talking to GitLab failed, in words that say what to do next. A poll that meets one of these commits nothing.
public enum GitLabError: Error, Equatable {
    case unreachable(TransportError)
    /// 401: the token is wrong, expired or revoked.
    case tokenRejected(message: String)
    /// 429 (with `Retry-After`, or GitLab's plain "Retry later"): wait as told.
    case rateLimited(retryAfter: Double?)
    case server(status: Int, message: String, endpoint: String)
    case invalidResponse(endpoint: String, detail: String)
    /// A configured project the token cannot see (404) or may not read (403).
    case projectUnavailable(path: String, status: Int)

}

extension GitLabError: TrackerFailure {
    public static var tracker: String { "GitLab" }
    public static var newToken: String {
        "personal access token with the read_api scope (GitLab, Preferences, Access tokens)"
    }

    public var common: CommonFailure? {
        switch self {
        case .unreachable(let error): .unreachable(error)
        case .tokenRejected(let message): .tokenRejected(message: message)
        case .rateLimited(let retryAfter): .rateLimited(status: 429, retryAfter: retryAfter, limit: "HTTP 429")
        case .server(let status, let message, let endpoint):
            .server(status: status, message: message, endpoint: endpoint)
        case .invalidResponse(let endpoint, let detail): .invalidResponse(endpoint: endpoint, detail: detail)
        case .projectUnavailable: nil
        }
    }

    public var own: OwnFailure {
        guard case .projectUnavailable(let path, let status) = self else { preconditionFailure("a shared failure") }
        let why = status == 403 ? "the token may not read it" : "GitLab has no such project, or the token cannot see it"
        return OwnFailure(
            "Project \(path): \(why) (HTTP \(status)). Check projects in [[gitlab]] (full paths, such as "
                + "platform/web), or ask for access; the other projects are watched.",
            kind: .configuration, reason: "project \(path): HTTP \(status)")
    }

    public func cause(tracker: String) -> String? {
        if case .projectUnavailable(let path, _) = self { return "\(tracker) project \(path) is not available" }
        return nil
    }
}
