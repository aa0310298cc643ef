#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import TrackerHTTP
import TrackwatchCore

/// Forgejo's (or Gitea's) REST API under `/api/v1` over one `HTTPTransport`: the token on every request, every
/// answer read whole, errors as `ForgejoError`. Not thread-safe: a source polls from one queue.
final class ForgejoAPI {
    /// `MAX_RESPONSE_ITEMS` by default: a larger `limit` is cut to it silently, so it is what is asked.
    static let pageSize = 50, mostPages = 200

    let web: String
    let transport: any HTTPTransport
    private let token: Secret
    private let timeout: Int

    init(web: String, token: Secret, transport: any HTTPTransport, timeout: Int) {
        self.web = web
        self.token = token
        self.transport = transport
        self.timeout = timeout
    }

    /// `GET` of `path` under the web root (`/api/v1/user`), or of a `Link` page (same server and root only).
    func get(_ path: String, _ query: [(String, String)] = [], url: String? = nil, name: String) throws -> HTTPResponse
    {
        let target = url ?? web + path + PercentEncoding.query(query)
        guard target.hasPrefix(web + "/") else {
            throw ForgejoError.invalidResponse(endpoint: name, detail: "a link to another server")
        }
        let headers: [(name: String, value: String)] = [
            ("Authorization", "token " + token.value), ("Accept", "application/json"), ("User-Agent", "trackwatch"),
        ]
        let response: HTTPResponse
        do {
            response = try transport.send(HTTPRequest(method: .get, url: target, headers: headers, timeout: timeout))
        } catch let error as TransportError {
            throw ForgejoError.unreachable(error)
        }
        guard (200..<300).contains(response.status) else { throw Self.failure(response, name: name) }
        if Self.isHTML(response) {
            throw ForgejoError.invalidResponse(endpoint: name, detail: "an HTML page, not JSON")
        }
        return response
    }

    func decode<Value: Decodable>(_ type: Value.Type, _ response: HTTPResponse, name: String) throws -> Value {
        if let excess = JSONBudget.excess(in: response.body) {
            throw ForgejoError.invalidResponse(endpoint: name, detail: excess)
        }
        do { return try JSONDecoder().decode(Value.self, from: Data(response.body)) } catch {
            throw ForgejoError.invalidResponse(endpoint: name, detail: "JSON of an unexpected shape, or cut short")
        }
    }

    /// Every page of a list: `limit` as large as the server gives, `Link` followed until the count reaches
    /// `X-Total-Count` (a cut page is never taken for the last); short of it, the read fails.
    func all<Value: Decodable>(_ type: Value.Type, _ path: String, _ query: [(String, String)], name: String) throws
        -> [Value]
    {
        var response = try get(path, query + [("limit", String(Self.pageSize))], name: name)
        var values: [Value] = [], seen = Set<String>()
        for _ in 0..<Self.mostPages {
            values += try decode([Value].self, response, name: name)
            let total = response.header("X-Total-Count").flatMap { Int($0.prefix(9)) }
            guard let next = LinkHeader.target("next", in: response) else {
                if let total, values.count < total {
                    throw ForgejoError.invalidResponse(endpoint: name, detail: "\(values.count) of \(total) items")
                }
                return values
            }
            if let total, values.count >= total { return values }
            guard seen.insert(next).inserted else {
                throw ForgejoError.invalidResponse(endpoint: name, detail: "a next page that repeats an earlier one")
            }
            response = try get(path, url: next, name: name)
        }
        throw ForgejoError.invalidResponse(endpoint: name, detail: "more than \(Self.mostPages) pages")
    }

    /// The error for an answer that is not 2xx: 401, 403, a busy proxy (429, 503), others.
    static func failure(_ response: HTTPResponse, name: String) -> ForgejoError {
        let message =
            isHTML(response) ? "" : (try? JSONDecoder().decode(ErrorBody.self, from: Data(response.body)))?.text ?? ""
        switch response.status {
        case 401: return .tokenRejected(message: message)
        case 403: return .missingScope(message: message)
        case 429, 503:
            return .busy(
                status: response.status, retryAfter: RetryAfter.seconds(response.header("Retry-After"), now: 0))
        default: return .server(status: response.status, message: message, endpoint: name)
        }
    }

    static func isHTML(_ response: HTTPResponse) -> Bool {
        let first = response.body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return response.header("Content-Type")?.lowercased().contains("html") == true || first == UInt8(ascii: "<")
    }

    struct ErrorBody: Decodable {
        var message: String?
        var text: String { SafeText.oneLine(message ?? "", limit: 300) }
    }
}
