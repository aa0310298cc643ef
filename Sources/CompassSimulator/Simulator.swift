#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import SimulatorKit

/// An HTTP request as the routes see it.
/// compass-sim's request handling, independent of the HTTP plumbing so that tests can call it directly.
public final class Simulator: SimHandler {
    let state: Mutex<SimulatorState>

    public init(options: SimulatorOptions) {
        state = Mutex(SimulatorState(options: options))
    }

    public func handle(_ request: SimRequest) -> SimResponse {
        state.withLock { state in
            state.requests += 1
            let (replica, cookie) = state.route(request)
            var router = Router(state: state, request: request, replica: replica)
            var response = router.route()
            state = router.state
            state.requestsByRoute[router.routeName, default: 0] += 1
            state.applyFault(to: &response, route: router.routeName)
            if let cookie { response.headers.append(("Set-Cookie", cookie)) }
            // Every origin server with a clock sends one (RFC 9110 §6.6.1); `probe` compares history
            // entries with it, and trackwatch bounds their timestamps by it.
            if !response.headers.contains(where: { $0.0.lowercased() == "date" }) {
                response.headers.append(("Date", SimClock.httpDate(state.clock.now)))
            }
            return response
        }
    }
}

extension SimulatorState {
    static let replicaCookie = "TWSIMROUTE"

    /// The load balancer in front of `--replicas`: the replica a request's cookie names, or else the next one
    /// in turn, with the `Set-Cookie` that pins the client to it.
    mutating func route(_ request: SimRequest) -> (replica: Int, setCookie: String?) {
        guard options.replicas > 1, request.path.hasPrefix("/ccmweb/rest") else { return (0, nil) }
        let cookies = (request.headers["cookie"] ?? "").split(separator: ";").map { $0.drop { $0 == " " } }
        for cookie in cookies where cookie.hasPrefix(Self.replicaCookie + "=") {
            let value = cookie.dropFirst(Self.replicaCookie.count + 1).split(separator: ".")
            guard value.count == 2, let number = Int(value[1]), (0..<options.replicas).contains(number) else {
                continue
            }
            if value[0] != instance {
                foreignCookies += 1
                continue
            }
            return (number, nil)
        }
        let replica = nextReplica
        nextReplica = (nextReplica + 1) % options.replicas
        return (replica, "\(Self.replicaCookie)=\(instance).\(replica); Path=/ccmweb; HttpOnly")
    }
}

/// Routes one request against the state (copied in and out under the lock).
struct Router {
    var state: SimulatorState
    let request: SimRequest
    /// The replica serving this request (0 without `--replicas`).
    let replica: Int
    var routeName = "unknown"

    init(state: SimulatorState, request: SimRequest, replica: Int = 0) {
        self.state = state
        self.request = request
        self.replica = replica
    }

    mutating func route() -> SimResponse {
        let segments = request.path.split(separator: "/").map(String.init)
        if segments.starts(with: ["ccmweb", "sim"]) { return simRoute(Array(segments.dropFirst(2))) }
        guard segments.starts(with: ["ccmweb", "rest"]) else { return error(404, "No static resource \(request.path)") }
        if let refusal = mediaTypeRefusal() {
            state.refusedForMediaType += 1
            return refusal
        }
        let rest = Array(segments.dropFirst(2))
        do {
            return try restRoute(rest)
        } catch let failure as Failure {
            return error(failure.status, failure.message)
        } catch let failure as QueryError {
            return error(400, failure.message)
        } catch {
            return self.error(400, "Invalid request body: \(error)")
        }
    }

    struct Failure: Error {
        let status: Int
        let message: String
    }

    /// `--require-json-content-type`: Spring's answers to a request without JSON's media types.
    private func mediaTypeRefusal() -> SimResponse? {
        guard state.options.requireJSONContentType else { return nil }
        let contentType = request.headers["content-type"]
        if contentType?.split(separator: ";").first?.filter({ $0 != " " }).lowercased() != "application/json" {
            return error(415, "Content type '\(contentType ?? "")' not supported")
        }
        if let accept = request.headers["accept"]?.lowercased(), !accept.contains("application/json"),
            !accept.contains("*/*")
        {
            return error(406, "Could not find acceptable representation")
        }
        return nil
    }

    /// Captured `{}` segments when `method` and `pattern` (e.g. `query/{}`) match the path, else nil.
    mutating func match(_ method: String, _ pattern: String, _ path: [String]) -> [String]? {
        let parts = pattern.split(separator: "/").map(String.init)
        guard request.method == method, parts.count == path.count else { return nil }
        var captured: [String] = []
        for (part, segment) in zip(parts, path) {
            if part == "{}" { captured.append(segment) } else if part != segment { return nil }
        }
        routeName = "\(method) /\(pattern.replacing("{}", with: "{id}"))"
        return captured
    }

