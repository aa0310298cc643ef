import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Why talking to Compass failed, in words that say what to do next. The poll that meets one of these
/// fails as a whole: no partial result is ever diffed.
public enum CompassError: Error, Equatable, CustomStringConvertible {
    /// No HTTP response: connection refused, DNS, TLS, timeout.
    case unreachable(TransportError)
    /// The server rejected the credentials at login (401/403). Never retried in a loop: servers lock accounts.
    case loginRejected(status: Int, message: String)
    /// A personal access token was refused.
    case tokenRejected(status: Int, message: String)
    /// Any other non-2xx answer, with the server's own message and, for 429/503, how many seconds the server
    /// asked clients to wait (`Retry-After`).
    case server(status: Int, message: String, endpoint: String, retryAfter: Double? = nil)
    /// A 2xx answer that is not what the API documents (HTML, garbage JSON, wrong row shape).
    case invalidResponse(endpoint: String, detail: String)
    /// Paging ended before `recordCount` rows arrived, or returned more than announced.
    case incompleteResult(String)
    case invalidConfiguration(String)
    /// The server has no repository `repo`, or the repository no database `database`; `known` lists what the
    /// server has instead (its names made plain and bounded), empty when it would not say.
    case repositoryOrDatabaseNotFound(repo: String, database: String, missingRepository: Bool, known: [String])

    public var description: String {
        switch self {
        case .unreachable(let error):
            switch error.kind {
            case .tls:
                return "\(error.detail). If the server uses a private or self-signed certificate, set ca_file in [server]."
            case .tlsVersion:
                return "\(error.detail): trackwatch requires TLS 1.2 or later. "
                    + "Ask the Compass administrator to enable it."
            case .notTLS:
                return "The server does not speak TLS on this port (\(error.detail)) — "
                    + "use http:// or the HTTPS port in the url in [server]."
            case .proxy:
                return "The proxy refused the connection to Compass: \(error.detail). "
                    + "Check proxy in [server] or the proxy environment variables."
            case .proxyCredentials:
                return "The proxy refused the connection to Compass: \(error.detail). "
                    + "trackwatch tries again only at the next poll (a proxy may lock the account after failures)."
            case .timedOut:
                return "Compass did not answer in time: \(error.detail). The next poll retries."
            case .responseTooLarge:
                return "Compass sent a response larger than trackwatch accepts: \(error.detail). If that is a real result page, lower page_size in [poll]."
            default:
                return "Cannot reach Compass: \(error.detail). Check the url in [server] and the network; the next poll retries."
            }
        case .loginRejected(let status, let message) where message.lowercased().contains("lock"):
            // Another wrong guess would only extend the lock: say who can lift it.
            return "Compass refused the login because the account is locked (HTTP \(status)\(Self.quote(message))). "
                + "Ask your Compass administrator to unlock it; trackwatch tries again only at the next poll."
        case .loginRejected(let status, let message):
            return "Compass rejected the login (HTTP \(status)\(Self.quote(message))). Check username, repo, database "
                + "and the password source in the config; trackwatch will not retry until the next poll."
        case .tokenRejected(let status, let message):
            return "Compass rejected the personal access token (HTTP \(status)\(Self.quote(message))). "
                + "Create a new token in the Compass REST server's welcome page and update token_file."
        case .server(let status, let message, let endpoint, let retryAfter):
            let wait = retryAfter.map { "; it asked to retry after \(Self.wholeSeconds($0)) s" } ?? ""
            return "Compass answered HTTP \(status) to the \(endpoint) request\(Self.quote(message))\(wait)."
        case .invalidResponse(let endpoint, let detail):
            return "Compass sent an unexpected answer to the \(endpoint) request: \(detail)."
        case .incompleteResult(let detail):
            return "Compass returned an incomplete result (\(detail)); nothing was changed, the next poll retries."
        case .invalidConfiguration(let detail):
            return detail
        case .repositoryOrDatabaseNotFound(let repo, let database, let missingRepository, let known):
            let others = known.isEmpty ? "" : " (it has \(known.joined(separator: ", ")))"
            let what = missingRepository
                ? "the server has no repository \"\(repo)\"\(others)"
                : "the repository \"\(repo)\" has no database \"\(database)\"\(others)"
            return "Repository or database not found: \(what). Check repo and database in [server]."
        }
    }

    /// Seconds as a whole number for a message, whatever the value (it may come from the server).
    private static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        return Int(min(max(seconds, 0), 1e9).rounded(.up))
    }

    /// Seconds the server asked to wait before the next request, if it did.
    public var retryAfter: Double? {
        if case .server(_, _, _, let retryAfter) = self { return retryAfter }
        return nil
    }

    private static func quote(_ message: String) -> String { message.isEmpty ? "" : ": \(message)" }
}

extension CompassError: SourceFailure {
    public var failureKind: FailureKind {
        switch self {
        case .unreachable(let transport): .unreachable(transport.kind)
        case .loginRejected, .tokenRejected: .credentials
        case .server(let status, _, _, _): .server(status: status)
        case .invalidResponse, .incompleteResult: .badAnswer
        case .invalidConfiguration, .repositoryOrDatabaseNotFound: .configuration
        }
    }

    public func cause(tracker: String) -> String? {
        if case .repositoryOrDatabaseNotFound = self { return "\(tracker) has no such repository or database" }
        return nil
    }

    public var reason: String {
        switch self {
        case .unreachable(let transport): transport.reason
        case .loginRejected(let status, let message), .tokenRejected(let status, let message),
             .server(let status, let message, _, _):
            "HTTP \(status)" + (message.isEmpty ? "" : ": " + SafeText.bounded(message, 100))
        case .invalidResponse(let endpoint, _): "an unexpected answer to the \(endpoint) request"
        case .incompleteResult: "an incomplete result"
        case .invalidConfiguration(let detail): SafeText.bounded(detail, 160)
        case .repositoryOrDatabaseNotFound(let repo, let database, let missingRepository, _):
            missingRepository ? "no repository \"\(SafeText.bounded(repo, 40))\""
                : "no database \"\(SafeText.bounded(database, 40))\" in \"\(SafeText.bounded(repo, 40))\""
        }
    }
}
