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
        /// The changelog history or comment whose id is `item`, wherever the answer holds it (a search's issues, the
        /// bulk changelog, a page of an issue's changelog or comments), with `field` set to `value`, raw JSON text
        /// (`{}`, `1e30`): a hostile server's. `entry` (`history` or `comment`) picks one where both have that id.
        case item
    }

    public var route: String
    public var kind: Kind
    public var count: Int
    public var status: Int?
    /// Seconds in `Retry-After` (default 5).
    public var retryAfter: Int?
    /// For `item`: the entry's id, which kind of entry, the member to set and its raw JSON text.
    public var item: Int?
    public var entry: String?
    public var field: String?
    public var value: String?
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
        case .item:
            guard let id = fault.item, let field = fault.field, let raw = fault.value,
                let value = try? JSONValue.parse(Array(raw.utf8)), let body = try? JSONValue.parse(response.body)
            else { return }
            // A history is the object with `items`, a comment the one with `body`.
            let markers = fault.entry == "history" ? ["items"] : fault.entry == "comment" ? ["body"] : ["items", "body"]
            response.body = body.settingMember(field, to: value, ofEntry: String(id), markers: markers).bytes
        }
    }
}

extension JSONValue {
    /// A copy in which every object with the id `id` and one of the members `markers` has `field` set to `value`.
    fileprivate func settingMember(_ field: String, to value: JSONValue, ofEntry id: String, markers: [String])
        -> JSONValue
    {
        switch self {
        case .array(let values):
            return .array(values.map { $0.settingMember(field, to: value, ofEntry: id, markers: markers) })
        case .object(var object):
            if object["id"]?.string == id, markers.contains(where: { object[$0] != nil }) {
                object[field] = value
                return .object(object)
            }
            for index in object.members.indices {
                object.members[index].value = object.members[index].value.settingMember(
                    field, to: value, ofEntry: id, markers: markers)
            }
            return .object(object)
        default:
            return self
        }
    }
}