    private mutating func restRoute(_ path: [String]) throws -> SimResponse {
        if match("POST", "authenticate", path) != nil { return try authenticate() }
        if match("POST", "authenticate/logoff", path) != nil {
            let (_, token) = try authorized()
            state.logoff(token: token)
            return json(200, ["message": "Logged off"])
        }
        if match("GET", "repos", path) != nil {
            if request.query["getDbs"] == "true" { return encoded(200, [RepoWithDatabases()]) }
            return encoded(200, [["name": SampleSchema.repo]])
        }
        if let repo = match("GET", "repos/{}", path)?.first {
            guard repo == SampleSchema.repo else {
                throw Failure(status: 404, message: "Schema repository not found: \(repo)")
            }
            return encoded(200, NamedItem(name: SampleSchema.repo))
        }
        if let repo = match("GET", "repos/{}/databases", path)?.first {
            guard repo == SampleSchema.repo else {
                throw Failure(status: 404, message: "Schema repository not found: \(repo)")
            }
            return encoded(200, [NamedItem(name: SampleSchema.database)])
        }
        guard path.count >= 4, path[0] == "repos", path[2] == "databases" else { return error(404, "No endpoint \(request.path)") }
        guard path[1] == SampleSchema.repo else { throw Failure(status: 404, message: "Schema repository not found: \(path[1])") }
        guard path[3] == SampleSchema.database else { throw Failure(status: 404, message: "Database not found: \(path[3])") }
        let rest = Array(path.dropFirst(4))
        if match("GET", "", rest) != nil { return encoded(200, DatabaseDetail()) }
        let (user, token) = try authorized()
        return try databaseRoute(rest, user: user, token: token)
    }

    private mutating func databaseRoute(_ path: [String], user: String, token: String) throws -> SimResponse {
        if match("POST", "query", path) != nil {
            guard state.options.adHocQueries else { return adHocRefusal() }
            let body = try decode(AdHocBody.self)
            return try createResultSet(body.queryDef, options: body.resultSetOptions, topLevelPageSize: nil, user: user, token: token)
        }
        if let id = match("GET", "query/{}", path)?.first {
            guard state.options.adHocQueries else { throw Failure(status: 404, message: "No endpoint GET /query") }
            return try page(of: id, token: token)
        }
        if match("GET", "workspace/folders", path) != nil {
            return encoded(200, [folder(SimulatorState.personalFolder(of: user), user: user), folder(SimulatorState.publicFolder, user: user)])
        }
        if let id = match("GET", "workspace/folders/{}", path)?.first {
            return encoded(200, folder(try knownFolder(id, user: user), user: user))
        }
        if let id = match("GET", "workspace/folders/{}/queryDefs", path)?.first {
            let folder = try knownFolder(id, user: user)
            let path = state.path(of: folder)
            return encoded(200, children(of: folder).map { WorkspaceItem(query: $0, parentPath: path) })
        }
        if match("POST", "workspace/queryDefs", path) != nil { return try createStoredQuery(user: user) }
        if let id = match("GET", "workspace/queryDefs/{}", path)?.first {
            return encoded(200, try storedQuery(id, user: user).definition)
        }
        if let id = match("DELETE", "workspace/queryDefs/{}", path)?.first {
            let query = try storedQuery(id, user: user)
            guard !SimulatorState.isPublic(query.folder) else {
                throw Failure(status: 403, message: "Public Queries is read-only")
            }
            state.storedQueries[id] = nil
            return SimResponse(status: 204, body: [])
        }
        if let id = match("POST", "workspace/queryDefs/{}/resultsets", path)?.first {
            let query = try storedQuery(id, user: user)
            let body = (try? decode(ResultSetBody.self)) ?? ResultSetBody(resultSetOptions: nil, pageSize: nil)
            return try createResultSet(query.definition, options: body.resultSetOptions, topLevelPageSize: body.pageSize,
                                       user: user, token: token)
        }
        if let ids = match("GET", "workspace/queryDefs/{}/resultsets/{}", path) {
            _ = try storedQuery(ids[0], user: user)
            return try page(of: ids[1], token: token, honouringPageNumber: !state.options.ignoreStoredPageNumber)
        }
        if let ids = match("GET", "workspace/queryDefs/{}/resultsets/{}/file", path) {
            return try file(of: ids[1], query: try storedQuery(ids[0], user: user).definition, token: token)
        }
        if path.first == "records" { return try recordRoute(Array(path.dropFirst()), user: user, token: token) }
        return error(404, "No endpoint \(request.method) \(request.path)")
    }

    // MARK: - Auth

