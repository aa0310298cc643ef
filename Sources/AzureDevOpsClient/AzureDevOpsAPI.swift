import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Every request trackwatch makes of Azure DevOps, under the organization or collection URL.
enum AzureDevOpsEndpoint: Equatable {
    case connectionData
    case projects
    case wiql
    case workItemsBatch
    case updates(workItem: Int)
    case pullRequests(project: String)
    case pullRequest(id: Int)
    case threads(project: String, repository: String, pullRequest: Int)

    var path: String {
        switch self {
        case .connectionData: return "/_apis/connectionData"
        case .projects: return "/_apis/projects"
        case .wiql: return "/_apis/wit/wiql"
        case .workItemsBatch: return "/_apis/wit/workitemsbatch"
        case .updates(let id): return "/_apis/wit/workItems/\(id)/updates"
        case .pullRequests(let project): return "/\(PercentEncoding.encode(project))/_apis/git/pullrequests"
        case .pullRequest(let id): return "/_apis/git/pullrequests/\(id)"
        case .threads(let project, let repository, let id):
            return "/\(PercentEncoding.encode(project))/_apis/git/repositories/\(PercentEncoding.encode(repository))"
                + "/pullRequests/\(id)/threads"
        }
    }

    var name: String {
        switch self {
        case .connectionData: "connectionData"
        case .projects: "projects"
        case .wiql: "wiql"
        case .workItemsBatch: "workitemsbatch"
        case .updates: "work item updates"
        case .pullRequests: "pull requests"
        case .pullRequest: "pull request"
        case .threads: "pull request threads"
        }
    }

    /// connectionData is a preview resource in every version (as Microsoft's own client asks for it).
    var isPreview: Bool { self == .connectionData }
}

/// Azure DevOps's REST API over one `HTTPTransport`: the token as Basic with an empty user, sign-in redirects
/// suppressed, `api-version` on every call (7.1, or 7.0 for a Server 2022 before 2022.1, learnt from its refusal),
/// every answer read whole, errors as `AzureDevOpsError`. Not thread-safe: a source polls from one queue.
final class AzureDevOpsAPI {
    let requests: APIRequests
    var transport: any HTTPTransport { requests.transport }
    /// The API version this server takes.
    private(set) var version = "7.1"
    /// The longest wait a successful answer asked for (`Retry-After`, `X-RateLimit-Delay` on a 200), until taken.
    let askedToWait = AskedWait()

    /// Items an answer held that could not be read: left out, told once.
    let skipped: SkippedItems?

    init(_ access: APIAccess) {
        skipped = SkippedItems(tracker: "Azure DevOps", logger: access.logger)
        requests = APIRequests(
            base: access.url, transport: access.transport, timeout: access.timeout,
            headers: [
                ("Authorization", BasicAuthorization.header(user: "", password: access.secret.value)),
                ("Accept", "application/json"),
                // Without it a refused token is a 203 with a sign-in page; with it, a 401.
                ("X-TFS-FedAuthRedirect", "Suppress"),
            ],
            unreachable: AzureDevOpsError.unreachable)
    }

    func get<Value: Decodable>(
        _ type: Value.Type, _ endpoint: AzureDevOpsEndpoint, _ query: [(String, String)] = []
    ) async throws -> Value {
        try await decode(type, try send(.get, endpoint, query), endpoint)
    }

    /// A `GET` whose answer's headers matter too (a continuation token).
    func read<Value: Decodable>(
        _ type: Value.Type, _ endpoint: AzureDevOpsEndpoint, _ query: [(String, String)]
    ) async throws -> (value: Value, response: HTTPResponse) {
        let response = try await send(.get, endpoint, query)
        return (try decode(type, response, endpoint), response)
    }

    func post<Value: Decodable>(
        _ type: Value.Type, _ endpoint: AzureDevOpsEndpoint, _ query: [(String, String)] = [], body: some Encodable
    ) async throws -> Value {
        try await decode(type, try send(.post, endpoint, query, body: APIRequests.json(body)), endpoint)
    }

    private func send(
        _ method: HTTPMethod, _ endpoint: AzureDevOpsEndpoint, _ query: [(String, String)], body: [UInt8]? = nil
    ) async throws -> HTTPResponse {
        for _ in 0..<2 {
            let version = endpoint.isPreview ? self.version + "-preview.1" : self.version
            let response = try await requests.send(
                method, requests.url(endpoint.path, query + [("api-version", version)]), body: body)
            if (200..<300).contains(response.status), response.status != 203 {
                noteWait(response)
                return response
            }
            // Server 2022 before 2022.1 takes 7.0 at most: asked again once in its version.
            if response.status == 400, self.version == "7.1",
                JSONAnswer.message(AzureDevOpsErrorBody.self, response)?.typeKey == "VssVersionOutOfRangeException"
            {
                self.version = "7.0"
                continue
            }
            throw Self.failure(response, endpoint: endpoint)
        }
        throw AzureDevOpsError.server(status: 400, message: "api-version 7.0 out of range", endpoint: endpoint.name)
    }

    /// Throttling headers on a good answer: the wait is kept for the schedule, the data is used.
    private func noteWait(_ response: HTTPResponse) {
        let delay = RetryAfter.seconds(in: response) ?? Self.rateLimitDelay(response)
        if let delay, delay > 0 { askedToWait.ask(delay) }
    }

    /// `X-RateLimit-Delay`: seconds, with a fraction; bounded like `Retry-After`.
    static func rateLimitDelay(_ response: HTTPResponse) -> Double? {
        guard let text = response.header("X-RateLimit-Delay"), text.utf8.count <= 16, let seconds = Double(text),
            seconds.isFinite, seconds > 0
        else { return nil }
        return min(seconds, RetryAfter.longest)
    }

    static func failure(_ response: HTTPResponse, endpoint: AzureDevOpsEndpoint) -> AzureDevOpsError {
        if response.status == 203 { return .refused(.signInPage) }
        let body = JSONAnswer.message(AzureDevOpsErrorBody.self, response)
        let message =
            body?.text
            ?? (JSONAnswer.describe(response).hasPrefix("an HTML page") ? "an HTML page" : "")
        if response.status == 400, message.contains("VS402337") {
            return .refused(.tooManyWorkItems(message: SafeText.bounded(message, 120)))
        }
        return .answer(response, message: message, endpoint: endpoint.name)
    }

    private func decode<Value: Decodable>(
        _ type: Value.Type, _ response: HTTPResponse, _ endpoint: AzureDevOpsEndpoint
    ) throws -> Value {
        try AzureDevOpsError.decode(type, response, endpoint: endpoint.name, skipped: skipped)
    }
}
