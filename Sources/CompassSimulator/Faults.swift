#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SimulatorKit

/// Faults tests inject into compass-sim (`POST /ccmweb/sim/faults`): the next `count` responses to `route`
/// (a route name as in the stats, e.g. `GET /query/{id}`; empty for any API route) go wrong this way, after
/// `after` matching responses went right (to hit, say, the third page of a result set).
public struct Fault: Codable, Sendable {
    public enum Kind: String, Codable, Sendable {
        /// An error status (`status` field), with `Retry-After: 2` for 429 and 503, and the JSON body
        /// `{"status": …, "message": …}` (`message` field, default "injected fault"): a hostile server's words.
        case status
        /// An HTML page with status 200, as a proxy or login portal sends.
        case html
        /// Status 200 with a body that is not JSON.
        case garbage
        /// A body shorter than its Content-Length, then the connection closes.
        case truncate
        /// A result page that lacks its last row, so the pages disagree with `recordCount`.
        case shortPage = "short-page"
        /// No answer at all.
        case hang
        /// The response with every `C` byte replaced by 0xFF, which is never valid UTF-8: "Crash…" headlines
        /// arrive broken.
        case badUTF8 = "bad-utf8"
        /// A 200 answer of `size` bytes (default 2 MB) of JSON whitespace before the real body: a server or
        /// proxy sending far more than any page should be.
        case oversize
        /// A result page of `size` bytes (default 63 MB) of one-value rows: millions of rows in one answer.
        case manyRows = "many-rows"
        /// A result page of `size` bytes holding one row of empty values: millions of columns in one row.
        case wideRow = "wide-row"
        /// A result page of `size` bytes holding one 8-value row whose values are long strings: the largest page
        /// that fits the columns and the page size.
        case bigValues = "big-values"
        /// A JSON object answer with one more key, named by `message`: a server planting text (say, the password
        /// it received) where a transcript keeps the API's keys.
        case extraKey = "extra-key"
    }

    public var route: String
    public var kind: Kind
    public var count: Int
    public var status: Int?
    /// Matching responses to let through before the fault applies.
    public var after: Int?
    /// `Retry-After` seconds sent with 429 and 503 (default 2).
    public var retryAfter: Int?
    /// Bytes of an `oversize` answer.
    public var size: Int?
    /// The `message` of a `status` answer's JSON body.
    public var message: String?
    /// Headers added to the faulty answer, e.g. `{"Retry-After": "9223372036854775807"}` (any value: hostile
    /// header values are the point).
    public var headers: [String: String]?
}

/// A Compass error answer's JSON.
private struct FaultBody: Encodable {
    let status: Int
    let message: String
}


extension SimulatorState {
    /// True (consuming one use) when a short-page fault is armed for `route`.
    mutating func consumeShortPage(route: String) -> Bool {
        guard let index = faults.firstIndex(where: { $0.kind == .shortPage && $0.route == route && $0.count > 0 }) else {
            return false
        }
        if let after = faults[index].after, after > 0 {
            faults[index].after = after - 1
            return false
        }
        faults[index].count -= 1
        return true
    }

    /// Applies the first matching fault (consuming one of its uses) to a response the router produced.
    mutating func applyFault(to response: inout SimResponse, route: String) {
        guard !route.contains("/ccmweb/sim"),
            let index = faults.firstIndex(where: {
                ($0.route.isEmpty || $0.route == route) && $0.count > 0 && $0.kind != .shortPage
            })
        else { return }
        if let after = faults[index].after, after > 0 {
            faults[index].after = after - 1
            return
        }
        faults[index].count -= 1
        let fault = faults[index]
        switch fault.kind {
        case .status:
            let status = fault.status ?? 500
            let body = FaultBody(status: status, message: fault.message ?? "injected fault")
            response = SimResponse(status: status, body: Array((try? JSONEncoder().encode(body)) ?? Data()))
            // A Retry-After of the test's own (in `headers`) replaces the default one.
            let ownRetryAfter = fault.headers?.keys.contains { $0.lowercased() == "retry-after" } == true
            if (status == 429 || status == 503) && !ownRetryAfter {
                response.headers.append(("Retry-After", "\(fault.retryAfter ?? 2)"))
            }
        case .html:
            response = SimResponse(status: 200, body: Array("<html><body>Proxy error</body></html>".utf8))
            response.headers.append(("Content-Type", "text/html"))
        case .garbage:
            response = SimResponse(status: 200, body: Array(#"{"rows": [{"values": ["SAMPL"#.utf8))
        case .truncate:
            response.delivery = .truncated
        case .shortPage:
            break  // applied where the page is built: see consumeShortPage(route:)
        case .hang:
            response.delivery = .never
        case .badUTF8:
            response.body = response.body.map { $0 == UInt8(ascii: "C") ? 0xFF : $0 }
        case .oversize:
            response.body = [UInt8](repeating: UInt8(ascii: " "), count: max(0, (fault.size ?? 2_000_000) - response.body.count)) + response.body
        case .manyRows, .wideRow, .bigValues:
            response = SimResponse(status: 200, body: Self.flood(fault.kind, size: fault.size ?? 63_000_000))
            response.headers.append(("Content-Type", "application/json"))
        case .extraKey:
            response.body = Self.adding(key: fault.message ?? "injected fault", to: response.body)
        }
        for (name, value) in (fault.headers ?? [:]).sorted(by: { $0.key < $1.key }) {
            response.headers.append((name, value))
        }
    }

    /// `{"key":1, …}`: the object `body` with one more key first; any other body unchanged.
    static func adding(key: String, to body: [UInt8]) -> [UInt8] {
        guard let open = body.firstIndex(where: { $0 > 0x20 }), body[open] == UInt8(ascii: "{"),
            let name = try? JSONEncoder().encode(key)
        else { return body }
        let rest = body[(open + 1)...]
        let empty = rest.first(where: { $0 > 0x20 }) == UInt8(ascii: "}")
        return Array(body[...open]) + Array(name) + Array((empty ? ":1" : ":1,").utf8) + Array(rest)
    }

    /// `{"rows": [...]}` of about `size` bytes in the shape of a memory-amplification attack.
    static func flood(_ kind: Fault.Kind, size: Int) -> [UInt8] {
        let text: String
        switch kind {
        case .manyRows:
            let row = #"{"values":[""]},"#
            text = #"{"rows":["# + String(repeating: row, count: max(1, size / row.utf8.count)).dropLast() + "]}"
        case .wideRow:
            text = #"{"rows":[{"values":["# + String(repeating: "\"\",", count: max(1, size / 3)) + "\"\"]}]}"
        default:
            let each = max(1, size / 8 - 8)
            let values = (0..<8).map { "\"" + String(repeating: $0 == 0 ? "S" : "x", count: each) + "\"" }
            text = #"{"rows":[{"values":["# + values.joined(separator: ",") + "]}]}"
        }
        return Array(text.utf8)
    }
}
