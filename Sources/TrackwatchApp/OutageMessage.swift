import CompassClient
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
    ///   - nextTry: when the next poll is: `in 30 s`, `at 10:35`.
    ///   - server: the server's label, when there are several.
    init(_ error: any Error, nextTry: String, server: String?) {
        let what: String
        let retrying = "trackwatch keeps retrying by itself; next try \(nextTry)."
        let regularPoll = "trackwatch tries again at the next regular poll (\(nextTry)), not sooner: "
            + "servers lock accounts after repeated failures."
        let fixConfiguration = "Fix the configuration, then: systemctl --user reload trackwatch"
        switch error {
        // Answers that say the configuration does not match the server: waiting will not fix them.
        case CompassError.unreachable(let transport) where transport.kind == .notTLS:
            (what, next) = ("Compass does not speak TLS on this port", fixConfiguration)
        case CompassError.unreachable(let transport) where transport.kind == .proxyCredentials:
            (what, next) = ("The proxy refused its credentials", regularPoll)
        case CompassError.repositoryOrDatabaseNotFound:
            (what, next) = ("Compass has no such repository or database", fixConfiguration)
        case CompassError.unreachable(let transport) where transport.kind == .timedOut:
            (what, next) = ("Compass does not answer", retrying)
        case CompassError.unreachable(let transport) where transport.kind != .responseTooLarge:
            (what, next) = ("Cannot reach Compass", retrying)
        case CompassError.server(let status, _, _, _) where status == 429:
            (what, next) = ("Compass is busy", retrying)
        case CompassError.server(let status, _, _, _) where status >= 500:
            (what, next) = ("Compass is unavailable", retrying)
        case CompassError.loginRejected, CompassError.tokenRejected:
            (what, next) = ("Compass refused the login", regularPoll)
        case is CredentialError:
            (what, next) = ("trackwatch cannot read the password", regularPoll)
        case is ConfigError, is ConfigFileError, is UntrustedFile, CompassError.invalidConfiguration:
            (what, next) = ("trackwatch configuration error", fixConfiguration)
        case is StateStoreFailure:
            (what, next) = ("trackwatch cannot save its state", retrying)
        default:
            (what, next) = ("Compass sent an answer trackwatch cannot use", retrying)
        }
        detail = "\(error)"
        summary = server.map { "\(what) (\($0))" } ?? what
    }

    /// "Connected to Compass again", for the bubble that replaces the outage bubble.
    static func recovered(server: String?) -> (summary: String, body: String) {
        (server.map { "Connected to Compass \($0) again" } ?? "Connected to Compass again",
         "Polls work again; changes made meanwhile are reported now.")
    }
}
