import SimulatorKit

/// One request as the routes see it: path segments under the base path, query parameters, the body.
struct Call {
    let request: SimRequest
    var segments: [String]

    init(_ request: SimRequest) {
        self.request = request
        segments = request.path.split(separator: "/").map(String.init)
    }

    /// The last value of a query parameter.
    func query(_ name: String) -> String? { request.queryPairs.last { $0.name == name }?.value }

    var method: String { request.method }
    func header(_ name: String) -> String? { request.headers[name.lowercased()] }

    /// `page` (≥ 1; 1 when absent or not a number).
    var page: Int { max(1, query("page").flatMap { Int($0) } ?? 1) }

    /// `per_page` clamped to 1…100 (default 30), as GitHub serves it.
    var perPage: Int { min(100, max(1, query("per_page").flatMap { Int($0) } ?? 30)) }
}

/// The API's routes, named as GitHub's OpenAPI description names them, in the stats and in faults.
enum Endpoint {
    static let repo = "/repos/{owner}/{repo}"
    static let issue = repo + "/issues/{issue_number}"
    static let pull = repo + "/pulls/{pull_number}"
    static let routes: [(method: String, pattern: String)] = [
        ("GET", "/user"), ("GET", "/issues"), ("GET", "/search/issues"), ("GET", "/rate_limit"),
        ("GET", repo), ("GET", repo + "/issues"), ("POST", repo + "/issues"),
        ("GET", issue), ("PATCH", issue), ("GET", issue + "/timeline"),
        ("GET", issue + "/comments"), ("POST", issue + "/comments"),
        ("POST", issue + "/assignees"), ("DELETE", issue + "/assignees"),
        ("GET", pull), ("GET", pull + "/requested_reviewers"), ("POST", pull + "/requested_reviewers"),
        ("DELETE", pull + "/requested_reviewers"), ("GET", pull + "/reviews"), ("POST", pull + "/reviews"),
        ("PUT", pull + "/merge"),
    ]

    /// The matching route's name and its path parameters.
    static func match(method: String, path: [String]) -> (name: String, parameters: [String])? {
        for route in routes where route.method == method {
            let parts = route.pattern.split(separator: "/").map(String.init)
            guard parts.count == path.count else { continue }
            var parameters: [String] = []
            let fits = zip(parts, path).allSatisfy { part, segment in
                if part.hasPrefix("{") { parameters.append(segment) }
                return part.hasPrefix("{") || part == segment
            }
            if fits { return ("\(route.method) \(route.pattern)", parameters) }
        }
        return nil
    }

    static func isSearch(_ name: String) -> Bool { name == "GET /search/issues" }
}

/// What a route answers: a status, a JSON body (none for 204) and extra headers.
struct Answer {
    var status = 200
    var body: JSONValue?
    var headers: [(String, String)] = []

    init(_ body: JSONValue, status: Int = 200) {
        self.body = body
        self.status = status
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
