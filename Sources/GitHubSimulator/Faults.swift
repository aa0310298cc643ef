import SimulatorKit

/// A fault armed with `POST /sim/faults`: the next `count` answers to `route` (a route name as in the stats, e.g.
/// `GET /issues`; empty for every API route), on page `page` only when given, go wrong this way.
public struct GitHubFault: Codable, Sendable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// The error status `status` (default 500) with GitHub's error body.
        case status
        /// An HTML page (a proxy's or GitHub's unicorn) with status `status` (default 200).
        case html
        /// A body shorter than its Content-Length, then the connection closes.
        case truncated
        /// No answer at all, the connection left open.
        case hang
        /// The connection is reset (RST) instead of answered.
        case reset
        /// The primary limit: 403, `x-ratelimit-remaining: 0`, `x-ratelimit-reset` `retryAfter` (60) seconds on.
        case rateLimit
        /// A secondary limit: `status` 403 (or 429), with `retry-after` only when `retryAfter` is given.
        case secondary
        /// 502 `{"message": "Server Error"}`: what GitHub answers when a page takes too long.
        case badGateway
        /// The issue whose id is `item`, wherever the answer holds it (a list, a search's `items`, the issue alone),
        /// with `field` set to `value`, raw JSON text: `1e30`, `9223372036854775808`, `"7"` — a hostile server's.
        case item
        /// A response header of `size` bytes (8 MB): more than any client reads.
        case hugeHeader
    }

    public var route: String
    public var kind: Kind
    public var count: Int
    public var status: Int?
    public var retryAfter: Int?
    /// Only requests for this page (`page` parameter; 1 when absent) are hit.
    public var page: Int?
    /// For `item`: the id, the member to set and its raw JSON text.
    public var item: Int?
    public var field: String?
    public var value: String?
    /// For `hugeHeader`: the header's bytes.
    public var size: Int?
}

extension GitHubState {
    /// Applies the first fault armed for `route` and the call's page (consuming one use) to the answer.
    mutating func applyFault(to response: inout SimResponse, route: String, call: Call, context: ReplyContext) {
        guard let index = faults.firstIndex(where: { fault in
            (fault.route.isEmpty || fault.route == route) && fault.count > 0 && (fault.page ?? call.page) == call.page
        }) else { return }
        faults[index].count -= 1
        let fault = faults[index]
        let headers = response.headers.filter { $0.0 != "ETag" && $0.0 != "Link" }
        switch fault.kind {
        case .status, .badGateway:
            let status = fault.kind == .badGateway ? 502 : fault.status ?? 500
            let message = status == 502 ? "Server Error" : "Injected fault: HTTP \(status)"
            response = errorResponse(GitHubError(status, message))
            response.headers += headers
        case .html:
            let page = "<!DOCTYPE html><html><head><title>Unicorn! · GitHub</title></head><body><p>No server is "
                + "currently available to service your request.</p></body></html>"
            response = SimResponse(status: fault.status ?? 200, body: Array(page.utf8))
            response.headers = [("Content-Type", "text/html; charset=utf-8")]
        case .truncated: response.delivery = .truncated
        case .hang: response.delivery = .never
        case .reset: response.delivery = .reset
        case .rateLimit, .secondary:
            stats.rateLimited += 1
            response = limited(fault, context: context, headers: headers)
        case .item:
            guard let id = fault.item, let field = fault.field, let raw = fault.value,
                let value = try? JSONValue.parse(Array(raw.utf8)), let body = try? JSONValue.parse(response.body)
            else { return }
            response.body = body.settingMember(field, to: value, ofItem: id, marker: "number").bytes
            response.headers.removeAll { $0.0 == "ETag" }  // another body: the clean one's tag would be a lie
        case .hugeHeader:
            response.headers.append(("X-Padding", String(repeating: "a", count: max(1, min(fault.size ?? 8 << 20, 64 << 20)))))
        }
    }

    private func limited(_ fault: GitHubFault, context: ReplyContext, headers: [(String, String)]) -> SimResponse {
        let user = context.token.map { Directory.accounts[$0.user].id } ?? 0
        let primary = fault.kind == .rateLimit
        let message = primary
            ? "API rate limit exceeded for user ID \(user). If you reach out to GitHub Support for help, please "
                + "include the request ID \(requestID)."
            : "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you "
                + "reach out to GitHub Support for help, please include the request ID \(requestID)."
        let documentation = primary
            ? "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
            : "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"
        let status = primary ? 403 : fault.status ?? 403
        var response = errorResponse(GitHubError(status, message, documentation: documentation))
        let replaced = ["x-ratelimit-remaining", "x-ratelimit-reset"]
        response.headers = headers.filter { !replaced.contains($0.0.lowercased()) }
        if primary {
            let reset = String(now + (fault.retryAfter ?? 60))
            response.headers += [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", reset)]
        } else {
            response.headers += headers.filter { $0.0 == "X-RateLimit-Remaining" || $0.0 == "X-RateLimit-Reset" }
            if let wait = fault.retryAfter { response.headers.append(("Retry-After", String(wait))) }
        }
        return response
    }
}
