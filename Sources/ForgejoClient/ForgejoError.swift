import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Why talking to Forgejo failed. A poll that meets one of these commits nothing.
public enum ForgejoError: Error, Equatable {
    case unreachable(TransportError)
    /// 401: the token is wrong, expired or revoked.
    case tokenRejected(message: String)
    /// 403: the token lacks a scope (`read:issue`, `read:repository`, `read:user`); Forgejo's message names it.
    case missingScope(message: String)
    /// 429, or a 503 that is a reverse proxy's (an HTML page, or `Retry-After`): wait as told, or a minute.
    case busy(status: Int, retryAfter: Double)
    case server(status: Int, message: String, endpoint: String)
    /// A 2xx answer that is not what the API documents, or paging that never ends or comes up short.
    case invalidResponse(endpoint: String, detail: String)
}

extension ForgejoError: TrackerFailure {
    public static var tracker: String { "Forgejo" }
    public static var newToken: String {
        "access token with read:user, read:issue and read:repository (Settings, Applications)"
    }
    public static var limited: String { "requests" }

    public var common: CommonFailure? {
        switch self {
        case .unreachable(let error): .unreachable(error)
        case .tokenRejected(let message): .tokenRejected(message: message)
        case .busy(let status, let wait): .rateLimited(status: status, retryAfter: wait, limit: "HTTP \(status)")
        case .server(let status, let message, let endpoint):
            .server(status: status, message: message, endpoint: endpoint)
        case .invalidResponse(let endpoint, let detail): .invalidResponse(endpoint: endpoint, detail: detail)
        case .missingScope: nil
        }
    }

    public var own: OwnFailure {
        guard case .missingScope(let message) = self else { preconditionFailure("a shared failure") }
        return OwnFailure(
            "Forgejo refused the token (HTTP 403\(CommonFailure.quote(message))). Give it read:user, read:issue and "
                + "read:repository (Settings, Applications), then put it in the token_file of [[forgejo]].",
            kind: .credentials, reason: "HTTP 403: the token lacks a scope")
    }
}
