import SimulatorKit

/// A fault armed with `POST /sim/faults`: the next `count` answers to `route` (a route name as in the stats, e.g.
/// `POST wiql`; empty for every API route) go wrong this way.
public struct AzureDevOpsFault: Codable, Sendable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// The error status `status` (default 500) in Azure DevOps' error envelope.
        case status
        /// An HTML page with status `status` (default 200): a proxy's or a gateway's page.
        case html
        /// A body shorter than its Content-Length, then the connection closes.
        case truncated
        /// No answer at all, the connection left open.
        case hang
        /// The connection is reset (RST) instead of answered.
        case reset
        /// The throttle: 429 `TF400733`, `Retry-After` `retryAfter` (default 30) seconds and `X-RateLimit-*`.
        case throttle
        /// The work item whose id is `item`, wherever the answer holds it (a batch's `value`, the item alone; not its
        /// updates), with `field` set to `value`, raw JSON text: `1e30`, `"7"` — a hostile server's. Armed for
        /// `GET threads`, the pull request thread whose id is `item` instead.
        case item
    }

    public var route: String
    public var kind: Kind
    public var count: Int
    public var status: Int?
    public var retryAfter: Int?
    /// For `item`: the work item's id, the member to set and its raw JSON text.
    public var item: Int?
    public var field: String?
    public var value: String?
}

extension AzureDevOpsState {
    /// Applies the first fault armed for `route` (consuming one use) to the answer.
    mutating func applyFault(to response: inout SimResponse, route: String) {
        guard let index = faults.firstIndex(where: { ($0.route.isEmpty || $0.route == route) && $0.count > 0 }) else {
            return
        }
        faults[index].count -= 1
        let fault = faults[index]
        switch fault.kind {
        case .status:
            let status = fault.status ?? 500
            let error = AzureDevOpsError(status, "VS402910: The service is unavailable (injected \(status)).",
                "VssServiceUnavailableException")
            response = SimResponse(status: status, body: error.body.bytes)
            response.headers = [("Content-Type", "application/json; charset=utf-8")]
        case .html:
            let page = "<!DOCTYPE html>\n<html><head><title>Service Unavailable</title></head>\n<body><h1>The "
                + "gateway could not reach Azure DevOps.</h1></body></html>\n"
            response = SimResponse(status: fault.status ?? 200, body: Array(page.utf8))
            response.headers = [("Content-Type", "text/html; charset=utf-8")]
        case .truncated: response.delivery = .truncated
        case .hang: response.delivery = .never
        case .reset: response.delivery = .reset
        case .throttle:
            stats.throttled += 1
            let wait = fault.retryAfter ?? 30
            let error = AzureDevOpsError(429, "TF400733: The request has been canceled: Request was blocked due to "
                + "exceeding usage of resource 'Core' in namespace 'User'.", "RequestBlockedException")
            response = SimResponse(status: 429, body: error.body.bytes)
            response.headers = [("Content-Type", "application/json; charset=utf-8")]
                + rateLimitHeaders(delay: Double(wait)).filter { $0.0 != "Retry-After" } + [("Retry-After", String(wait))]
        case .item:
            // A revision has `id` and `fields` too: only work items are hit.
            guard route != "GET updates", let id = fault.item, let field = fault.field, let raw = fault.value,
                let value = try? JSONValue.parse(Array(raw.utf8)), let body = try? JSONValue.parse(response.body)
            else { return }
            // A work item is the object with `fields`, a thread the one with `comments`; a list holds them under
            // `value`.
            let marker = fault.route == "GET threads" ? "comments" : "fields"
            func set(_ json: JSONValue) -> JSONValue { json.settingMember(field, to: value, ofItem: id, marker: marker) }
            response.body = (body["value"].map { body.with("value", set($0)) } ?? set(body)).bytes
        }
    }
}
