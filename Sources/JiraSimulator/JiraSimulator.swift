import Synchronization
import SimulatorKit

/// jira-sim's request handling, independent of the HTTP plumbing so that tests can call it directly: the REST API
/// under `{context}/rest/api/{2,3}`, control routes under `/sim/`.
public final class JiraSimulator: SimHandler {
    let state: Mutex<JiraState>

    public init(options: JiraSimulatorOptions) {
        state = Mutex(JiraState(options: options))
    }

    public func handle(_ request: SimRequest) -> SimResponse {
        state.withLock { state in
            let call = Call(request)
            var response = call.segments.first == "sim" ? state.simRoute(call) : state.apiRoute(call)
            response.headers.append(("Date", HTTPDate.format(state.now)))
            return response
        }
    }
}

/// One request as the routes see it: path segments, every value of every query parameter, the body.
struct Call {
    let request: SimRequest
    let segments: [String]

    init(_ request: SimRequest) {
        self.request = request
        segments = request.path.split(separator: "/").map(String.init)
    }

    /// The last value of a query parameter.
    func query(_ name: String) -> String? { request.queryPairs.last { $0.name == name }?.value }

    /// Every value of a repeated query parameter (`fields=a&fields=b`).
    func queryAll(_ name: String) -> [String] { request.queryPairs.filter { $0.name == name }.map(\.value) }

    /// `http://HOST` from the `Host` header, as Jira builds its `self` links.
    var origin: String { "http://\(request.headers["host"] ?? "127.0.0.1")" }
}

/// The API's routes, named without the version (`GET /issue/{idOrKey}`) in the stats and in faults.
enum Endpoint {
    static let routes: [(method: String, pattern: String)] = [
        ("GET", "/serverInfo"), ("GET", "/myself"), ("GET", "/user/search"), ("GET", "/field"),
        ("GET", "/search/jql"), ("POST", "/search/jql"), ("POST", "/search/approximate-count"),
        ("GET", "/search"), ("POST", "/search"), ("POST", "/changelog/bulkfetch"),
        ("POST", "/issue"), ("GET", "/issue/{idOrKey}"), ("PUT", "/issue/{idOrKey}"),
        ("GET", "/issue/{idOrKey}/changelog"), ("GET", "/issue/{idOrKey}/comment"),
        ("POST", "/issue/{idOrKey}/comment"), ("PUT", "/issue/{idOrKey}/assignee"),
        ("GET", "/issue/{idOrKey}/transitions"), ("POST", "/issue/{idOrKey}/transitions"),
    ]
    /// Routes Jira Data Center does not have.
    static let cloudOnly: Set = [
        "GET /search/jql", "POST /search/jql", "POST /search/approximate-count", "POST /changelog/bulkfetch",
        "GET /issue/{idOrKey}/changelog",
    ]

    /// The matching route's name and its path parameters; `allowed` is false when only the method differs.
    static func match(method: String, path: [String]) -> (name: String, parameters: [String], allowed: Bool)? {
        var pathOnly: (name: String, parameters: [String], allowed: Bool)?
        for route in routes {
            let parts = route.pattern.split(separator: "/").map(String.init)
            guard parts.count == path.count else { continue }
            var parameters: [String] = []
            let fits = zip(parts, path).allSatisfy { part, segment in
                if part.hasPrefix("{") { parameters.append(segment) }
                return part.hasPrefix("{") || part == segment
            }
            guard fits else { continue }
            if route.method == method { return ("\(route.method) \(route.pattern)", parameters, true) }
            pathOnly = pathOnly ?? ("\(method) \(route.pattern)", parameters, false)
        }
        return pathOnly
    }
}

/// What a route answers: a status and a JSON body (none for 204).
struct Answer {
    var status = 200
    var body: JSONValue?

    init(_ body: JSONValue) { self.body = body }
    init(status: Int, _ body: JSONValue? = nil) {
        self.status = status
        self.body = body
    }
}

