import SimulatorKit

/// A fault armed with `POST /sim/faults`: the next `count` answers to `route` (a route name as in the stats,
/// e.g. `GET /search`; empty for every API route) go wrong this way, after `after` answers went right.
public struct QaseFault: Codable, Sendable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// An error status (`status`, default 500) with `{"status": false, "errorMessage": message}`; a 429 has
        /// no body and `Retry-After: retryAfter` (default 2), as Qase sends it; a 503 has the same header.
        case status
        /// An HTML page with status 200, as a proxy or login portal sends.
        case html
        /// Status 200 and a body that is not JSON.
        case garbage
        /// A body shorter than its Content-Length, then the connection closes.
        case truncate
        /// No answer at all, the connection left open.
        case hang
        /// The connection closes without an answer.
        case drop
        /// The real answer preceded by `size` bytes (default 2 MB) of JSON whitespace.
        case oversize
        /// The real answer with a member `"padding": [0,0,…]` of about `size` bytes (default 2 MB): as many values
        /// as an answer of that size can hold, which a client parses before it can ignore them.
        case dense
    }

    public var route: String
    public var kind: Kind
    public var count: Int
    public var after: Int?
    public var status: Int?
    public var retryAfter: Int?
    public var size: Int?
    public var message: String?
    /// Headers added to the faulty answer (any value: hostile header values are the point).
    public var headers: [String: String]?
}

extension QaseState {
    /// Applies the first fault armed for `route` (consuming one use) to the answer the API produced.
    mutating func applyFault(to response: inout SimResponse, route: String) {
        guard let index = faults.firstIndex(where: { ($0.route.isEmpty || $0.route == route) && $0.count > 0 }) else {
            return
        }
        if let after = faults[index].after, after > 0 {
            faults[index].after = after - 1
            return
        }
        faults[index].count -= 1
        let fault = faults[index]
        switch fault.kind {
        case .status:
            let status = fault.status ?? 500
            let body = APIError(status, fault.message ?? "injected fault").body.bytes
            response = SimResponse(status: status, body: status == 429 ? [] : body)
            let own = fault.headers?.keys.contains { $0.lowercased() == "retry-after" } == true
            if (status == 429 || status == 503) && !own {
                response.headers.append(("Retry-After", "\(fault.retryAfter ?? 2)"))
            }
            if status == 429 { stats.rateLimited += 1 }
        case .html:
            response = SimResponse(status: 200, body: Array("<html><body><h1>502 Bad Gateway</h1></body></html>".utf8))
            response.headers.append(("Content-Type", "text/html"))
        case .garbage:
            response = SimResponse(status: 200, body: Array(#"{"status":true,"result":{"entities":[{"id":1,"#.utf8))
        case .truncate:
            response.delivery = .truncated
        case .hang:
            response.delivery = .never
        case .drop:
            response.delivery = .dropped
        case .oversize:
            let padding = max(0, (fault.size ?? 2_000_000) - response.body.count)
            response.body = [UInt8](repeating: UInt8(ascii: " "), count: padding) + response.body
        case .dense:
            guard response.body.last == UInt8(ascii: "}") else { break }
            let zeros = max(1, (min(fault.size ?? 2_000_000, 1 << 30) - response.body.count) / 2)
            response.body.removeLast()
            response.body += Array(#","padding":[0"#.utf8)
            response.body.reserveCapacity(response.body.count + 2 * zeros + 2)
            for _ in 1..<zeros { response.body += [UInt8(ascii: ","), UInt8(ascii: "0")] }
            response.body += Array("]}".utf8)
        }
        for (name, value) in (fault.headers ?? [:]).sorted(by: { $0.key < $1.key }) {
            response.headers.append((name, value))
        }
    }
}
