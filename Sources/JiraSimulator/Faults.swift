import SimulatorKit

/// A fault armed with `POST /sim/faults`: the next `count` answers to `route` (a route name as in the stats, e.g.
/// `GET /search/jql`; empty for every API route) go wrong this way.
public struct JiraFault: Codable, Sendable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// The error status `status` (default 500) with Jira's error body.
        case status
        /// A proxy's login page: HTML with status 200.
        case html
        /// A body shorter than its Content-Length, then the connection closes.
        case truncated
        /// No answer at all, the connection left open.
        case hang
        /// The connection is reset (RST) instead of answered.
        case reset
        /// 429 with `Retry-After`, `X-RateLimit-Reset` (ISO 8601) and `RateLimit-Reason: jira-burst-based`.
        case rateLimit
        /// 503 with `Retry-After`.
        case unavailable
    }

    public var route: String
    public var kind: Kind
    public var count: Int
    public var status: Int?
    /// Seconds in `Retry-After` (default 5).
    public var retryAfter: Int?
}

extension JiraState {
    /// Applies the first fault armed for `route` (consuming one use) to the answer the API produced.
    mutating func applyFault(to response: inout SimResponse, route: String) {
        guard let index = faults.firstIndex(where: { ($0.route.isEmpty || $0.route == route) && $0.count > 0 }) else {
            return
        }
        faults[index].count -= 1
        let fault = faults[index]
        let wait = fault.retryAfter ?? 5
        switch fault.kind {
        case .status:
            let status = fault.status ?? 500
            response = errorResponse(JiraError(status, "Injected fault: HTTP \(status)."))
        case .html:
            let page = "<!DOCTYPE html><html><head><title>Log in</title></head><body><form action=\"/login\">"
                + "<input name=\"username\"><input type=\"password\" name=\"password\"></form></body></html>"
            response = SimResponse(status: 200, body: Array(page.utf8))
            response.headers.append(("Content-Type", "text/html;charset=UTF-8"))
        case .truncated:
            response.delivery = .truncated
        case .hang:
            response.delivery = .never
        case .reset:
            response.delivery = .reset
        case .rateLimit:
            stats.rateLimited += 1
            response = errorResponse(JiraError(429, "Rate limit exceeded."))
            response.headers += [
                ("Retry-After", String(wait)), ("X-RateLimit-Reset", HTTPDate.iso8601(now + wait)),
                ("X-RateLimit-Limit", "100"), ("X-RateLimit-Remaining", "0"), ("RateLimit-Reason", "jira-burst-based"),
            ]
        case .unavailable:
            response = errorResponse(JiraError(503, "Service Unavailable"))
            response.headers.append(("Retry-After", String(wait)))
        }
    }
}