extension JiraState {
    /// Finds the route, counts it, authenticates, dispatches, then applies an armed fault.
    mutating func apiRoute(_ call: Call) -> SimResponse {
        let context = options.contextPath.split(separator: "/").map(String.init)
        var path = call.segments
        let version: String?
        if flavor == .dc && !path.starts(with: context) {
            version = nil
        } else {
            if flavor == .dc { path.removeFirst(context.count) }
            let versions = flavor == .cloud ? ["2", "3", "latest"] : ["2", "latest"]
            version = path.count >= 3 && path[0] == "rest" && path[1] == "api" && versions.contains(path[2])
                ? (path[2] == "3" ? "3" : "2") : nil
        }
        let route = version.flatMap { _ in Endpoint.match(method: call.request.method, path: Array(path.dropFirst(3))) }
        let name = route?.name ?? "unknown"
        stats.requests += 1
        stats.requestsByRoute[name, default: 0] += 1
        var response: SimResponse
        do {
            guard let version, let route, route.allowed, flavor == .cloud || !Endpoint.cloudOnly.contains(name) else {
                throw JiraError(404, "null for uri: \(call.origin)\(call.request.path)")
            }
            let answer = try answer(name, route.parameters, call, version: version)
            response = SimResponse(status: answer.status, body: answer.body?.bytes ?? [])
        } catch let error as JiraError {
            response = errorResponse(error)
        } catch let error as JQLError {
            response = errorResponse(JiraError(400, error.message))
        } catch {
            response = errorResponse(JiraError(400, "Bad request: \(error)"))
        }
        applyFault(to: &response, route: name)
        return response
    }

    private mutating func answer(_ name: String, _ parameters: [String], _ call: Call, version: String) throws
        -> Answer
    {
        let base = call.origin + (flavor == .dc ? options.contextPath : "")
        if name == "GET /serverInfo" { return Answer(serverInfo(base: base)) }
        let caller = try authenticate(call)
        stats.requestsByUser[Directory.people[caller].handle, default: 0] += 1
        let view = View(flavor: flavor, version: version, caller: caller, base: base, switches: switches)
        let key = parameters.first ?? ""
        switch name {
        case "GET /myself": return Answer(view.user(caller))
        case "GET /user/search": return Answer(userSearch(call, view))
        case "GET /field": return Answer(FieldSelection.list)
        case "GET /search/jql", "POST /search/jql": return Answer(try searchJQL(call, view))
        case "POST /search/approximate-count": return Answer(try approximateCount(call, view))
        case "GET /search", "POST /search": return Answer(try searchDC(call, view))
        case "POST /changelog/bulkfetch": return Answer(try bulkChangelog(call, view))
        case "GET /issue/{idOrKey}": return Answer(try getIssue(key, call, view))
        case "GET /issue/{idOrKey}/changelog": return Answer(try changelogPage(key, call, view))
        case "GET /issue/{idOrKey}/comment": return Answer(try commentPage(key, call, view))
        case "GET /issue/{idOrKey}/transitions": return Answer(try transitions(key, view))
        default: return try write(name, key, call, view)
        }
    }

    /// The caller, or 401 for missing, wrong or expired credentials (Jira cannot tell the last two apart).
    mutating func authenticate(_ call: Call) throws -> Int {
        guard let person = Directory.authenticate(call.request.authorization, flavor: flavor),
            Directory.people[person].handle != switches.expiredToken
        else {
            stats.unauthorized += 1
            throw JiraError(
                401, "You are not authenticated. Authentication required to perform this operation.")
        }
        return person
    }

    func errorResponse(_ error: JiraError) -> SimResponse {
        var response = SimResponse(status: error.status, body: error.body.bytes)
        if error.status == 401 && flavor == .dc { response.headers.append(("X-Seraph-LoginReason", "AUTHENTICATED_FAILED")) }
        return response
    }

    private func serverInfo(base: String) -> JSONValue {
        let cloud = flavor == .cloud
        let version = cloud ? "1001.0.0-SNAPSHOT" : "9.12.15"
        return [
            "baseUrl": .string(base), "version": .string(version),
            "versionNumbers": cloud ? [1001, 0, 0] : [9, 12, 15],
            "deploymentType": cloud ? "Cloud" : "Server", "buildNumber": cloud ? 100_289 : 9_120_015,
            "buildDate": cloud ? "2026-01-12T00:00:00.000+0000" : "2025-11-20T00:00:00.000+0000",
            "serverTime": View(flavor: flavor, version: "2", caller: 0, base: base, switches: switches).time(now),
            "scmInfo": "0000000000000000000000000000000000000000", "serverTitle": cloud ? "Jira" : "Jira (jira-sim)",
        ]
    }
}
