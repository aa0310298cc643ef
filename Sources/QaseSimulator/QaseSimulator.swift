import Synchronization
import SimulatorKit

/// qase-sim's request handling, independent of the HTTP plumbing so that tests can call it directly: the API
/// under the base path (`/v1`), control routes under `/sim/`.
public final class QaseSimulator: SimHandler {
    let state: Mutex<QaseState>

    public init(options: QaseSimulatorOptions) {
        state = Mutex(QaseState(options: options))
    }

    public func handle(_ request: SimRequest) -> SimResponse {
        state.withLock { state in
            let call = Call(request)
            var response: SimResponse
            if call.segments.first == "sim" {
                response = state.simRoute(call, Array(call.segments.dropFirst()))
            } else {
                response = state.apiRoute(call)
            }
            response.headers.append(("Date", QaseClock.httpDate(state.clock.now)))
            return response
        }
    }
}

/// One request as the routes see it: path segments, query parameters with decoded names, the body.
struct Call {
    let request: SimRequest
    let segments: [String]
    /// Parameter names decoded too (`filters%5Bstatus%5D` is `filters[status]`).
    let query: [String: String]

    init(_ request: SimRequest) {
        self.request = request
        segments = request.path.split(separator: "/").map(String.init)
        var query: [String: String] = [:]
        for (name, value) in request.query { query[SimRequest.percentDecoded(name)] = value }
        self.query = query
    }

    var token: String? { request.headers["token"] }
}

/// The API's routes, as (method, pattern) with `{…}` for path parameters; the pattern names the route in the
/// stats and in faults (`GET /defect/{code}`).
enum Endpoint {
    static let routes: [(method: String, pattern: String)] = [
        ("GET", "/project"), ("GET", "/project/{code}"),
        ("GET", "/case/{code}"), ("POST", "/case/{code}"), ("GET", "/case/{code}/{id}"), ("PATCH", "/case/{code}/{id}"),
        ("DELETE", "/case/{code}/{id}"),
        ("GET", "/defect/{code}"), ("POST", "/defect/{code}"), ("GET", "/defect/{code}/{id}"),
        ("PATCH", "/defect/{code}/{id}"), ("DELETE", "/defect/{code}/{id}"), ("PATCH", "/defect/{code}/resolve/{id}"),
        ("PATCH", "/defect/{code}/status/{id}"),
        ("GET", "/run/{code}"), ("GET", "/run/{code}/{id}"), ("GET", "/result/{code}"),
        ("GET", "/result/{code}/{hash}"),
        ("GET", "/plan/{code}"), ("GET", "/plan/{code}/{id}"), ("PATCH", "/plan/{code}/{id}"),
        ("GET", "/review/{code}"), ("GET", "/review/{code}/{id}"), ("PATCH", "/review/{code}/{id}"),
        ("GET", "/author"), ("GET", "/author/{id}"), ("GET", "/user"), ("GET", "/user/{id}"), ("GET", "/search"),
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
            let name = "\(route.method) \(route.pattern)"
            if route.method == method { return (name, parameters, true) }
            pathOnly = pathOnly ?? ("\(method) \(route.pattern)", parameters, false)
        }
        return pathOnly
    }
}

extension QaseState {
    /// Counts, rate-limits, authenticates, routes, then applies faults and the shape variants.
    mutating func apiRoute(_ call: Call) -> SimResponse {
        let base = options.basePath.split(separator: "/").map(String.init)
        guard call.segments.starts(with: base) else {
            stats.requests += 1
            stats.requestsByRoute["unknown", default: 0] += 1
            return errorResponse(APIError(404, "Not found"))
        }
        let path = Array(call.segments.dropFirst(base.count))
        let route = Endpoint.match(method: call.request.method, path: path)
        let name = route?.name ?? "unknown"
        stats.requests += 1
        stats.requestsByRoute[name, default: 0] += 1
        if let wait = limiter.admit(
            token: call.token ?? "", now: clock.now, limit: switches.rateLimit, timeout: switches.rateLimitTimeout)
        {
            stats.rateLimited += 1
            var response = SimResponse(status: 429, body: [])
            response.headers.append(("Retry-After", String(wait)))
            return response
        }
        var response: SimResponse
        do {
            let actor = try authenticate(call)
            stats.requestsByUser[actor.handle, default: 0] += 1
            guard let route else { throw APIError(404, "Not found") }
            guard route.allowed else { throw APIError(405, "Method not allowed") }
            let result = try dispatch(name, route.parameters, call, actor)
            response = SimResponse(status: 200, body: Variants.apply(result, switches).bytes)
        } catch let error as APIError {
            response = errorResponse(error)
        } catch let error as QQLError {
            response = errorResponse(APIError(400, "Query is invalid", reason: error.reason))
        } catch {
            response = errorResponse(APIError(400, "Data is invalid."))
        }
        applyFault(to: &response, route: name)
        return response
    }

