import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Why talking to GitHub failed, in words that say what to do next. A poll that meets one of these commits nothing.
public enum GitHubError: Error, Equatable, CustomStringConvertible {
    case unreachable(TransportError)
    /// 401: the token is wrong, expired or revoked.
    case tokenRejected(message: String)
    /// 403 naming a scope or a permission the token lacks.
    case missingScope(message: String, scopes: String?)
    /// A primary limit spent (`x-ratelimit-remaining: 0`; `resource` is `core`, `search`, …) or a secondary limit
    /// (403/429): wait as told.
    case rateLimited(retryAfter: Double?, resource: String?)
    case server(status: Int, message: String, endpoint: String)
    /// A 2xx answer that is not what the API documents, or paging that never ends.
    case invalidResponse(endpoint: String, detail: String)
    /// Configured repositories this token cannot read (deleted, made private, access lost): named, the rest watched.
    case repositoriesUnavailable(names: [String])

    public var description: String {
        switch self {
        case .unreachable(let error):
            switch error.kind {
            case .tls: return "\(error.detail). If the server uses a private certificate, set ca_file in [[github]]."
            case .timedOut: return "GitHub did not answer in time: \(error.detail). The next poll retries."
            case .responseTooLarge: return "GitHub sent an answer larger than trackwatch accepts: \(error.detail)."
            default:
                return "Cannot reach GitHub: \(error.detail). Check the url in [[github]] and the network; the next "
                    + "poll retries."
            }
        case .tokenRejected(let message):
            return "GitHub rejected the token (HTTP 401\(Self.quote(message))): it expired, was revoked or is wrong. "
                + "Make a new personal access token (GitHub, Settings, Developer settings) and put it in the "
                + "token_file of [[github]]."
        case .missingScope(let message, let scopes):
            let has = scopes.map { " The token's scopes: \($0.isEmpty ? "none" : $0)." } ?? ""
            return "GitHub refused the token (HTTP 403\(Self.quote(message))).\(has) Give a classic token the repo "
                + "scope (or a fine-grained one read access to Issues and Pull requests of the repositories), then "
                + "put it in the token_file of [[github]]."
        case .rateLimited(let retryAfter, let resource):
            let wait = retryAfter.map { "; it asked to wait \(Int(min(max($0, 0), 1e9).rounded(.up))) s" } ?? ""
            let limit = switch resource {
            case nil: "a secondary limit"
            case "core"?: "the hourly limit"
            case "search"?: "the search limit, per minute"
            case let other?: "the \(other) limit"
            }
            return "GitHub is limiting this token's requests (\(limit))\(wait). "
                + "trackwatch waits and tries again by itself; nothing is lost. Other tools using the same token "
                + "share its limit."
        case .server(let status, let message, let endpoint):
            return "GitHub answered HTTP \(status) to the \(endpoint) request\(Self.quote(message))."
        case .invalidResponse(let endpoint, let detail):
            return "GitHub sent an unexpected answer to the \(endpoint) request: \(detail)."
        case .repositoriesUnavailable(let names):
            return "GitHub \(names.count == 1 ? "repository" : "repositories") \(names.joined(separator: ", ")): not "
                + "there, or this token can no longer read \(names.count == 1 ? "it" : "them") (deleted, made private, SSO "
                + "not authorised, or a fine-grained token narrowed). The other repositories are watched; fix repos in "
                + "[[github]] or the token's access."
        }
    }

    private static func quote(_ message: String) -> String { message.isEmpty ? "" : ": \(message)" }
}

extension GitHubError: SourceFailure {
    public var failureKind: FailureKind {
        switch self {
        case .unreachable(let transport): .unreachable(transport.kind)
        case .tokenRejected, .missingScope: .credentials
        case .rateLimited: .server(status: 429)
        case .server(let status, _, _): .server(status: status)
        case .invalidResponse: .badAnswer
        case .repositoriesUnavailable: .configuration
        }
    }

    public func cause(tracker: String) -> String? {
        if case .repositoriesUnavailable(let names) = self { return "\(tracker) repository \(names.joined(separator: ", ")) is not available" }
        return nil
    }

    public var retryAfter: Double? {
        if case .rateLimited(let seconds, _) = self { return seconds }
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
        case .missingScope: "HTTP 403: the token lacks a scope"
        case .rateLimited: "rate limited"
        case .server(let status, let message, _): "HTTP \(status)" + (message.isEmpty ? "" : ": " + SafeText.bounded(message, 100))
        case .invalidResponse(let endpoint, _): "an unexpected answer to the \(endpoint) request"
        case .repositoriesUnavailable(let names): "repository \(SafeText.bounded(names.joined(separator: ", "), 100)) not available"
        }
    }
}
