import SimulatorKit

/// One request as the routes see it: path segments under `/api/v4`, query parameters, the body.
struct Call {
    let request: SimRequest
    var segments: [String]

    init(_ request: SimRequest) {
        self.request = request
        segments = Call.split(request.path)
    }

    /// Path segments; a project path URL-encoded as one segment (`platform%2Fweb`) arrives decoded, so the
    /// segment after `projects` takes as many parts as make a known project (see `Endpoint.match`).
    static func split(_ path: String) -> [String] { path.split(separator: "/").map(String.init) }

    /// The last value of a query parameter.
    func query(_ name: String) -> String? { request.queryPairs.last { $0.name == name }?.value }

    var method: String { request.method }
    func header(_ name: String) -> String? { request.headers[name.lowercased()] }

    /// `page` (≥ 1; 1 when absent or not a number).
    var page: Int { max(1, query("page").flatMap { Int($0) } ?? 1) }

    /// `per_page` (default 20); above 100 served as 100, below 1 as 20, as GitLab.
    var perPage: Int {
        guard let asked = query("per_page").flatMap({ Int($0) }), asked >= 1 else { return 20 }
        return min(100, asked)
    }
}

/// The API's routes, named as GitLab's documentation writes them, in the stats and in faults.
enum Endpoint {
    static let project = "/projects/:id"
    static let issue = project + "/issues/:issue_iid"
    static let mergeRequest = project + "/merge_requests/:merge_request_iid"
    static let events = ["resource_label_events", "resource_state_events", "resource_milestone_events"]
    static let routes: [(method: String, pattern: String)] = fixed + noteable(issue) + noteable(mergeRequest)
    private static let fixed: [(method: String, pattern: String)] = [
        ("GET", "/user"), ("GET", "/users"), ("GET", "/issues"), ("GET", "/merge_requests"), ("GET", project),
        ("GET", project + "/milestones"),
        ("GET", project + "/issues"), ("POST", project + "/issues"), ("GET", project + "/merge_requests"),
        ("GET", issue), ("PUT", issue), ("POST", issue + "/move"),
        ("GET", mergeRequest), ("PUT", mergeRequest), ("GET", mergeRequest + "/commits"),
        ("GET", mergeRequest + "/approvals"), ("POST", mergeRequest + "/approve"),
        ("POST", mergeRequest + "/unapprove"), ("PUT", mergeRequest + "/merge"),
    ]

    /// Notes and resource events of an issue or merge request.
    private static func noteable(_ base: String) -> [(method: String, pattern: String)] {
        var routes: [(method: String, pattern: String)] = [("GET", base + "/notes"), ("POST", base + "/notes")]
        for name in events { routes.append(("GET", base + "/" + name)) }
        return routes
    }

    /// The matching route's name and its path parameters. A project's id may be its full path with slashes
    /// (`platform/web`, sent encoded as `platform%2Fweb`): `isProject` says how many segments it spans.
    static func match(method: String, path: [String], isProject: ([String]) -> Bool)
        -> (name: String, parameters: [String])?
    {
        var path = path
        if path.count >= 3, path[0] == "projects", Int(path[1]) == nil {
            for end in stride(from: path.count, through: 2, by: -1) where isProject(Array(path[1..<end])) {
                path.replaceSubrange(1..<end, with: [path[1..<end].joined(separator: "/")])
                break
            }
        }
        for route in routes where route.method == method {
            let parts = route.pattern.split(separator: "/").map(String.init)
            guard parts.count == path.count else { continue }
            var parameters: [String] = []
            let fits = zip(parts, path).allSatisfy { part, segment in
                if part.hasPrefix(":") { parameters.append(segment) }
                return part.hasPrefix(":") || part == segment
            }
            if fits { return ("\(route.method) \(route.pattern)", parameters) }
        }
        return nil
    }

    static func isResourceEvents(_ name: String) -> Bool { events.contains { name.hasSuffix("/" + $0) } }
}

/// What a route answers: a status, a JSON body and extra headers.
struct Answer {
    var status = 200
    var body: JSONValue
    var headers: [(String, String)] = []

    init(_ body: JSONValue, status: Int = 200) {
        self.body = body
        self.status = status
    }
}

/// An API error answer: GitLab's `{"message": "404 Project Not Found"}`, or Grape's `{"error": "…"}` for a
/// parameter that fails validation or a route that does not exist.
struct GitLabError: Error {
    let status: Int
    let body: JSONValue

    init(_ status: Int, _ message: String) {
        self.status = status
        body = ["message": .string(message)]
    }

    init(status: Int, error: String) {
        self.status = status
        body = ["error": .string(error)]
    }

    static let unauthorized = GitLabError(401, "401 Unauthorized")
    static let forbidden = GitLabError(403, "403 Forbidden")
    static let noRoute = GitLabError(status: 404, error: "404 Not Found")
    static let projectNotFound = GitLabError(404, "404 Project Not Found")
    static func notFound(_ what: String) -> GitLabError { GitLabError(404, "404 \(what) Not Found") }
    static func invalid(_ parameter: String) -> GitLabError {
        GitLabError(status: 400, error: "\(parameter) does not have a valid value")
    }
    static func missing(_ parameter: String) -> GitLabError {
        GitLabError(status: 400, error: "\(parameter) is missing")
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