    /// The actor of the `Token` header: 401 without one, for an unknown one, or an inactive user's.
    mutating func authenticate(_ call: Call) throws -> Actor {
        guard let token = call.token, !token.isEmpty else {
            stats.unauthorized += 1
            throw APIError(401, "API token is required")
        }
        guard let actor = tokens[token] else {
            stats.unauthorized += 1
            throw APIError(401, "API token is invalid")
        }
        if case .person(let person) = actor, !person.isActive {
            stats.unauthorized += 1
            throw APIError(401, "User \(person.name) is inactive")
        }
        return actor
    }

    func errorResponse(_ error: APIError) -> SimResponse {
        var response = SimResponse(status: error.status, body: error.body.bytes)
        if let reason = error.reason { response.headers.append(("X-Qase-Sim-Reason", reason)) }
        return response
    }

    private mutating func dispatch(
        _ name: String, _ parameters: [String], _ call: Call, _ actor: Actor
    ) throws -> JSONValue {
        let code = parameters.first ?? ""
        switch name {
        case "GET /project": return try listProjects(call, actor)
        case "GET /project/{code}": return ok(projects[try projectIndex(code, for: actor)].rest)
        case "GET /user": return try list(call, Directory.people, total: Directory.people.count) { $0.user }
        case "GET /user/{id}": return try user(parameters[0])
        case "GET /author": return try listAuthors(call)
        case "GET /author/{id}": return try author(parameters[0])
        case "GET /search": return try search(call, actor)
        case "GET /case/{code}": return try listCases(call, try projectIndex(code, for: actor))
        case "GET /case/{code}/{id}": return try getCase(call, try projectIndex(code, for: actor), parameters[1])
        case "GET /defect/{code}": return try listDefects(call, try projectIndex(code, for: actor))
        case "GET /defect/{code}/{id}": return try getDefect(try projectIndex(code, for: actor), parameters[1])
        case "GET /plan/{code}": return try listPlans(call, try projectIndex(code, for: actor))
        case "GET /plan/{code}/{id}": return try getPlan(try projectIndex(code, for: actor), parameters[1])
        case "GET /review/{code}": return try listReviews(call, try reviewProject(code, actor))
        case "GET /review/{code}/{id}": return try getReview(try reviewProject(code, actor), parameters[1])
        case "GET /run/{code}": return try listRuns(call, try projectIndex(code, for: actor))
        case "GET /run/{code}/{id}": return try getRun(call, try projectIndex(code, for: actor), parameters[1])
        case "GET /result/{code}": return try listResults(call, try projectIndex(code, for: actor))
        case "GET /result/{code}/{hash}": return try getResult(try projectIndex(code, for: actor), parameters[1])
        default: return try write(name, parameters, call, actor)
        }
    }

    /// The project of a `/review` route, or the refusal `--review-refusal` asks for.
    func reviewProject(_ code: String, _ actor: Actor) throws -> Int {
        switch switches.reviewRefusal {
        case 402: throw APIError(402, "Test case review is not available on your subscription plan")
        case 404: throw APIError(404, "Test case review is disabled in this project")
        default: return try projectIndex(code, for: actor)
        }
    }

    /// `{"status": true, "result": …}`.
    func ok(_ result: JSONValue) -> JSONValue { ["status": true, "result": result] }
}
