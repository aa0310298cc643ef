import TrackerHTTP
import TrackwatchCore

/// The failures every tracker with a token and a JSON API shares, with their sentences, kinds and short reasons
/// written once. A tracker's own error enum keeps its cases (its code throws and catches them) and hands the shared
/// ones to this through `TrackerFailure` (with its words); what only it has (Jira's `invalidJQL`, GitHub's
/// scopes) it says itself.
public enum CommonFailure: Equatable, Sendable {
    /// No HTTP answer: connection refused, DNS, TLS, a timeout, an answer over the size limit.
    case unreachable(TransportError)
    /// 401: the token is wrong, expired or revoked.
    case tokenRejected(message: String)
    /// The server asked to wait (`retryAfter`, jitter added); `status` when the answer's own, `limit` what limit
    /// it is in the sentence (`HTTP 429`, `the hourly limit`).
    case rateLimited(status: Int?, retryAfter: Double?, limit: String)
    /// Any other error status.
    case server(status: Int, message: String, endpoint: String)
    /// A 2xx answer that is not what the API documents (HTML, garbage, a cut body, a page that repeats).
    case invalidResponse(endpoint: String, detail: String)

    /// The sentence for a person, in the words of the tracker whose failure it is.
    public func description<Failure: TrackerFailure>(_ words: Failure.Type) -> String {
        let tracker = words.tracker, table = "[[\(words.tracker.lowercased())]]"
        switch self {
        case .unreachable(let error):
            switch error.kind {
            case .tls: return "\(error.detail). If the server uses a private certificate, set ca_file in \(table)."
            case .timedOut: return "\(tracker) did not answer in time: \(error.detail). The next poll retries."
            case .responseTooLarge: return "\(tracker) sent an answer larger than trackwatch accepts: \(error.detail)."
            default:
                return "Cannot reach \(tracker): \(error.detail). Check the url in \(table) and the network; the next "
                    + "poll retries."
            }
        case .tokenRejected(let message):
            return
                "\(tracker) rejected the token (HTTP 401\(Self.quote(message))): it expired, was revoked or is wrong. "
                + "Make a new \(words.newToken) and put it in the token_file of \(table)."
        case .rateLimited(_, let retryAfter, let limit):
            let wait = retryAfter.map { "; it asked to wait \(Self.wholeSeconds($0)) s" } ?? ""
            return "\(tracker) is limiting \(words.limited) (\(limit))\(wait). trackwatch waits and tries again by "
                + "itself; nothing is lost.\(words.sharedLimit.map { " \($0)" } ?? "")"
        case .server(let status, let message, let endpoint):
            return "\(tracker) answered HTTP \(status) to the \(endpoint) request\(Self.quote(message))."
        case .invalidResponse(let endpoint, let detail):
            return "\(tracker) sent an unexpected answer to the \(endpoint) request: \(detail)."
        }
    }

    public var failureKind: FailureKind {
        switch self {
        case .unreachable(let transport): .unreachable(transport.kind)
        case .tokenRejected: .credentials
        case .rateLimited(let status, _, _): .server(status: status ?? 429)
        case .server(let status, _, _): .server(status: status)
        case .invalidResponse: .badAnswer
        }
    }

    public var reason: String {
        switch self {
        case .unreachable(let transport): transport.reason
        case .tokenRejected: "HTTP 401: token rejected"
        case .rateLimited(let status, _, _): status.map { "HTTP \($0): too many requests" } ?? "rate limited"
        case .server(let status, let message, _): "HTTP \(status)" + Self.short(message)
        case .invalidResponse(let endpoint, _): "an unexpected answer to the \(endpoint) request"
        }
    }

    /// `: message`, or nothing for none.
    public static func quote(_ message: String) -> String { message.isEmpty ? "" : ": \(message)" }

    /// `: message` bounded for a reason, or nothing for none.
    public static func short(_ message: String) -> String {
        message.isEmpty ? "" : ": " + SafeText.bounded(message, 100)
    }

    /// Seconds as a whole number for a message, whatever the value (it may come from the server).
    public static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        return Int(min(max(seconds, 0), 1e9).rounded(.up))
    }
}

/// A tracker's error enum whose shared cases are `CommonFailure`s: the description and the `SourceFailure`
/// members come from here; `own` says the rest.
public protocol TrackerFailure: SourceFailure {
    /// What people call the tracker: `GitHub` (its table: `[[github]]`).
    static var tracker: String { get }
    /// What to make when the token is rejected: `personal access token (GitHub, Settings, Developer settings)`.
    static var newToken: String { get }
    /// Whose requests a limit holds back: `this token's requests` (the default), `requests`.
    static var limited: String { get }
    /// Said after a limit, if anything: who else shares it.
    static var sharedLimit: String? { get }
    /// This failure as one every tracker has; `nil` for the tracker's own.
    var common: CommonFailure? { get }
    /// The tracker's own failure (asked only where `common` is `nil`).
    var own: OwnFailure { get }
}

/// A failure only one tracker has: its sentence, its kind, its few words.
public struct OwnFailure: Sendable {
    public var description: String
    public var kind: FailureKind
    public var reason: String

    public init(_ description: String, kind: FailureKind, reason: String) {
        self.description = description
        self.kind = kind
        self.reason = reason
    }
}

extension TrackerFailure {
    public static var newToken: String { "token" }
    public static var limited: String { "this token's requests" }
    public static var sharedLimit: String? { nil }

    public var description: String { common?.description(Self.self) ?? own.description }
    public var failureKind: FailureKind { common?.failureKind ?? own.kind }
    public var reason: String { common?.reason ?? own.reason }

    public var retryAfter: Double? {
        if case .rateLimited(_, let seconds, _)? = common { return seconds }
        return nil
    }

    public var isRateLimited: Bool {
        if case .rateLimited? = common { return true }
        return false
    }
}
