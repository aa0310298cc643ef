import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Why talking to Forgejo failed. A poll that meets one of these commits nothing.
public typealias ForgejoError = TrackerError<ForgejoRefusal>

/// What only Forgejo refuses: a token without a scope (`read:issue`, `read:repository`, `read:user`), 403 with
/// Forgejo's message naming it.
public struct ForgejoRefusal: TrackerRefusal {
    var message: String

    public static var tracker: String { "Forgejo" }
    public static var newToken: String {
        "access token with read:user, read:issue and read:repository (Settings, Applications)"
    }
    public static var limited: String { "requests" }

    public var own: OwnFailure {
        OwnFailure(
            "Forgejo refused the token (HTTP 403\(ForgejoError.quote(message))). Give it read:user, read:issue and "
                + "read:repository (Settings, Applications), then put it in the token_file of [[forgejo]].",
            kind: .credentials, reason: "HTTP 403: the token lacks a scope")
    }
}
