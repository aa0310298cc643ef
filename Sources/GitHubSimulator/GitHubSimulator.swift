#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Synchronization
import SimulatorKit

/// github-sim's request handling, independent of the HTTP plumbing so that tests can call it directly: the REST API
/// under the base path (`""` for github.com, `/api/v3` for GitHub Enterprise Server), control routes under `/sim/`.
public final class GitHubSimulator: SimHandler {
    let state: Mutex<GitHubState>

    public init(options: GitHubSimulatorOptions) {
        state = Mutex(GitHubState(options: options))
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

/// The API versions this server knows, oldest first.
enum APIVersion {
    static let old = "2022-11-28", new = "2026-03-10"
    static let all = [old, new]
}

extension GitHubState {
    /// Finds the route, counts it, checks the version, authenticates, applies the quota, dispatches, answers 304
    /// for a matching `If-None-Match`, then applies an armed fault.
    mutating func apiRoute(_ call: Call) -> SimResponse {
        requestCount += 1
        let routed = route(call)
        let name = routed?.route.name ?? "unknown"
        stats.requests += 1
        stats.requestsByRoute[name, default: 0] += 1
        var response: SimResponse
        let resource = Endpoint.isSearch(name) ? "search" : "core"
        var context = ReplyContext(token: nil, version: APIVersion.old, resource: resource)
        do {
            context.version = try version(call)
            let token = try authenticate(call)
            context.token = token
            stats.requestsByUser[Directory.accounts[token.user].login, default: 0] += 1
            guard let routed else { throw GitHubError.notFound }
            try checkQuota(token, resource: context.resource)
            let view = View(state: self, call: routed.call, token: token, version: context.version)
            let answer = try answer(routed.route.name, routed.route.parameters, routed.call, view)
            response = conditional(answer, call)
        } catch let error as GitHubError {
            response = errorResponse(error)
        } catch {
            response = errorResponse(GitHubError(400, "Problems parsing JSON"))
        }
        if let token = context.token, response.status != 304, name != "GET /rate_limit" {
            use(token, resource: context.resource)
        }
        response.headers += replyHeaders(context)
        applyFault(to: &response, route: name, call: call, context: context)
        return response
    }

    /// The route and a call whose segments are relative to the base path, with `/repositories/{id}` read as
    /// `/repos/{owner}/{repo}`; nil for a path outside the base path or no route.
    private func route(_ call: Call) -> (route: (name: String, parameters: [String]), call: Call)? {
        let base = options.basePath.split(separator: "/").map(String.init)
        guard call.segments.starts(with: base) else { return nil }
        var inner = call
        inner.segments = Array(call.segments.dropFirst(base.count))
        if inner.segments.count >= 2, inner.segments[0] == "repositories", let id = Int(inner.segments[1]),
            let repo = repos.first(where: { $0.id == id })
        {
            inner.segments.replaceSubrange(0..<2, with: ["repos", repo.owner, repo.name])
        }
        guard let route = Endpoint.match(method: call.method, path: inner.segments) else { return nil }
        return (route, inner)
    }

    /// The API version the call selects: `X-GitHub-Api-Version`, or 2022-11-28 without it; 400 for others.
    private func version(_ call: Call) throws -> String {
        let asked = call.header("x-github-api-version")?.trimmed
        let version = asked ?? APIVersion.old
        let supported = switches.retire20221128 ? [APIVersion.new] : APIVersion.all
        guard supported.contains(version) else {
            let shown = asked.map { "'\($0)'" } ?? "none (defaults to \(APIVersion.old))"
            throw GitHubError(
                400,
                "Unsupported 'X-GitHub-Api-Version' provided: \(shown). Supported versions are: "
                    + supported.joined(separator: ", "),
                documentation: "https://docs.github.com/rest/about-the-rest-api/api-versions")
        }
        return version
    }

    /// The caller's token, or 401: "Requires authentication" without one, "Bad credentials" for a wrong one.
    mutating func authenticate(_ call: Call) throws -> Token {
        guard let token = Directory.token(fromHeader: call.request.authorization) else {
            stats.unauthorized += 1
            throw GitHubError(401, call.request.authorization == nil ? "Requires authentication" : "Bad credentials")
        }
        return token
    }

    func errorResponse(_ error: GitHubError) -> SimResponse {
        var response = SimResponse(status: error.status, body: error.body.bytes)
        response.headers = error.headers
        return response
    }

    /// 200 with a weak `ETag` (a hash of the body) for a GET, or 304 with no body when `If-None-Match` names it.
    private mutating func conditional(_ answer: Answer, _ call: Call) -> SimResponse {
        let body = answer.body?.bytes ?? []
        var response = SimResponse(status: answer.status, body: body)
        response.headers = answer.headers
        guard call.method == "GET", answer.status == 200 else { return response }
        let tag = "W/\"\(ETag.hash(body))\""
        let asked = (call.header("if-none-match") ?? "").split(separator: ",").map {
            
            let tag = String($0).trimmed
            return tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
        }
        response.headers.append(("ETag", tag))
        guard asked.contains(String(tag.dropFirst(2))) || asked.contains("*") else { return response }
        stats.notModified += 1
        response.status = 304
        response.body = []
        return response
    }
}

/// What the headers of an answer depend on besides its body.
struct ReplyContext {
    var token: Token?
    var version: String
    var resource: String
}

/// Weak validators: 64 hex digits from FNV-1a over the body (four lanes), shaped like GitHub's.
enum ETag {
    static func hash(_ bytes: [UInt8]) -> String {
        var lanes: [UInt64] = [
            0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4, 0x1234_5678_9abc_def0, 0x0f1e_2d3c_4b5a_6978,
        ]
        for byte in bytes {
            for lane in lanes.indices { lanes[lane] = (lanes[lane] ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return lanes.map { lane in
            let hex = String(lane, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
