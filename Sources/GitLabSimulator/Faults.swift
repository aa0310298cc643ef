import SimulatorKit

/// A fault armed with `POST /sim/faults`: the next `count` answers to `route` (a route name as in the stats, e.g.
/// `GET /issues`; empty for every API route), on page `page` only when given, go wrong this way.
public struct GitLabFault: Codable, Sendable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// The error status `status` (default 500) with GitLab's error body `{"message":"500 Internal Server Error"}`.
        case status
        /// GitLab's HTML error page with status `status` (default 502).
        case html
        /// A body shorter than its Content-Length, then the connection closes.
        case truncated
        /// No answer at all, the connection left open.
        case hang
        /// The connection is reset (RST) instead of answered.
        case reset
        /// GitLab's throttle (Rack::Attack): 429, `Retry-After` `retryAfter` (60) seconds, `RateLimit-*`, the body
        /// `Retry later` as text.
        case rateLimit
        /// 429 with the plain body `Retry later` and no `Retry-After` (GitLab Dedicated, a proxy).
        case retryLater
        /// The issue or merge request whose id is `item`, wherever the answer holds it (a list, the item alone),
        /// with `field` set to `value`, raw JSON text: `1e30`, `9223372036854775808`, `"7"` — a hostile server's.
        case item
    }

    public var route: String
    public var kind: Kind
    public var count: Int
    public var status: Int?
    public var retryAfter: Int?
    /// Only requests for this page (`page` parameter; 1 when absent) are hit.
    public var page: Int?
    /// For `item`: the item's id, the member to set and its raw JSON text.
    public var item: Int?
    public var field: String?
    public var value: String?
}

extension GitLabState {
    static let reasons = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict",
        422: "Unprocessable Entity", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout",
    ]

    /// Applies the first fault armed for `route` and the call's page (consuming one use) to the answer.
    mutating func applyFault(to response: inout SimResponse, route: String, call: Call) {
        guard let index = faults.firstIndex(where: { fault in
            (fault.route.isEmpty || fault.route == route) && fault.count > 0 && (fault.page ?? call.page) == call.page
        }) else { return }
        faults[index].count -= 1
        let fault = faults[index]
        switch fault.kind {
        case .status:
            let status = fault.status ?? 500
            response = errorResponse(GitLabError(status, "\(status) \(Self.reasons[status] ?? "Error")"))
        case .html:
            let page = "<!DOCTYPE html>\n<html>\n<head><title>GitLab is not responding (502)</title></head>\n<body>"
                + "<h1>502</h1><h3>Whoops, GitLab is taking too much time to respond.</h3></body>\n</html>\n"
            response = SimResponse(status: fault.status ?? 502, body: Array(page.utf8))
            response.headers = [("Content-Type", "text/html; charset=utf-8")]
        case .item:
            guard let id = fault.item, let field = fault.field, let raw = fault.value,
                let value = try? JSONValue.parse(Array(raw.utf8)), let body = try? JSONValue.parse(response.body)
            else { return }
            response.body = body.settingMember(field, to: value, ofItem: id, marker: "iid").bytes
        case .truncated: response.delivery = .truncated
        case .hang: response.delivery = .never
        case .reset: response.delivery = .reset
        case .rateLimit, .retryLater:
            stats.rateLimited += 1
            response = SimResponse(status: 429, body: Array("Retry later\n".utf8))
            response.headers = [("Content-Type", "text/plain")]
            guard fault.kind == .rateLimit else { return }
            let wait = fault.retryAfter ?? 60
            response.headers += [
                ("Retry-After", String(wait)), ("RateLimit-Name", "throttle_authenticated_api"),
                ("RateLimit-Limit", "2000"), ("RateLimit-Observed", "2001"), ("RateLimit-Remaining", "0"),
                ("RateLimit-Reset", String(now / 1000 + wait)),
                ("RateLimit-ResetTime", HTTPDate.format(now / 1000 + wait)),
            ]
        }
    }
}
