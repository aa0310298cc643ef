import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Why reading a JSON list failed, in words that say what to do next. The poll that meets one fails whole:
/// nothing is diffed, nothing changes, and the next good poll reports what happened meanwhile.
public enum JSONListError: Error, Equatable {
    /// No HTTP answer (connection, DNS, TLS, a timeout), or one larger than `max_size`.
    case unreachable(TransportError, list: String, maxSize: Int)
    /// 401 or 403, and whether credentials went with the request.
    case credentialsRefused(status: Int, message: String, list: String, sent: CredentialsSent)
    /// Any other error status; 429 and 503 carry the wait the server asked for.
    case status(Int, message: String, list: String, retryAfter: Double?)
    /// 404 or 410: the URL names no list.
    case notFound(status: Int, url: String)
    /// A successful answer that is not a JSON list (HTML, garbage, cut short, empty).
    case badAnswer(String, list: String)
    /// Paging that repeats itself or never ends.
    case paging(String)
    /// A list, or one answer, past what it may cost (`max_size` for a list's pages together): `reason` for the
    /// outage bubble, `detail` with the key that raises the limit.
    case tooLarge(reason: String, detail: String)
    /// The configuration does not fit the answer (the items pointer, the key).
    case configuration(String)
}

/// Whether credentials went with a refused request.
public enum CredentialsSent: Equatable, Sendable {
    case sent
    /// The configuration has none.
    case notConfigured
    /// A redirect led to another origin (host, port, or down to http), where they and `headers` are never sent.
    case withheldAfterRedirect
}

extension JSONListError: SourceFailure {
    public var failureKind: FailureKind {
        switch self {
        case .unreachable(let error, _, _): .unreachable(error.kind)
        case .credentialsRefused: .credentials
        case .status(let status, _, _, _): .server(status: status)
        case .notFound, .configuration: .configuration
        case .badAnswer, .paging, .tooLarge: .badAnswer
        }
    }

    public var retryAfter: Double? {
        if case .status(_, _, _, let retryAfter) = self { return retryAfter }
        return nil
    }

    /// A 429, or a 503 that said when to come back: the daemon waits as told and tells nobody.
    public var isRateLimited: Bool {
        if case .status(let status, _, _, let retryAfter) = self {
            return status == 429 || (status == 503 && retryAfter != nil)
        }
        return false
    }

    /// The outage bubble's first line: what went wrong in a few words, without URLs.
    public var reason: String {
        switch self {
        case .unreachable(let error, _, let maxSize):
            error.kind == .responseTooLarge && !error.isOversizedHeader ? "an answer larger than max_size (\(Self.size(maxSize)))" : error.reason
        case .credentialsRefused(let status, let message, _, _), .status(let status, let message, _, _):
            "HTTP \(status)" + (message.isEmpty ? "" : ": " + SafeText.bounded(message, 100))
        case .notFound(let status, _): "HTTP \(status): no list at the url"
        case .badAnswer(let detail, _): "an answer that is not a JSON list (\(SafeText.bounded(detail, 100)))"
        case .paging: "paging that repeats itself or never ends"
        case .tooLarge(let reason, _): reason
        case .configuration(let detail): SafeText.bounded(detail, 160)
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let error, let list, let maxSize):
            return Self.describe(error, list: list, maxSize: maxSize)
        case .credentialsRefused(let status, let message, let list, let sent):
            switch sent {
            case .notConfigured:
                return "\(list) asks for credentials (HTTP \(status)\(Self.quote(message))): add username and "
                    + "password_file (HTTP Basic), token_file (a bearer token) or header and token_file to "
                    + "[[json]] \(list)."
            case .withheldAfterRedirect:
                return "\(list) answered HTTP \(status)\(Self.quote(message)) after a redirect to another host or to "
                    + "plain http, where trackwatch does not send credentials; point url in [[json]] \(list) at the "
                    + "final address."
            case .sent: break
            }
            return "\(list) refused the credentials (HTTP \(status)\(Self.quote(message))). Check username and the "
                + "password or token source (password_file, token_file, header, headers) in [[json]] \(list); "
                + "trackwatch does not retry until the next poll."
        case .status(let status, let message, let list, let retryAfter):
            let wait = retryAfter.map { "; it asked to wait \(Self.wholeSeconds($0)) s, and trackwatch does" } ?? ""
            return
                "\(list) answered HTTP \(status)\(Self.quote(message))\(wait). Nothing changed; the next poll retries."
        case .notFound(let status, let url):
            return "\(url) answered HTTP \(status): there is no list there. Check url in [[json]]."
        case .badAnswer(let detail, let list):
            return "\(list) sent an answer that is not a JSON list: \(detail). Nothing changed; the next poll retries."
        case .paging(let detail), .configuration(let detail), .tooLarge(_, let detail):
            return detail
        }
    }

    private static func describe(_ error: TransportError, list: String, maxSize: Int) -> String {
        switch error.kind {
        case .responseTooLarge where error.isOversizedHeader:
            return "\(list): \(error.detail)."
        case .responseTooLarge:
            return "\(list) sent an answer larger than max_size (\(Self.size(maxSize))): \(error.detail). "
                + "If the list is really that large, raise max_size in [[json]] \(list)."
        case .tls:
            return
                "\(error.detail). If the server uses a private or self-signed certificate, set ca_file in "
                + "[[json]] \(list)."
        case .notTLS:
            return "The server does not speak TLS on this port (\(error.detail)): use http:// or the HTTPS port in url."
        case .timedOut:
            return "\(list) did not answer in time (timeout in [[json]] \(list)): \(error.detail). Nothing changed; "
                + "the next poll retries."
        case .proxy, .proxyCredentials:
            return "The proxy refused the connection to \(list): \(error.detail). Check proxy in [[json]] or the proxy "
                + "environment variables."
        default:
            return "Cannot reach \(list): \(error.detail). Check url in [[json]] \(list) and the network. Nothing "
                + "changed; the next poll retries."
        }
    }

    /// `16 MB`, `512 KB`.
    static func size(_ bytes: Int) -> String {
        bytes >= 1_048_576 && bytes % 1_048_576 == 0
            ? "\(bytes / 1_048_576) MB"
            : bytes >= 1_024 ? "\(bytes / 1_024) KB" : "\(bytes) bytes"
    }

    private static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        return Int(min(max(seconds, 0), 1e9).rounded(.up))
    }

    private static func quote(_ message: String) -> String { message.isEmpty ? "" : ": \(message)" }
}
