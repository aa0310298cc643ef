import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Why talking to GitHub failed, in words that say what to do next. A poll that meets one of these commits nothing.
public enum GitHubError: Error, Equatable {
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

}

extension GitHubError: TrackerFailure {
    public static var tracker: String { "GitHub" }
    public static var newToken: String { "personal access token (GitHub, Settings, Developer settings)" }
    public static var sharedLimit: String? { "Other tools using the same token share its limit." }

    public var common: CommonFailure? {
        switch self {
        case .unreachable(let error): .unreachable(error)
        case .tokenRejected(let message): .tokenRejected(message: message)
        case .rateLimited(let retryAfter, let resource):
            .rateLimited(status: nil, retryAfter: retryAfter, limit: Self.limit(resource))
        case .server(let status, let message, let endpoint):
            .server(status: status, message: message, endpoint: endpoint)
        case .invalidResponse(let endpoint, let detail): .invalidResponse(endpoint: endpoint, detail: detail)
        case .missingScope, .repositoriesUnavailable: nil
        }
    }

    public var own: OwnFailure {
        switch self {
        case .missingScope(let message, let scopes):
            let has = scopes.map { " The token's scopes: \($0.isEmpty ? "none" : $0)." } ?? ""
            return OwnFailure(
                "GitHub refused the token (HTTP 403\(CommonFailure.quote(message))).\(has) Give a classic token the "
                    + "repo scope (or a fine-grained one read access to Issues and Pull requests of the repositories), "
                    + "then put it in the token_file of [[github]].",
                kind: .credentials, reason: "HTTP 403: the token lacks a scope")
        case .repositoriesUnavailable(let names):
            let one = names.count == 1
            return OwnFailure(
                "GitHub \(one ? "repository" : "repositories") \(names.joined(separator: ", ")): not there, or this "
                    + "token can no longer read \(one ? "it" : "them") (deleted, made private, SSO not authorised, or a "
                    + "fine-grained token narrowed). The other repositories are watched; fix repos in [[github]] or the "
                    + "token's access.",
                kind: .configuration, reason: "repository \(SafeText.bounded(names.joined(separator: ", "), 100)) not available")
        default: preconditionFailure("a shared failure")
        }
    }

    /// The limit a rate limit is, in words: `the hourly limit`.
    private static func limit(_ resource: String?) -> String {
        switch resource {
        case nil: "a secondary limit"
        case "core"?: "the hourly limit"
        case "search"?: "the search limit, per minute"
        case let other?: "the \(other) limit"
        }
    }

    public func cause(tracker: String) -> String? {
        if case .repositoriesUnavailable(let names) = self { return "\(tracker) repository \(names.joined(separator: ", ")) is not available" }
        return nil
    }
}
