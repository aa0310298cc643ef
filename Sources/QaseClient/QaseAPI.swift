#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Logging
import TrackerHTTP
import TrackwatchCore

/// Qase's REST API v1 over one `HTTPTransport`: every request a `GET` with the `Token` header, every answer read
/// whole (or the request fails), lists read page by page until every item has arrived.
///
/// Not thread-safe: a source polls from one queue.
final class QaseAPI {
    /// The most items per page Qase allows (qase-api.md §1); larger `page_size`s are cut to it.
    static let largestPage = 100
    /// The largest offset Qase accepts: a list longer than that cannot be read whole.
    static let largestOffset = 100_000
    /// The most bytes the pages of one read may come to together (each page is held to the transport's 16 MB).
    static let largestRead = 64 * 1024 * 1024

    /// How list filters are named: `status=` (the spec) or `filters[status]=` (older servers, Qase's MCP server).
    enum FilterStyle: Sendable { case flat, bracketed }

    let base: String
    private let token: Secret
    let transport: any HTTPTransport
    private let timeout: Int
    private let logger: Logger
    let pageSize: Int
    /// Learned when an answer shows that flat filter names were ignored; kept for the process.
    var filterStyle = FilterStyle.flat
    /// Requests sent (for `probe` and the logs).
    private(set) var requestCount = 0
    /// Bytes of answers received (for the budget of one read).
    private var bytesReceived = 0
    /// A digest of the last answer's body, for `pages` to tell a page it was given before.
    private var lastBodyDigest = 0
    private var pacer: RequestPacer
    let readBudget: Int
    /// Pages asked with `reuse`, by URL, as decoded in the last poll (`reusable`) and in this one (`reused`): a
    /// page whose bytes come back the same (digest and length) is not decoded again. A page is kept only from one
    /// poll to the next, so they are bounded by what one poll reads.
    private var reusable: [String: DecodedPage] = [:], reused: [String: DecodedPage] = [:]
    /// Pages not decoded again because their bytes came back the same (for the tests).
    private(set) var pagesReused = 0

    private struct DecodedPage {
        let digest: Int, size: Int
        let result: Any
    }

    init(
        base: String, token: Secret, transport: any HTTPTransport, timeout: Int, pageSize: Int, logger: Logger,
        pacer: RequestPacer = RequestPacer(), readBudget: Int = QaseAPI.largestRead
    ) {
        self.pacer = pacer
        self.readBudget = readBudget
        self.base = base
        self.token = token
        self.transport = transport
        self.timeout = timeout
        self.pageSize = min(max(pageSize, 1), Self.largestPage)
        self.logger = logger
    }

    // MARK: Requests

    /// Starts a poll: pages kept from the poll before the last are let go.
    func startPoll() {
        reusable = reused
        reused = [:]
    }

    /// `GET base/path?query`, decoded from the envelope's `result`. With `reuse`, an answer whose bytes are those
    /// of the same request's answer in the last poll (a page of a list re-read whole each poll) is that answer's
    /// result, not decoded again: it passed the same bounds then.
    func get<Result: Decodable>(
        _ path: [String], _ query: [(String, String)] = [], endpoint: String, reuse: Bool = false
    ) async throws -> Result {
        let response = try await send(path, query, endpoint: endpoint)
        let key = reuse ? url(path, query) : ""
        if reuse, let kept = reusable.removeValue(forKey: key), kept.digest == lastBodyDigest,
            kept.size == response.body.count, let result = kept.result as? Result
        {
            reused[key] = kept
            pagesReused += 1
            return result
        }
        if let excess = JSONBudget.excess(in: response.body) {
            throw QaseError.invalidResponse(endpoint: endpoint, detail: excess)
        }
        let result: Result
        do {
            result = try JSONDecoder().decode(Envelope<Result>.self, from: Data(response.body)).result
        } catch {
            throw QaseError.invalidResponse(endpoint: endpoint, detail: Self.describe(response, decodingError: error))
        }
        if reuse { reused[key] = DecodedPage(digest: lastBodyDigest, size: response.body.count, result: result) }
        return result
    }

    /// Every item of a list, page by page, with `filters` named as this server takes them.
    func list<Entity: Decodable>(
        _ path: [String], filters: [(String, String)] = [], endpoint: String
    ) async throws -> [Entity] {
        let named = filters.map { (filterStyle == .flat ? $0.0 : "filters[\($0.0)]", $0.1) }
        return try await pages(endpoint: endpoint) { limit, offset in
            try await self.get(path, named + [("limit", String(limit)), ("offset", String(offset))], endpoint: endpoint)
        }
    }

    /// Every item a QQL query finds (`GET /search`), page by page; `reuse`: see `get`.
    func search<Entity: Decodable>(_ query: String, endpoint: String, reuse: Bool = false) async throws -> [Entity] {
        try await pages(endpoint: endpoint) { limit, offset in
            try await self.get(
                ["search"], [("query", query), ("limit", String(limit)), ("offset", String(offset))],
                endpoint: endpoint, reuse: reuse)
        }
    }

    /// The most pages one read takes: what Qase's largest offset needs at the page size asked, and one more.
    var largestPageCount: Int { Self.largestOffset / pageSize + 1 }