    private mutating func authenticate() throws -> SimResponse {
        guard let body = try? decode([String: String].self),
            let loginName = body["username"], let password = body["password"], let repo = body["repo"], let db = body["db"]
        else { throw Failure(status: 400, message: "Invalid login request: username, password, repo and db are required") }
        let username = state.options.loginAliases[loginName] ?? loginName
        guard repo == SampleSchema.repo, db == SampleSchema.database else {
            throw Failure(status: 404, message: "Unknown repository or database \(repo)/\(db)")
        }
        guard !state.lockedUsers.contains(username) else {
            state.loginFailures += 1
            throw Failure(status: 401, message: "The account \(username) is locked. Contact your administrator.")
        }
        guard SampleSchema.users.contains(where: { $0.login == username && (state.options.passwords[username] ?? $0.password) == password }) else {
            state.loginFailures += 1
            throw Failure(status: 401, message: "Invalid username or password")
        }
        return json(201, ["token": state.login(user: username)])
    }

    /// The user and token of the request. No `Authorization` at all is a 401; a token the server does not know
    /// is refused with `--refused-token-status` (401 unless set), as servers differ there.
    private func authorized() throws -> (String, String) {
        guard let identity = state.user(forAuthorization: request.authorization) else {
            let status = request.authorization == nil ? 401 : state.options.refusedTokenStatus
            let message = status == 500
                ? "Internal error: no session for this token"
                : "Full authentication is required to access this resource"
            throw Failure(status: status, message: message)
        }
        return identity
    }

    /// `POST /query` on a server without ad-hoc queries, answered as `--adhoc-refusal` says.
    private func adHocRefusal() -> SimResponse {
        guard state.options.adHocRefusal != "html" else {
            let html = "<!DOCTYPE html><html><body><h1>Welcome</h1></body></html>"
            var page = SimResponse(status: 200, body: Array(html.utf8))
            page.headers.append(("Content-Type", "text/html;charset=UTF-8"))
            return page
        }
        let status = Int(state.options.adHocRefusal) ?? 404
        return error(status, status == 500 ? "Request processing failed" : "No endpoint POST /query")
    }

    // MARK: - Helpers

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(type, from: Data(request.body)) }

    func encoded<T: Encodable>(_ status: Int, _ value: T) -> SimResponse {
        SimResponse(status: status, body: Array((try? JSONEncoder().encode(value)) ?? Data("{}".utf8)))
    }

    func json(_ status: Int, _ value: [String: String]) -> SimResponse { encoded(status, value) }

    func error(_ status: Int, _ message: String) -> SimResponse {
        let reason = [400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
                      406: "Not Acceptable", 409: "Conflict", 415: "Unsupported Media Type",
                      500: "Internal Server Error", 501: "Not Implemented"][status] ?? "Error"
        return encoded(status, ErrorBody(timestamp: SimClock.format(state.clock.now), status: status, error: reason,
                                         message: message, path: request.path))
    }

    private mutating func simRoute(_ path: [String]) -> SimResponse {
        if match("GET", "stats", path) != nil { return encoded(200, Stats(state: state)) }
        if match("GET", "tokens", path) != nil { return encoded(200, state.issuedTokens) }
        if match("POST", "faults", path) != nil {
            guard let fault = try? decode(Fault.self) else { return error(400, "expected {route, kind, count[, status, after, retryAfter]}") }
            state.faults.append(fault)
            return json(200, ["message": "fault armed"])
        }
        if match("DELETE", "faults", path) != nil {
            state.faults.removeAll()
            return json(200, ["message": "faults cleared"])
        }
        if let user = match("POST", "lock/{}", path)?.first {
            state.lockedUsers.insert(user)  // as after too many failed logins: every login is refused
            for key in state.sessions.keys where state.sessions[key]?.user == user { state.sessions[key] = nil }
            return json(200, ["message": "\(user) locked"])
        }
        if match("POST", "restart", path) != nil {
            state.restart()
            return json(200, ["message": "restarted: every token and result set is forgotten"])
        }
        if match("POST", "clock", path) != nil {
            // {"advance": seconds}: moves the server's clock (a DST change, a day later) without waiting.
            // {"hold": 1}: stops it, so that entries written meanwhile share their second; {"hold": 0} lets it run.
            guard let body = try? decode([String: Int].self), body["advance"] != nil || body["hold"] != nil else {
                return error(400, "expected {\"advance\": seconds} or {\"hold\": 1 or 0}")
            }
            if let seconds = body["advance"] { state.clock.advance(seconds) }
            if let hold = body["hold"] { state.clock.hold(hold != 0) }
            return json(200, ["now": SimClock.format(state.clock.now)])
        }
        if match("POST", "expire-tokens", path) != nil {
            for key in state.sessions.keys { state.sessions[key]?.expiresAt = state.clock.now - 1 }
            return json(200, ["message": "all tokens expired"])
        }
        return error(404, "No simulator endpoint \(request.path)")
    }
}
