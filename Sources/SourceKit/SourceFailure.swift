import TrackerHTTP

/// What kind of failure ended a source's poll: what decides the command's exit status, whether the daemon
/// retries soon or waits for a person, and what the outage bubble says — for every tracker alike.
public enum FailureKind: Equatable, Sendable {
    /// No HTTP answer (connection, DNS, TLS, a timeout, a proxy), or an answer larger than accepted.
    case unreachable(TransportError.Kind)
    /// An HTTP answer with an error status (429 and 5xx: the server's trouble; others: not the documented API).
    case server(status: Int)
    /// A successful answer that is not what the tracker's API documents.
    case badAnswer
    /// The tracker refused the login or the token, or the secret could not be read.
    case credentials
    /// The configuration does not fit the tracker (a missing query or project, a wrong URL).
    case configuration
}

/// An error of a source that knows its kind. Source modules' own error types conform.
public protocol SourceFailure: Error, CustomStringConvertible {
    var failureKind: FailureKind { get }
    /// Seconds the server asked clients to wait (`Retry-After` on a 429 or 503).
    var retryAfter: Double? { get }
    /// The server refused for too many requests and said when to come back: no outage. The daemon retries after
    /// `retryAfter` and tells nobody; the failure does not count towards the outage bubble.
    var isRateLimited: Bool { get }
    /// The outage bubble's summary, when the kind's own words would not say it (a repository that is not there);
    /// `tracker` is what people call the tracker.
    func cause(tracker: String) -> String?
    /// What went wrong in a few words, without URLs: `connection refused`, `HTTP 503: maintenance` (the outage
    /// bubble's first line, after the server's name as the user wrote it).
    var reason: String { get }
}

extension SourceFailure {
    public var retryAfter: Double? { nil }
    public var isRateLimited: Bool { false }
    public func cause(tracker: String) -> String? { nil }
}

/// What a failure calls for: the exit status of a command (`ExitStatus`), and whether the daemon retries soon
/// or leaves it to a person.
public enum Remedy: Equatable, Sendable {
    /// The server's or the network's trouble: retrying later may help (exit 69).
    case retryLater
    /// An answer that is not the tracker's documented API (exit 76).
    case reportTheAnswer
    /// Credentials to fix (exit 77); never retried soon, as servers and proxies lock accounts.
    case fixCredentials
    /// The configuration to fix (exit 78).
    case fixConfiguration
}

extension FailureKind {
    public var remedy: Remedy {
        switch self {
        // An oversized answer is no outage: waiting will not shrink it.
        case .unreachable(.responseTooLarge): .reportTheAnswer
        // https:// on a plain-HTTP port: the URL is wrong, and waiting will not fix it.
        case .unreachable(.notTLS): .fixConfiguration
        // The proxy refused its credentials: like a refused login, never retried soon.
        case .unreachable(.proxyCredentials): .fixCredentials
        case .unreachable: .retryLater
        case .server(let status): status >= 500 || status == 429 ? .retryLater : .reportTheAnswer
        case .badAnswer: .reportTheAnswer
        case .credentials: .fixCredentials
        case .configuration: .fixConfiguration
        }
    }
}
