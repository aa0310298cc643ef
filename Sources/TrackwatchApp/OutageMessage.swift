import SourceKit
import TrackerHTTP
import TrackwatchCore

/// What the outage bubble and its journal entry say: the case in its own words (no answer at all is not the same
/// as an answer saying no) as the summary; one line of cause, with the server as the user wrote it; one line of
/// what trackwatch does about it. Nothing that goes stale on screen (no "next try in 11 s": the service's status
/// line has the next poll), no internal URL; the journal keeps the whole error.
struct OutageMessage: Equatable {
    let summary: String
    /// The cause, then what trackwatch does (or what a person must do first).
    let body: [String]
    /// The error itself, which says what to check: for the journal.
    let detail: String

    /// - Parameters:
    ///   - tracker: what people call the source's tracker (`SourceSettings.trackerName`).
    ///   - label: the source as the user wrote it (`SourceSettings.label`: a profile's name, the URL).
    ///   - several: whether there are several sources (then the summary names this one).
    init(_ original: any Error, tracker: String, label: String, several: Bool) {
        let retrying = "trackwatch retries by itself."
        let regularPoll = "trackwatch retries at the next regular poll, not sooner (servers lock accounts)."
        let fixConfiguration = "Fix the configuration, then: systemctl --user reload trackwatch"
        let what: String, next: String, reason: String
        // A table that could not be made is named as written (`[[github]] work`); the words are the cause's.
        let error = (original as? SourceSetupError)?.underlying ?? original
        switch error {
        case let failure as any SourceFailure:
            (what, next) = Self.words(failure, tracker: tracker, retrying: retrying, regularPoll: regularPoll,
                                      fixConfiguration: fixConfiguration)
            reason = failure.reason
        case is CredentialError:
            // Nothing was sent: no account to lock, but nothing heals by itself either.
            (what, next, reason) = (
                "trackwatch cannot read the password or token",
                "Fix it; trackwatch tries again at each regular poll, or at once on: "
                    + "systemctl --user reload trackwatch",
                "\(error)")
        case is ConfigError, is ConfigFileError, is UntrustedFile:
            (what, next, reason) = ("trackwatch configuration error", fixConfiguration, "\(error)")
        case is StateStoreFailure:
            (what, next, reason) = ("trackwatch cannot save its state", retrying, "\(error)")
        default:
            (what, next, reason) = ("\(tracker) sent an answer trackwatch cannot use", retrying, "\(error)")
        }
        detail = "\(original)"
        summary = several ? "\(what) (\(label))" : what
        body = ["\((original as? SourceSetupError)?.table ?? label): \(reason)", next]
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

    /// A rate limit that has held the source for long (`Daemon`): `GitHub is rate-limiting trackwatch; next try
    /// 10:42`. The next try is a clock time, which stays true while the bubble is on screen.
    init(rateLimited failure: any SourceFailure, tracker: String, label: String, several: Bool, nextTry: String) {
        let what = "\(tracker) is rate-limiting trackwatch"
        summary = (several ? "\(what) (\(label))" : what) + "; next try \(nextTry)"
        body = ["\(label): \(failure.reason)", "trackwatch waits as \(tracker) asked, and retries by itself."]
        detail = "\(failure)"
    }

    /// "Connected to Compass again", for the bubble that replaces the outage bubble.
    static func recovered(tracker: String, server: String?) -> (summary: String, body: String) {
        (server.map { "Connected to \(tracker) \($0) again" } ?? "Connected to \(tracker) again",
         "Polls work again; changes made meanwhile are reported now.")
    }
}
