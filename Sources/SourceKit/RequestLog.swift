import Logging
import TrackerHTTP
import TrackwatchCore

/// One debug line per request of a tracker on the shared poller (`check -v`, the daemon's `-v`), as Compass logs
/// its own: method, route, status, bytes and milliseconds. The route is the tracker's template of the path
/// (`/repos/{owner}/{repo}/issues/{number}`): the path carries names and ids, and the query is left out. No header
/// is logged, so no token.
struct RequestLog: HTTPTransport {
    let base: any HTTPTransport
    let logger: Logger
    let route: @Sendable (String) -> String

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard logger.logLevel <= .debug else { return try await base.send(request) }
        let clock = ContinuousClock(), start = clock.now
        var metadata: Logger.Metadata = ["method": "\(request.method.rawValue)", "route": "\(route(Self.path(of: request.url)))"]
        do {
            let response = try await base.send(request)
            metadata["status"] = "\(response.status)"
            metadata["bytes"] = "\(response.body.count)"
            metadata["ms"] = "\(Self.milliseconds(clock.now - start))"
            logger.debug("request", metadata: metadata)
            return response
        } catch {
            metadata["ms"] = "\(Self.milliseconds(clock.now - start))"
            metadata["error"] = "\(SafeText.oneLine(String("\(error)".prefix(300))))"
            logger.debug("request failed", metadata: metadata)
            throw error
        }
    }

    func closeIdleConnections() { base.closeIdleConnections() }

    /// The path of an absolute URL, without its query or fragment, cut to 300 characters, on one line.
    static func path(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        let path = rest.drop { $0 != "/" }.prefix { $0 != "?" && $0 != "#" }
        return SafeText.oneLine(String(path.prefix(300)))
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
