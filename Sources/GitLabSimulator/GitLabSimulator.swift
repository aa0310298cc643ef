#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Synchronization
import SimulatorKit

/// gitlab-sim's request handling, independent of the HTTP plumbing so that tests can call it directly: GitLab's
/// REST API v4 under `/api/v4`, control routes under `/sim/`.
public final class GitLabSimulator: SimHandler {
    let state: Mutex<GitLabState>

    public init(options: GitLabSimulatorOptions) {
        state = Mutex(GitLabState(options: options))
    }

    public func handle(_ request: SimRequest) -> SimResponse {
        state.withLock { state in
            let call = Call(request)
            var response = call.segments.first == "sim" ? state.simRoute(call) : state.apiRoute(call)
            response.headers.append(("Date", HTTPDate.format(state.now / 1000)))
            return response
        }
    }
}

/// A request matched to a route: its name, path parameters, and the path with a project path re-encoded (for
/// the `Link` URLs).
struct Routed {
    let name: String
    let parameters: [String]
    let path: String
}

extension GitLabState {
    /// Finds the route, counts it, authenticates, dispatches, then applies an armed fault.
    mutating func apiRoute(_ call: Call) -> SimResponse {
        let routed = route(call)
        let name = routed?.name ?? "unknown"
        stats.requests += 1
        stats.requestsByRoute[name, default: 0] += 1
        var response: SimResponse
        var user: Int?
        do {
            user = try authenticate(call)
            guard let routed, let user else { throw GitLabError.noRoute }
            stats.requestsByUser[Directory.users[user].username, default: 0] += 1
            if Endpoint.isResourceEvents(routed.name), switches.noResourceEvents { throw GitLabError.noRoute }
            let answer = try answer(routed, call, View(state: self, call: call, user: user))
            response = SimResponse(status: answer.status, body: answer.body.bytes)
            response.headers = answer.headers
        } catch let error as GitLabError {
            response = errorResponse(error)
        } catch {
            response = errorResponse(GitLabError(400, "400 Bad request - \(error)"))
        }
        response.headers += [
            ("Content-Type", "application/json"), ("Cache-Control", "max-age=0, private, must-revalidate"),
            ("X-Request-Id", "01SIM\(String(stats.requests, radix: 36).uppercased())"),
            ("X-Gitlab-Meta", #"{"correlation_id":"sim","version":"1"}"#),
        ]
        applyFault(to: &response, route: name, call: call)
        return response
    }

    /// The route under `/api/v4`, or nil.
    private func route(_ call: Call) -> Routed? {
        guard call.segments.starts(with: ["api", "v4"]) else { return nil }
        let inner = Array(call.segments.dropFirst(2))
        guard let match = Endpoint.match(method: call.method, path: inner, isProject: { parts in
            projectIndex(parts.joined(separator: "/"), followRenames: true) != nil
        }) else { return nil }
        var path = "/api/v4/" + inner.joined(separator: "/")
        if inner.first == "projects", let id = match.parameters.first, id.contains("/") {
            let rest = inner.dropFirst(1 + id.split(separator: "/").count)
            path = "/api/v4/projects/" + Paging.encode(id) + rest.map { "/" + $0 }.joined()
        }
        return Routed(name: match.name, parameters: match.parameters, path: path)
    }

    /// The caller, or 401 `{"message":"401 Unauthorized"}`.
    mutating func authenticate(_ call: Call) throws -> Int {
        guard let user = Directory.user(privateToken: call.header("private-token"),
            authorization: call.request.authorization)
        else {
            stats.unauthorized += 1
            throw GitLabError.unauthorized
        }
        return user
    }

    func errorResponse(_ error: GitLabError) -> SimResponse {
        SimResponse(status: error.status, body: error.body.bytes)
    }

    /// The project a path parameter names (numeric id or full path, case-insensitive), or nil; a former path
    /// only when `followRenames` (GitLab follows a renamed project's redirect on reads).
    func projectIndex(_ id: String, followRenames: Bool) -> Int? {
        if let number = Int(id) { return projects.firstIndex { $0.id == number } }
        let lower = id.lowercased()
        if let index = projects.firstIndex(where: { $0.fullPath.lowercased() == lower }) { return index }
        guard followRenames else { return nil }
        return projects.firstIndex { project in
            project.formerPaths.contains { "\(Directory.group.path)/\($0)".lowercased() == lower }
        }
    }
}