    /// Pages until the count the server announced has arrived and a page came back short, or a page is empty. A
    /// server may clamp `limit` (a page shorter than asked is not the last one then) or count wrongly (a full
    /// page is followed by one more request). A read that repeats any page seen before in it, would need an offset
    /// beyond Qase's limit, takes more than `largestPageCount` pages or more than `readBudget` bytes fails rather
    /// than be diffed incomplete (the time it may take is `[poll] deadline`'s, held in the transport).
    func pages<Entity: Decodable>(
        endpoint: String, _ page: (_ limit: Int, _ offset: Int) async throws -> EntityPage<Entity>
    ) async throws -> [Entity] {
        var items: [Entity] = [], offset = 0, pages = 0
        // Each page's digest and offset: as many as pages, so bounded with them.
        var seen: [Int: Int] = [:]
        let bytesBefore = bytesReceived
        while true {
            let answer = try await page(pageSize, offset)
            pages += 1
            if answer.entities.isEmpty { return items }
            // The answer's bytes: a server that ignores `offset` answers the same page again, byte for byte. (One
            // that varies a byte of each is ended by the page count, the byte budget and the deadline.) Describing
            // each entity instead, by reflection, was a third of a steady poll's CPU.
            let digest = lastBodyDigest
            if let earlier = seen[digest] {
                throw QaseError.invalidResponse(
                    endpoint: endpoint,
                    detail: "the page at offset \(offset) repeats the one at offset \(earlier) (the server ignores "
                        + "offset, or its paging never ends)")
            }
            seen[digest] = offset
            items += answer.entities
            offset += answer.entities.count
            let announced = (answer.filtered ?? answer.total)?.value ?? 0
            if offset >= announced && answer.entities.count < pageSize { return items }
            guard offset <= Self.largestOffset else {
                throw QaseError.invalidResponse(
                    endpoint: endpoint,
                    detail: "more than \(Self.largestOffset) items, "
                        + "beyond what Qase's paging can read")
            }
            try checkBounds(pages: pages, bytes: bytesReceived - bytesBefore, announced: announced, endpoint: endpoint)
        }
    }

    /// Fails a read past its page count or its byte budget, saying which limit and what the server claimed.
    private func checkBounds(pages: Int, bytes: Int, announced: Int, endpoint: String) throws {
        if pages >= largestPageCount {
            throw QaseError.invalidResponse(
                endpoint: endpoint,
                detail: "the list did not end after \(pages) pages (its total says \(announced); a read takes at most "
                    + "the \(largestPageCount) pages of Qase's \(Self.largestOffset) items): its paging may never end")
        }
        if bytes > readBudget {
            throw QaseError.invalidResponse(
                endpoint: endpoint,
                detail: "the list's pages came to more than \(readBudget / 1_000_000) MB in all after \(pages) "
                    + "pages (its total says \(announced)): the most one read of Qase may hold")
        }
    }

    /// Sends one request; an error status becomes a `QaseError` (429: `rateLimited`, with jitter on its wait).
    func send(_ path: [String], _ query: [(String, String)], endpoint: String) async throws -> HTTPResponse {
        let request = HTTPRequest(
            method: .get, url: url(path, query),
            headers: [("Token", token.value), ("Accept", "application/json"), ("User-Agent", "trackwatch")],
            timeout: timeout)
        requestCount += 1
        pacer.take()
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
            bytesReceived += response.body.count
            lastBodyDigest = response.body.withUnsafeBytes { bytes in
                var hasher = Hasher()
                hasher.combine(bytes: bytes)
                return hasher.finalize()
            }
        } catch let error as TransportError {
            throw QaseError.unreachable(error)
        }
        guard !(200..<300).contains(response.status) else { return response }
        let message = Self.message(response)
        let retryAfter = RetryAfter.seconds(in: response)
        switch response.status {
        case 401: throw QaseError.tokenRejected(message: message)
        // Qase's own reporter waits the whole Retry-After plus 10–30 %, so that clients do not return in step.
        case 429: throw QaseError.rateLimited(retryAfter: retryAfter.map { $0 * Double.random(in: 1.1...1.3) })
        default:
            throw QaseError.server(
                status: response.status, message: message, endpoint: endpoint,
                retryAfter: retryAfter)
        }
    }

    func url(_ path: [String], _ query: [(String, String)]) -> String {
        var url = base + path.map { "/" + PercentEncoding.encode($0) }.joined()
        if !query.isEmpty {
            url +=
                "?"
                + query.map { PercentEncoding.encode($0.0, keeping: [0x5B, 0x5D]) + "=" + PercentEncoding.encode($0.1) }.joined(separator: "&")
        }
        return url
    }

    // MARK: Describing answers

    /// The server's error message (`errorMessage`, `error` or `message`), one line, bounded.
    static func message(_ response: HTTPResponse) -> String {
        // An error answer is read for its message only when small: the status names the failure anyway.
        guard response.body.count <= 64 * 1024,
            let body = try? JSONDecoder().decode(ErrorBody.self, from: Data(response.body)), let text = body.text
        else {
            return ""
        }
        return SafeText.oneLine(text, limit: 200)
    }

    /// What a 2xx answer that does not decode is: an HTML page, a cut body, or JSON of another shape.
    static func describe(_ response: HTTPResponse, decodingError: any Error) -> String {
        let first = response.body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if response.header("Content-Type")?.lowercased().contains("html") == true || first == UInt8(ascii: "<") {
            return "an HTML page instead of JSON (a proxy's or a login page?)"
        }
        if response.body.isEmpty { return "an empty body" }
        if first != UInt8(ascii: "{") { return "not a JSON object" }
        switch decodingError {
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON (cut short?)"
        case DecodingError.keyNotFound(let key, let context):
            return "no \(Self.path(context.codingPath + [key]))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            return "an unexpected value at \(Self.path(context.codingPath))"
        default:
            return "JSON of an unexpected shape"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }
}
