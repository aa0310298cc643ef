import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Forgejo's (or Gitea's) REST API under `/api/v1` over one `HTTPTransport`: the token on every request, a renamed
/// or transferred repository's 307 followed on the same server, `Link` paging checked against `X-Total-Count`,
/// errors as `ForgejoError`. Not thread-safe: a source polls from one queue.
final class ForgejoAPI {
    /// `MAX_RESPONSE_ITEMS` by default: a larger `limit` is cut to it silently, so it is what is asked.
    static let pageSize = 50, mostPages = 200, mostRedirects = 3

    let requests: APIRequests
    var transport: any HTTPTransport { requests.transport }
    /// The web root; the API is under it.
    var web: String { requests.base }

    /// Items an answer held that could not be read: left out, told once.
    let skipped: SkippedItems?

    init(_ access: APIAccess) {
        skipped = SkippedItems(tracker: "Forgejo", logger: access.logger)
        requests = APIRequests(
            base: access.url, transport: access.transport, timeout: access.timeout,
            headers: [("Authorization", "token " + access.secret.value), ("Accept", "application/json")],
            unreachable: ForgejoError.unreachable)
    }

    /// `GET` of `path` under the web root, or of `url` (a `Link` page): 2xx, or the error it is.
    func get(_ path: String, _ query: [(String, String)] = [], url: String? = nil, name: String) async throws -> HTTPResponse
    {
        var target = url ?? requests.url(path, query)
        for _ in 0...Self.mostRedirects {
            guard target.hasPrefix(web + "/") else {
                throw ForgejoError.invalidResponse(endpoint: name, detail: "a link or redirect to another server")
            }
            let response = try await requests.send(.get, target)
            // A renamed or transferred repository: the same path under its new name (RedirectToRepo).
            if [301, 302, 307, 308].contains(response.status), let location = response.header("Location") {
                target = location.hasPrefix("/") ? Self.origin(web) + location : location
                continue
            }
            guard (200..<300).contains(response.status) else { throw Self.failure(response, name: name) }
            return response
        }
        throw ForgejoError.invalidResponse(endpoint: name, detail: "more than \(Self.mostRedirects) redirects")
    }

    func decode<Value: Decodable>(_ type: Value.Type, _ response: HTTPResponse, name: String) throws -> Value {
        try ForgejoError.decode(type, response, endpoint: name, skipped: skipped)
    }

    func get<Value: Decodable>(_ type: Value.Type, _ path: String, _ query: [(String, String)] = [], name: String)
        async throws -> Value
    {
        try await decode(type, try get(path, query, name: name), name: name)
    }

    /// Every page of a list: `limit` as large as the server gives, `Link` followed until the count reaches
    /// `X-Total-Count` (a cut page is never taken for the last, an extra empty one ends it); short of it, the read
    /// fails. Items left out as unusable (`LossyList`) count as read: they were sent.
    func all<Value: Decodable>(_ type: Value.Type, _ path: String, _ query: [(String, String)], name: String) async throws
        -> LossyList<Value>
    {
        let first = try await get(path, query + [("limit", String(Self.pageSize))], name: name)
        var list = LossyList<Value>(), total: Int?
        let whole = try await LinkPages.follow(
            ForgejoError.self, name, from: first, most: Self.mostPages, get: { try await get(path, url: $0, name: name) }
        ) { response in
            let page = try decode(LossyList<Value>.self, response, name: name)
            list += page
            total = response.header("X-Total-Count").flatMap { Int($0.prefix(9)) }
            if let total, list.sent >= total { return false }
            return page.sent > 0
        }
        guard whole else {
            throw ForgejoError.invalidResponse(endpoint: name, detail: "more than \(Self.mostPages) pages")
        }
        if let total, list.sent < total {
            throw ForgejoError.invalidResponse(endpoint: name, detail: "\(list.sent) of \(total) items")
        }
        return list
    }

    /// The error for an answer that is not 2xx. 429, and a 503 a proxy sent (an HTML page, or a `Retry-After`), are
    /// a wait; a JSON 503 without one is the server's trouble.
    static func failure(_ response: HTTPResponse, name: String) -> ForgejoError {
        let html = JSONAnswer.describe(response).hasPrefix("an HTML page")
        let message = html ? "" : JSONAnswer.message(ErrorBody.self, response)?.text ?? ""
        switch response.status {
        case 403: return .refused(ForgejoRefusal(message: message))
        case 503 where html || RetryAfter.seconds(in: response) != nil: return .waitAsked(response)
        default: return .answer(response, message: message, endpoint: name)
        }
    }

    /// `https://example.org` of `https://example.org/git`: where a `Location` path starts.
    static func origin(_ web: String) -> String {
        guard let scheme = web.firstRange(of: "://") else { return web }
        return String(web[..<(web[scheme.upperBound...].firstIndex(of: "/") ?? web.endIndex)])
    }

    struct ErrorBody: Decodable {
        var message: String?
        var text: String { SafeText.oneLine(message ?? "", limit: 300) }
    }
}
