import SourceKit
import TrackerHTTP
import TrackwatchCore

/// What the outage bubble and its journal entry say: what went wrong in the case's own words (no answer at
/// all is not the same as an answer saying no), that trackwatch keeps trying by itself, and when it tries next.
struct OutageMessage: Equatable {
    let summary: String
    /// When and how trackwatch tries again (or what a person must do first).
    let next: String
    /// The error itself, which says what to check.
    let detail: String

    /// - Parameters:
    ///   - tracker: what people call the source's tracker (`SourceSettings.trackerName`).
    ///   - nextTry: when the next poll is: `in 30 s`, `at 10:35`.
    ///   - server: the source's label, when there are several.
    init(_ error: any Error, tracker: String, nextTry: String, server: String?) {
        let what: String
        let retrying = "trackwatch keeps retrying by itself; next try \(nextTry)."
        let regularPoll = "trackwatch tries again at the next regular poll (\(nextTry)), not sooner: "
            + "servers lock accounts after repeated failures."
        let fixConfiguration = "Fix the configuration, then: systemctl --user reload trackwatch"
        switch error {
        case let failure as any SourceFailure:
            (what, next) = Self.words(failure, tracker: tracker, retrying: retrying, regularPoll: regularPoll,
                                      fixConfiguration: fixConfiguration)
        case is CredentialError:
            (what, next) = ("trackwatch cannot read the password", regularPoll)
        case is ConfigError, is ConfigFileError, is UntrustedFile:
            (what, next) = ("trackwatch configuration error", fixConfiguration)
        case is StateStoreFailure:
            (what, next) = ("trackwatch cannot save its state", retrying)
        default:
            (what, next) = ("\(tracker) sent an answer trackwatch cannot use", retrying)
        }
        detail = "\(error)"
        summary = server.map { "\(what) (\($0))" } ?? what
    }

    private static func words(
        _ failure: any SourceFailure, tracker: String, retrying: String, regularPoll: String, fixConfiguration: String
    ) -> (String, String) {
        if let cause = failure.cause(tracker: tracker) {
            return (cause, failure.failureKind.remedy == .retryLater ? retrying : fixConfiguration)
        }
        switch failure.failureKind {
        // Answers that say the configuration does not match the server: waiting will not fix them.
        case .unreachable(.notTLS): return ("\(tracker) does not speak TLS on this port", fixConfiguration)
        case .unreachable(.proxyCredentials): return ("The proxy refused its credentials", regularPoll)
        case .unreachable(.timedOut): return ("\(tracker) does not answer", retrying)
        case .unreachable(let kind) where kind != .responseTooLarge: return ("Cannot reach \(tracker)", retrying)
        case .server(429): return ("\(tracker) is busy", retrying)
        case .server(let status) where status >= 500: return ("\(tracker) is unavailable", retrying)
        case .credentials: return ("\(tracker) refused the login", regularPoll)
        case .configuration: return ("trackwatch configuration error", fixConfiguration)
        default: return ("\(tracker) sent an answer trackwatch cannot use", retrying)
        }
    }

    /// "Connected to … again", for the bubble that replaces the outage bubble.
    static func recovered(tracker: String, server: String?) -> (summary: String, body: String) {
        (server.map { "Connected to \(tracker) \($0) again" } ?? "Connected to \(tracker) again",
         "Polls work again; changes made meanwhile are reported now.")
    }
}
