import SimulatorKit

/// A fault tests arm with `POST /sim/faults`: the next `count` answers of `route` (a route name as in the stats,
/// e.g. `GET /devices`; empty for every route but `/sim`) go wrong this way, after `after` answers went right.
/// `GET /fault/{kind}` answers with the same faults every time.
struct Fault: Sendable {
    enum Kind: String, CaseIterable, Sendable {
        /// `status` (default 500) with a JSON error body; 429 and 503 carry `Retry-After`.
        case status
        /// An HTML page (status `status`, default 200), as a login portal or a proxy sends.
        case html
        /// Status 200, `application/json`, and a body cut mid-value: not JSON.
        case garbage
        /// Fewer bytes than `Content-Length` says, then the connection closes.
        case truncate
        /// Status 200 with an empty body.
        case empty
        /// The connection is reset; no answer.
        case reset
        /// No answer at all.
        case hang
        /// The head and half the body, then nothing.
        case hangBody = "hang-body"
        /// A well-formed list of `size` bytes (default 50 MiB) with its `Content-Length`.
        case huge
        /// The same, chunked: no `Content-Length` to refuse it by.
        case hugeChunked = "huge-chunked"
        /// `Content-Encoding: gzip`, about 1 MB that inflates to `size` bytes (default 1 GiB) of spaces and `[]`.
        case gzipBomb = "gzip-bomb"
        /// `[[[…]]]` nested `depth` deep (default 100,000).
        case deep
        /// `[0,0,…]` of `size` bytes (default 16,000,000): the most values an answer of its size can hold.
        case zeros
        /// `[[[0]],[[0]],…]` of `size` bytes (default 16,000,000): the most arrays.
        case nestedZeros = "nested-zeros"
        /// `{"items": [the list], "junk": [0,0,…]}` of `size` bytes (default 16,000,000): the bulk beside the items.
        case zerosBeside = "zeros-beside"
        /// The answer with a byte sequence that is never UTF-8 inside its first string value.
        case badUTF8 = "bad-utf8"
        /// The ordinary answer, `delay` milliseconds late (default 1,000): a slow server.
        case slow
    }

    var route = ""
    var kind: Kind
    var count = 1
    var after = 0
    var status: Int?
    /// `Retry-After` in seconds (429 and 503 get 2 unless told).
    var retryAfter: Int?
    /// `Retry-After` as an HTTP date this many seconds from now.
    var retryAfterDate: Int?
    var size: Int?
    var depth: Int?
    /// `zeros`', `nested-zeros`' and `zeros-beside`'s elements before one string fills the rest of `size`.
    var values: Int?
    /// Milliseconds a `slow` answer waits.
    var delay: Int?
    var message: String?
    var headers: [(String, String)] = []

    init(kind: Kind) { self.kind = kind }

    /// The longest `delay`, in milliseconds: ten minutes.
    static let longestDelay = 600_000

    /// From `{"route", "kind", "count", "after", "status", "retryAfter", "retryAfterDate", "size", "depth",
    /// "message", "headers"}`.
    init?(_ json: JSONValue) {
        guard let kind = json["kind"]?.string.flatMap(Kind.init(rawValue:)) else { return nil }
        self.kind = kind
        route = json["route"]?.string ?? ""
        count = json["count"]?.int ?? 1
        after = json["after"]?.int ?? 0
        status = json["status"]?.int
        retryAfter = json["retryAfter"]?.int
        retryAfterDate = json["retryAfterDate"]?.int
        size = json["size"]?.int
        depth = json["depth"]?.int
        delay = json["delay"]?.int
        message = json["message"]?.string
        headers =
            json["headers"]?.object?.members.compactMap { member in member.value.string.map { (member.key, $0) } }
            ?? []
        guard count >= 1, after >= 0, size.map({ (0...HostilePayloads.largest).contains($0) }) ?? true,
            delay.map({ (0...Fault.longestDelay).contains($0) }) ?? true
        else {
            return nil
        }
    }

    var json: JSONValue {
        [
            "route": .string(route), "kind": .string(kind.rawValue), "count": .int(count), "after": .int(after),
            "status": status.map(JSONValue.int) ?? .null,
        ]
    }
}

