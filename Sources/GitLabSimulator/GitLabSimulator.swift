import SimulatorKit

/// gitlab-sim's request handling (placeholder until the server lands).
public final class GitLabSimulator: SimHandler {
    public init() {}

    public func handle(_ request: SimRequest) -> SimResponse {
        SimResponse(status: 404, body: Array(#"{"message":"404 Not Found"}"#.utf8))
    }
}
