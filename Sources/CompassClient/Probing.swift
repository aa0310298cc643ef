import TrackerHTTP
import TrackwatchCore

/// What `trackwatch probe` asks of the client beyond what a poll does. Everything else the probe learns comes
/// from the same code paths the daemon uses (`run`, `resultTraits`, `queryPath`, `cookieNames`).
extension CompassClient {
    /// Logs in (if needed) and reads the workspace's root folders: the personal one as the server names it, and
    /// every root's name (made plain and bounded).
    public func rootFolders() async throws -> (personal: String, all: [String]) {
        let roots = try await readWorkspaceRoots()
        return (Self.serverText(roots.personal.name), roots.names)
    }

    /// How the server answers a token after its session was logged off: logs this session off, then asks for
    /// the workspace folders once with the old token (no new login, so that a probe never costs more than one
    /// login and cannot lock an account). The client has no session afterwards. `nil` without a session token
    /// (a personal access token has no session to end).
    public func refusalOfLoggedOffToken() async throws -> (logoffStatus: Int, refusalStatus: Int)? {
        guard case .password = credential, token != nil else { return nil }
        defer {
            token = nil
            cookies.removeAll()
        }
        let logoff = try await rawSend(.logoff, method: .post, body: nil)
        let refusal = try await rawSend(.folders, method: .get, body: nil)
        return (logoff.status, refusal.status)
    }

    /// An HTTP `Date` header as seconds since 1970 (UTC), or `nil` when it is not an IMF-fixdate in 1970…9999.
    public static func serverClock(_ dateHeader: String) -> Double? { RetryAfter.httpDate(dateHeader) }
}

extension CompassClient {
    /// Server text made fit for a report line (`serverText`: one line, no control or bidi characters, bounded).
    public static func plainServerText(_ text: String) -> String { serverText(text) }
}
