import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Why talking to Forgejo failed, in words that say what to do next. A poll that meets one of these commits nothing.
public enum ForgejoError: Error, Equatable, CustomStringConvertible {
    case unreachable(TransportError)
    /// 401: the token is wrong, expired or revoked.
    case tokenRejected(message: String)
    /// 403: the token lacks a scope (`read:issue`, `read:repository`, `read:user`).
    case missingScope(message: String)
    /// 429 or 503, often a reverse proxy's HTML page: wait, as told where it says.
    case busy(status: Int, retryAfter: Double?)
    case server(status: Int, message: String, endpoint: String)
    /// A 2xx answer that is not what the API documents, or paging that never ends or comes up short.
    case invalidResponse(endpoint: String, detail: String)

    public var description: String {
        switch self {
        case .unreachable(let error):
            switch error.kind {
            case .tls: return "\(error.detail). If the server uses a private certificate, set ca_file in [[forgejo]]."
            case .timedOut: return "Forgejo did not answer in time: \(error.detail). The next poll retries."
            default: return "Cannot reach Forgejo: \(error.detail). Check the url in [[forgejo]] and the network."
            }
        case .tokenRejected(let message):
            return "Forgejo rejected the token (HTTP 401\(Self.quote(message))): it expired, was revoked or is wrong. "
                + "Make a new access token (Settings, Applications) and put it in the token_file of [[forgejo]]."
        case .missingScope(let message):
            return "Forgejo refused the token (HTTP 403\(Self.quote(message))). Give it read:user, read:issue and "
                + "read:repository, then put it in the token_file of [[forgejo]]."
        case .busy(let status, let retryAfter):
            let wait = retryAfter.map { "; it asked to wait \(Int(min(max($0, 0), 1e9).rounded(.up))) s" } ?? ""
            return "Forgejo is busy (HTTP \(status))\(wait). trackwatch waits and tries again by itself."
        case .server(let status, let message, let endpoint):
            return "Forgejo answered HTTP \(status) to the \(endpoint) request\(Self.quote(message))."
        case .invalidResponse(let endpoint, let detail):
            return "Forgejo sent an unexpected answer to the \(endpoint) request: \(detail)."
        }
    }

    private static func quote(_ message: String) -> String { message.isEmpty ? "" : ": \(message)" }
}

extension ForgejoError: SourceFailure {
    public var failureKind: FailureKind {
        switch self {
        case .unreachable(let transport): .unreachable(transport.kind)
        case .tokenRejected, .missingScope: .credentials
        case .busy(let status, _): .server(status: status)
        case .server(let status, _, _): .server(status: status)
        case .invalidResponse: .badAnswer
        }
    }

    public var retryAfter: Double? {
        if case .busy(_, let seconds) = self { return seconds }
        return nil
    }

    /// A wait the server asked for: no outage.
    public var isRateLimited: Bool {
        if case .busy(_, let seconds) = self { return seconds != nil }
        return false
    }

    public var reason: String {
        switch self {
        case .unreachable(let transport): transport.reason
        case .tokenRejected: "HTTP 401: token rejected"
        case .missingScope: "HTTP 403: the token lacks a scope"
        case .busy(let status, _): "HTTP \(status): busy"
        case .server(let status, let message, _):
            "HTTP \(status)" + (message.isEmpty ? "" : ": " + SafeText.bounded(message, 100))
        case .invalidResponse(let endpoint, _): "an unexpected answer to the \(endpoint) request"
        }
    }
}
