import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Every request trackwatch makes of GitLab (REST v4): its path, and its name in errors.
struct GitLabEndpoint: Equatable {
    var path: String, name: String

    static let user = Self(path: "/user", name: "user")
    static let issues = Self(path: "/issues", name: "issues")
    static let mergeRequests = Self(path: "/merge_requests", name: "merge_requests")
    static func project(path: String) -> Self {
        Self(path: "/projects/" + PercentEncoding.encode(path), name: "project")
    }
    static func projectIssues(path: String) -> Self {
        Self(path: project(path: path).path + "/issues", name: "project issues")
    }
    static func item(project: Int64, iid: Int, mergeRequest: Bool) -> Self {
        let kind = mergeRequest ? "merge_requests" : "issues"
        return Self(path: "/projects/\(project)/\(kind)/\(iid)", name: "issue or merge request")
    }
    static func notes(project: Int64, iid: Int, mergeRequest: Bool) -> Self {
        Self(path: item(project: project, iid: iid, mergeRequest: mergeRequest).path + "/notes", name: "notes")
    }
    /// `resource_label_events`, `resource_state_events`, `resource_milestone_events`.
    static func resourceEvents(project: Int64, iid: Int, mergeRequest: Bool, kind: String) -> Self {
        let base = item(project: project, iid: iid, mergeRequest: mergeRequest).path
        return Self(path: base + "/resource_\(kind)_events", name: "resource \(kind) events")
    }
}

/// GitLab's REST API over one `HTTPTransport`: the token as `PRIVATE-TOKEN`, every answer read whole, offset paging
/// followed by `X-Next-Page`, errors as `GitLabError`. Not thread-safe: a source polls from one queue.
final class GitLabAPI {
    let requests: APIRequests
    static let mostPages = 100
    /// Items an answer held that could not be read: left out, told once.
    let skipped: SkippedItems?

    init(_ access: APIAccess) {
        skipped = SkippedItems(tracker: "GitLab", logger: access.logger)
        requests = APIRequests(
            base: access.url + "/api/v4", transport: access.transport, timeout: access.timeout,
            headers: [("PRIVATE-TOKEN", access.secret.value), ("Accept", "application/json")],
            unreachable: GitLabError.unreachable)
    }

    func get<Value: Decodable>(_ type: Value.Type, _ endpoint: GitLabEndpoint, _ query: [(String, String)] = []) async throws -> Value {
        try await decode(type, try send(endpoint, query), endpoint)
    }

    /// The pages of a list, by `X-Next-Page`: at most `most` (`complete` false where more were left), or every page
    /// (past `mostPages` the read fails). A server that answers a page again (a known GitLab bug) fails the read
    /// rather than loop or duplicate, and an empty page ends it.
    func pages<Item: Decodable>(
        _ type: Item.Type, _ endpoint: GitLabEndpoint, _ query: [(String, String)], id: (Item) -> Int64,
        most: Int? = nil, until stop: ([Item]) -> Bool = { _ in false }
    ) async throws -> (entries: LossyList<Item>, complete: Bool) {
        var entries = LossyList<Item>(), page = 1, previous: [Int64] = []
        for _ in 0..<(most ?? Self.mostPages) {
            let response = try await send(endpoint, query + [("page", String(page))])
            let batch = try decode(LossyList<Item>.self, response, endpoint), ids = batch.elements.map(id)
            if batch.sent == 0 { return (entries, true) }
            if !ids.isEmpty && ids == previous {
                throw GitLabError.invalidResponse(
                    endpoint: endpoint.name, detail: "page \(page) repeats page \(page - 1) (GitLab's paging bug)")
            }
            previous = ids
            entries += batch
            guard !stop(batch.elements), let next = response.header("X-Next-Page").flatMap({ Int($0.prefix(9)) }),
                next > page
            else { return (entries, true) }
            page = next
        }
        guard most != nil else {
            throw GitLabError.invalidResponse(endpoint: endpoint.name, detail: "more than \(Self.mostPages) pages")
        }
        return (entries, false)
    }

    private func send(_ endpoint: GitLabEndpoint, _ query: [(String, String)]) async throws -> HTTPResponse {
        try await requests.answer(.get, endpoint.path, query) { Self.failure($0, endpoint: endpoint) }
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

// GitLab's answers (REST v4) as trackwatch reads them (shared/trackers-api.md §2.2). Tolerant: an old GitLab without
// reviewers has no `reviewers` member; unknown note bodies are skipped, never shown.

struct GitLabUser: Decodable, Equatable {
    var id: Int64?
    var username: String?
    var name: String?
    var bot: Bool?

    /// A bot: GitLab says so, or a project or group access token's user (`project_42_bot_…`, `group_7_bot_…`).
    var isBot: Bool { bot == true || (username ?? "").contains("_bot") }

    var actor: Actor? { .user(id: id, login: username, name: name, isApp: isBot) }
}

/// An issue or a merge request.
struct GitLabItem: Decodable {
    struct References: Decodable { var full: String? }

    var id: Int64
    var iid: Int
    var project_id: Int64?
    var title: String?
    var state: String?
    var labels: FirstValues<String>?
    var milestone: ForgeMilestone?
    var assignees: [GitLabUser]?
    var reviewers: [GitLabUser]?
    var author: GitLabUser?
    var user_notes_count: Int?
    var updated_at: String?
    var references: References?
    var moved_to_id: Int64?

    /// `group/project#42` or `group/project!7`, if it is one.
    var reference: GitLabReference? { references?.full.flatMap(GitLabReference.init) }
}

struct GitLabNote: Decodable {
    var id: Int64
    var body: String?
    var author: GitLabUser?
    var created_at: String?
    var system: Bool?
}

/// A label, state or milestone event.
struct GitLabResourceEvent: Decodable {
    var id: Int64
    var user: GitLabUser?
    var created_at: String?
    var label: ForgeLabel?
    var milestone: ForgeMilestone?
    var action: String?
    var state: String?
}
