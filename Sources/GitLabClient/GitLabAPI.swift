import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Every request trackwatch makes of GitLab (REST v4).
enum GitLabEndpoint: Equatable {
    case user
    case issues
    case mergeRequests
    case project(path: String)
    case projectIssues(path: String)
    case item(project: Int64, iid: Int, mergeRequest: Bool)
    case notes(project: Int64, iid: Int, mergeRequest: Bool)
    /// `resource_label_events`, `resource_state_events`, `resource_milestone_events`.
    case resourceEvents(project: Int64, iid: Int, mergeRequest: Bool, kind: String)

    var path: String {
        func item(_ project: Int64, _ iid: Int, _ mr: Bool) -> String {
            "/projects/\(project)/\(mr ? "merge_requests" : "issues")/\(iid)"
        }
        switch self {
        case .user: return "/user"
        case .issues: return "/issues"
        case .mergeRequests: return "/merge_requests"
        case .project(let path): return "/projects/" + PercentEncoding.encode(path)
        case .projectIssues(let path): return "/projects/" + PercentEncoding.encode(path) + "/issues"
        case .item(let project, let iid, let mr): return item(project, iid, mr)
        case .notes(let project, let iid, let mr): return item(project, iid, mr) + "/notes"
        case .resourceEvents(let project, let iid, let mr, let kind): return item(project, iid, mr) + "/resource_\(kind)_events"
        }
    }

    var name: String {
        switch self {
        case .user: "user"
        case .issues: "issues"
        case .mergeRequests: "merge_requests"
        case .project: "project"
        case .projectIssues: "project issues"
        case .item: "issue or merge request"
        case .notes: "notes"
        case .resourceEvents(_, _, _, let kind): "resource \(kind) events"
        }
    }
}

/// GitLab's REST API over one `HTTPTransport`: the token as `PRIVATE-TOKEN`, every answer read whole, offset paging
/// followed by `X-Next-Page`, errors as `GitLabError`. Not thread-safe: a source polls from one queue.
final class GitLabAPI {
    let requests: APIRequests
    var transport: any HTTPTransport { requests.transport }
    static let mostPages = 100
    /// Items an answer held that could not be read: left out, told once.
    let skipped: SkippedItems?

    init(base: String, token: Secret, transport: any HTTPTransport, timeout: Int, skipped: SkippedItems? = nil) {
        self.skipped = skipped
        requests = APIRequests(
            base: base, transport: transport, timeout: timeout,
            headers: [("PRIVATE-TOKEN", token.value), ("Accept", "application/json")],
            unreachable: GitLabError.unreachable)
    }

    func get<Value: Decodable>(_ type: Value.Type, _ endpoint: GitLabEndpoint, _ query: [(String, String)] = []) throws -> Value {
        try decode(type, try send(endpoint, query), endpoint)
    }

    /// Every page of a list, by `X-Next-Page`; a server that answers a page again (a known GitLab bug) fails the
    /// read rather than loop or duplicate, and an empty page ends it.
    func pages<Item: Decodable>(
        _ type: Item.Type, _ endpoint: GitLabEndpoint, _ query: [(String, String)], id: (Item) -> Int64,
        until stop: ([Item]) -> Bool = { _ in false }
    ) throws -> [Item] {
        let read = try pages(type, endpoint, query, id: id, most: Self.mostPages, until: stop)
        guard read.complete else {
            throw GitLabError.invalidResponse(endpoint: endpoint.name, detail: "more than \(Self.mostPages) pages")
        }
        return read.items
    }

    /// At most `most` pages of a list: `complete` false where more were left.
    func pages<Item: Decodable>(
        _ type: Item.Type, _ endpoint: GitLabEndpoint, _ query: [(String, String)], id: (Item) -> Int64, most: Int,
        until stop: ([Item]) -> Bool = { _ in false }
    ) throws -> (items: [Item], complete: Bool) {
        var items: [Item] = [], page = 1, previous: [Int64] = []
        for _ in 0..<most {
            let response = try send(endpoint, query + [("page", String(page))])
            let read = try decode(LossyList<Item>.self, response, endpoint), batch = read.elements
            let ids = batch.map(id)
            if batch.isEmpty && read.skipped == 0 { return (items, true) }
            if !ids.isEmpty && ids == previous {
                throw GitLabError.invalidResponse(
                    endpoint: endpoint.name, detail: "page \(page) repeats page \(page - 1) (GitLab's paging bug)")
            }
            previous = ids
            items += batch
            guard !stop(batch), let next = response.header("X-Next-Page").flatMap({ Int($0.prefix(9)) }), next > page
            else { return (items, true) }
            page = next
        }
        return (items, false)
    }

    private func send(_ endpoint: GitLabEndpoint, _ query: [(String, String)]) throws -> HTTPResponse {
        let response = try requests.send(.get, requests.url(endpoint.path, query))
        guard !(200..<300).contains(response.status) else { return response }
        throw Self.failure(response, endpoint: endpoint)
    }

    static func failure(_ response: HTTPResponse, endpoint: GitLabEndpoint) -> GitLabError {
        // GitLab.com sends Retry-After with a 429; a self-managed limit may answer a plain "Retry later".
        let message = APIErrorBody.text(response)
            ?? SafeText.oneLine(String(decoding: response.body.prefix(200), as: UTF8.self), limit: 100)
        return .answer(response, message: message, endpoint: endpoint.name)
    }

    private func decode<Value: Decodable>(_ type: Value.Type, _ response: HTTPResponse, _ endpoint: GitLabEndpoint) throws -> Value {
        try GitLabError.decode(type, response, endpoint: endpoint.name, skipped: skipped)
    }
}

/// Why talking to GitLab failed, in words that say what to do next.
public typealias GitLabError = TrackerError<GitLabRefusal>

/// GitLab's words: it refuses nothing that other trackers do not (a project it cannot read is a shared case).
public enum GitLabRefusal: TrackerRefusal {
    public static var tracker: String { "GitLab" }
    public static var newToken: String {
        "personal access token with the read_api scope (GitLab, Preferences, Access tokens)"
    }
    public static var projectNames: String { "full paths, such as platform/web" }

    public var own: OwnFailure { switch self {} }
}
