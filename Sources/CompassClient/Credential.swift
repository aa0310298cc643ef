import TrackwatchCore

/// How trackwatch authenticates to Compass.
public enum Credential: Sendable, Equatable {
    /// Log in with `POST /authenticate` and use the returned bearer token.
    case password(Secret)
    /// A personal access token sent as `Authorization: Basic <token>` on every request (Compass 2.2+).
    case personalAccessToken(Secret)
}