extension ServerState {
    /// Applies the first armed fault for `route` (consuming one use) and names its kind.
    mutating func applyFault(to response: inout SimResponse, route: String, call: Call) -> String? {
        guard let index = faults.firstIndex(where: { $0.route.isEmpty || $0.route == route }) else { return nil }
        if faults[index].after > 0 {
            faults[index].after -= 1
            return nil
        }
        let fault = faults[index]
        faults[index].count -= 1
        if faults[index].count == 0 { faults.remove(at: index) }
        response = answer(fault, insteadOf: response, now: call.now)
        return fault.kind.rawValue
    }

    /// What `fault` makes of `response`.
    mutating func answer(_ fault: Fault, insteadOf response: SimResponse, now: Int) -> SimResponse {
        var answer = response
        switch fault.kind {
        case .status: answer = Self.statusAnswer(fault, now: now)
        case .html: answer = Self.htmlPage(status: fault.status ?? 200)
        case .garbage:
            answer = Reply.json(200, .null)
            answer.body = Array(#"{"items": [{"id": 1, "title": "Crash on sa"#.utf8)
        case .truncate: answer.delivery = .truncated
        case .empty:
            answer = SimResponse(status: 200, body: [])
            answer.headers = [("Content-Type", "application/json")]
        case .reset: answer.delivery = .reset
        case .hang: answer.delivery = .never
        case .hangBody: answer.delivery = .stallMidBody
        case .huge, .hugeChunked:
            answer = SimResponse(status: 200, body: payloads.huge(fault.size ?? HostilePayloads.defaultHugeSize))
            answer.headers = [("Content-Type", "application/json")]
            if fault.kind == .hugeChunked { answer.delivery = .chunked }
        case .gzipBomb:
            answer = SimResponse(status: 200, body: payloads.bomb(fault.size ?? HostilePayloads.defaultBombSize))
            answer.headers = [("Content-Type", "application/json"), ("Content-Encoding", "gzip")]
        case .deep:
            answer = SimResponse(status: 200, body: HostilePayloads.deep(fault.depth ?? HostilePayloads.defaultDepth))
            answer.headers = [("Content-Type", "application/json")]
        case .zeros, .nestedZeros:
            let size = fault.size ?? HostilePayloads.defaultDenseSize
            let element = fault.kind == .zeros ? "0" : "[[0]]"
            answer = SimResponse(status: 200, body: HostilePayloads.dense(element, size, count: fault.values))
            answer.headers = [("Content-Type", "application/json")]
        case .zerosBeside:
            let size = fault.size ?? HostilePayloads.defaultDenseSize
            answer = SimResponse(status: 200, body: HostilePayloads.beside(response.body, size, count: fault.values))
            answer.headers = [("Content-Type", "application/json")]
        case .badUTF8: answer.body = HostilePayloads.breakingUTF8(answer.body)
        case .slow: answer.delay = Double(fault.delay ?? 1_000) / 1_000
        }
        answer.headers += fault.headers
        return answer
    }

    private static func statusAnswer(_ fault: Fault, now: Int) -> SimResponse {
        let status = fault.status ?? 500
        var answer = Reply.error(status, fault.message ?? "injected fault")
        if let seconds = fault.retryAfterDate {
            answer.headers.append(("Retry-After", HTTPDate.format(now + seconds)))
        } else if let seconds = fault.retryAfter ?? ((status == 429 || status == 503) ? 2 : nil) {
            answer.headers.append(("Retry-After", String(seconds)))
        }
        return answer
    }

    static func htmlPage(status: Int) -> SimResponse {
        let title = status == 200 ? "Sign in – Single Sign-On" : "\(status) \(Reply.reasons[status] ?? "Error")"
        let html = """
            <!DOCTYPE html>
            <html><head><title>\(title)</title></head>
            <body><h1>\(title)</h1><form method="post" action="/login"><input name="username"></form></body></html>

            """
        var page = SimResponse(status: status, body: Array(html.utf8))
        page.headers = [("Content-Type", "text/html; charset=utf-8")]
        return page
    }
}
