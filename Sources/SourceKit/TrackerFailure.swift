import TrackerHTTP
import TrackwatchCore

/// Why talking to a tracker with a token and a JSON API failed, in words that say what to do next. The failures
/// every such tracker has are cases here, worded once in the tracker's name; what only one tracker has (Jira's
/// invalid JQL, GitHub's missing scope) is its `Refusal`, which says its own sentence. A poll that meets one of
/// these commits nothing. Each tracker names its own: `typealias GitHubError = TrackerError<GitHubRefusal>`.
public enum TrackerError<Refusal: TrackerRefusal>: SourceFailure, Equatable {
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
    /// Configured projects the token cannot see (404) or may not read (403, 401): named, the others watched.
    case projectUnavailable(name: String, status: Int)
    /// What only this tracker refuses or says.
    case refused(Refusal)

    /// The sentence for a person, in the words of the tracker whose failure it is.
    public var description: String {
        let tracker = Refusal.tracker, table = "[[\(Refusal.table)]]"
        switch self {
        case .unreachable(let error):
            if let own = Refusal.unreachable(error) { return own }
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
                + "Make a new \(Refusal.newToken) and put it in the token_file of \(table)."
        case .rateLimited(_, let retryAfter, let limit):
            let wait = retryAfter.map { "; it asked to wait \(Self.wholeSeconds($0)) s" } ?? ""
            return "\(tracker) is limiting \(Refusal.limited) (\(limit))\(wait). trackwatch waits and tries again by "
                + "itself; nothing is lost.\(Refusal.sharedLimit.map { " \($0)" } ?? "")"
        case .server(let status, let message, let endpoint):
            return "\(tracker) answered HTTP \(status) to the \(endpoint) request\(Self.quote(message))."
        case .invalidResponse(let endpoint, let detail):
            return "\(tracker) sent an unexpected answer to the \(endpoint) request: \(detail)."
        case .projectUnavailable(let name, let status):
            let why = status == 404
                ? "\(tracker) has no such project, or the token cannot see it" : "the token may not read it"
            return "Project \(name): \(why) (HTTP \(status)). Check projects in \(table) (\(Refusal.projectNames)), or "
                + "ask for access; the other projects are watched."
        case .refused(let refusal): return refusal.own.description
        }
    }

    public var failureKind: FailureKind {
        switch self {
        case .unreachable(let transport): .unreachable(transport.kind)
        case .tokenRejected: .credentials
        case .rateLimited(let status, _, _): .server(status: status ?? 429)
        case .server(let status, _, _): .server(status: status)
        case .invalidResponse: .badAnswer
        case .projectUnavailable: .configuration
        case .refused(let refusal): refusal.own.kind
        }
    }

    public var reason: String {
        switch self {
        case .unreachable(let transport): transport.reason
        case .tokenRejected: "HTTP 401: token rejected"
        case .rateLimited(let status, _, _): status.map { "HTTP \($0): too many requests" } ?? "rate limited"
        case .server(let status, let message, _): "HTTP \(status)" + Self.short(message)
        case .invalidResponse(let endpoint, _): "an unexpected answer to the \(endpoint) request"
        case .projectUnavailable(let name, let status): "project \(name): HTTP \(status)"
        case .refused(let refusal): refusal.own.reason
        }
    }

    public var retryAfter: Double? {
        if case .rateLimited(_, let seconds, _) = self { return seconds }
        return nil
    }

    public var isRateLimited: Bool {
        if case .rateLimited = self { return true }
        return false
    }

    public func cause(tracker: String) -> String? {
        switch self {
        case .projectUnavailable(let name, _): "\(tracker) project \(name) is not available"
        case .refused(let refusal): refusal.cause(tracker: tracker)
        default: nil
        }
    }

    /// An error answer as trackers mean it unless they say otherwise: 401 a rejected token, 429 a wait, any other
    /// status itself.
    public static func answer(_ response: HTTPResponse, message: String, endpoint: String) -> Self {
        switch response.status {
        case 401: .tokenRejected(message: message)
        case 429: .waitAsked(response)
        default: .server(status: response.status, message: message, endpoint: endpoint)
        }
    }

    /// The server asked to wait: `Retry-After`, else a minute, with jitter so that clients do not come back in
    /// step.
    public static func waitAsked(_ response: HTTPResponse) -> Self {
        .rateLimited(
            status: response.status, retryAfter: RetryAfter.jittered(RetryAfter.seconds(in: response) ?? 60),
            limit: "HTTP \(response.status)")
    }

    /// The configured projects a poll names unreadable, with the highest status one of them was refused with
    /// (`refused`; 404 where none is known).
    public static func projectsUnavailable(_ names: [String], refused: [String: Int]) -> Self {
        .projectUnavailable(
            name: names.joined(separator: ", "), status: names.compactMap { refused[$0] }.max() ?? 404)
    }

    /// A 2xx answer's body as `Value`, or `invalidResponse` saying what came instead (`JSONAnswer`).
    public static func decode<Value: Decodable>(
        _ type: Value.Type, _ response: HTTPResponse, endpoint: String, skipped: SkippedItems? = nil
    ) throws -> Value {
        try JSONAnswer.decode(type, response, skipped: skipped) { Self.invalidResponse(endpoint: endpoint, detail: $0) }
    }

    /// `: message`, or nothing for none.
    public static func quote(_ message: String) -> String { message.isEmpty ? "" : ": \(message)" }

    /// `: message` bounded for a reason, or nothing for none.
    public static func short(_ message: String) -> String {
        message.isEmpty ? "" : ": " + SafeText.bounded(message, 100)
    }

    /// Seconds as a whole number for a message, whatever the value (it may come from the server).
    static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        return Int(min(max(seconds, 0), 1e9).rounded(.up))
    }
}

/// What only one tracker refuses or says (Jira's invalid JQL, GitHub's missing scope), and the tracker's words
/// that `TrackerError` says the shared failures in.
public protocol TrackerRefusal: Equatable, Sendable {
    /// What people call the tracker: `GitHub`.
    static var tracker: String { get }
    /// Its table, without brackets: `github` (the default: `tracker` in lower case).
    static var table: String { get }
    /// What to make when the token is rejected: `personal access token (GitHub, Settings, Developer settings)`.
    static var newToken: String { get }
    /// Whose requests a limit holds back: `this token's requests` (the default), `requests`.
    static var limited: String { get }
    /// Said after a limit, if anything: who else shares it.
    static var sharedLimit: String? { get }
    /// How projects are named in its table: `full paths, such as platform/web`.
    static var projectNames: String { get }
    /// The tracker's own sentence for no answer of this kind, if it has one.
    static func unreachable(_ error: TransportError) -> String?
    /// Its sentence, kind and few words.
    var own: OwnFailure { get }
    /// The outage bubble's summary, where the kind's own words would not say it (`SourceFailure.cause`).
    func cause(tracker: String) -> String?
}

extension TrackerRefusal {
    public static var table: String { tracker.lowercased() }
    public static var newToken: String { "token" }
    public static var limited: String { "this token's requests" }
    public static var sharedLimit: String? { nil }
    public static var projectNames: String { "names as \(tracker) shows them" }
    public static func unreachable(_ error: TransportError) -> String? { nil }
    public func cause(tracker: String) -> String? { nil }
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
