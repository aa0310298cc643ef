#if canImport(Glibc)
    import Glibc
#endif
import Synchronization
import SimulatorKit

/// forgejo-sim's request handling, independent of the HTTP plumbing: the routes of Forgejo's (or Gitea's) REST API
/// that trackwatch reads, under `/api/v1`, and control routes under `/sim/` (docs/forgejo-sim.md).
public final class ForgejoSimulator: SimHandler {
    let state: Mutex<ForgejoState>

    public init(options: ForgejoSimulatorOptions) {
        state = Mutex(ForgejoState(options: options))
    }

    public func handle(_ request: SimRequest) -> SimResponse {
        state.withLock { state in
            var request = request
            if !state.subPath.isEmpty, !request.path.hasPrefix("/sim/") {
                // Under a sub-path only: the URLs the server writes carry it, as Forgejo's `ROOT_URL` makes them.
                guard request.path.hasPrefix(state.subPath + "/") else { return ForgejoState.routerNotFound() }
                request.path.removeFirst(state.subPath.count)
                request.headers["host"] = ForgejoState.host(request) + state.subPath
            }
            var response = request.path.hasPrefix("/sim/") ? state.control(request) : state.api(request)
            response.headers.append(("Date", HTTPDate.format(Int(time(nil)))))
            return response
        }
    }
}

extension ForgejoState {
    static let forgejoVersion = "11.0.3+gitea-1.22.0", giteaVersion = "1.22.6"

    /// Counts the route, authenticates, answers, then applies an armed fault.
    mutating func api(_ request: SimRequest) -> SimResponse {
        let segments = request.path.split(separator: "/").map(String.init)
        let name = Self.routeName(segments, method: request.method)
        requests[name, default: 0] += 1
        var response: SimResponse
        if name == "version" {
            response = json([
                "version": .string(switches.version ?? (switches.gitea ? Self.giteaVersion : Self.forgejoVersion))
            ])
        } else if name == "forgejo-version", !switches.gitea {
            response = json(["version": .string(Self.forgejoVersion)])
        } else if name == "unknown" || name == "forgejo-version" || (name == "timeline" && switches.noTimeline) {
            response = Self.routerNotFound()
        } else if let me = User.by(token: request.authorization) {
            // A scoped token: the scope each route needs, named in the refusal as Forgejo names it.
            let needed = name == "user" ? "read:user" : name == "reviews" ? "read:repository" : "read:issue"
            if let scopes = User.scopes(token: request.authorization), !scopes.contains(needed) {
                response = Self.error(403, "token does not have at least one of required scope(s): [\(needed)]")
            } else {
                response = redirect(segments, request) ?? answer(name, segments, request, me: me)
            }
        } else {
            response = Self.error(401, request.authorization == nil ? "token is required" : "user does not exist")
        }
        applyFault(name, &response)
        return response
    }

    /// A renamed or transferred repository's old name: 307 to the same path under the new one, query kept, as a path
    /// (`RedirectToRepo`).
    func redirect(_ segments: [String], _ request: SimRequest) -> SimResponse? {
        guard segments.count >= 5, segments[2] == "repos", let new = redirects["\(segments[3])/\(segments[4])"] else {
            return nil
        }
        let query = request.queryPairs.map { "\($0.name)=\(Self.encoded($0.value))" }.joined(separator: "&")
        let path = (["api", "v1", "repos", new] + segments.dropFirst(5)).joined(separator: "/")
        var response = SimResponse(status: 307, body: [])
        response.headers = [("Location", subPath + "/" + path + (query.isEmpty ? "" : "?" + query))]
        return response
    }

    /// The route's name in stats and faults: `user`, `search`, `issue`, `timeline`, `comments`, `reviews`, `version`.
    static func routeName(_ segments: [String], method: String) -> String {
        guard method == "GET" else { return "unknown" }
        switch segments {
        case ["api", "v1", "version"]: return "version"
        case ["api", "forgejo", "v1", "version"]: return "forgejo-version"
        case ["api", "v1", "user"]: return "user"
        case ["api", "v1", "repos", "issues", "search"]: return "search"
        default: break
        }
        guard segments.count >= 7, segments.starts(with: ["api", "v1", "repos"]), Int(segments[6]) != nil else {
            return "unknown"
        }
        switch (segments[5], segments.count, segments.last) {
        case ("issues", 7, _): return "issue"
        case ("issues", 8, "timeline"?): return "timeline"
        case ("issues", 8, "comments"?): return "comments"
        case ("pulls", 8, "reviews"?): return "reviews"
        default: return "unknown"
        }
    }

    mutating func answer(_ name: String, _ segments: [String], _ request: SimRequest, me: User) -> SimResponse {
        if name == "user" { return json(Render.user(me)) }
        if name == "search" { return search(request, me: me) }
        let repo = "\(segments[3])/\(segments[4])"
        guard !hidden.contains(repo), let index = find(repo, Int(segments[6]) ?? 0) else {
            return Self.error(404, "The target couldn't be found.")
        }
        let item = items[index]
        switch name {
        case "issue": return json(Render.item(item, host: Self.host(request)))
        case "timeline":
            let since = request.query["since"].flatMap(HTTPDate.parseISO) ?? 0
            let entries = item.timeline.filter { $0.at >= since }
            return paged(entries.map(Render.entry), request, defaultLimit: 30)
        case "comments":
            let since = request.query["since"].flatMap(HTTPDate.parseISO) ?? 0
            let comments = item.timeline.filter { $0.type == "comment" && $0.at >= since }
            return paged(comments.map(Render.comment), request, defaultLimit: 30)
        default:
            guard item.isPull else { return Self.error(404, "The target couldn't be found.") }
            return paged(item.reviews.map(Render.review), request, defaultLimit: 30)
        }
    }

    /// `/repos/issues/search`: my items by `assigned`, `created`, `review_requested`, `type`, `state`, `since`;
    /// newest created first; `limit` cut to `MAX_RESPONSE_ITEMS`.
    func search(_ request: SimRequest, me: User) -> SimResponse {
        let query = request.query
        let state = query["state"] ?? "open"
        let since = query["since"].flatMap(HTTPDate.parseISO)
        // As Go's strconv.ParseBool reads a form value (clients send `True`, `1`).
        func on(_ name: String) -> Bool { ["1", "t", "T", "true", "TRUE", "True"].contains(query[name] ?? "") }
        let found = items.filter { item in
            (!on("assigned") || item.assignees.contains(me.id)) && (!on("created") || item.author == me.id)
                && (!on("review_requested") || switches.ignoreReviewRequested || item.reviewers.contains(me.id))
                && !hidden.contains(item.repo)
                && (query["type"] != "issues" || !item.isPull) && (query["type"] != "pulls" || item.isPull)
                && (state == "all" || item.state == state) && (since.map { item.updated >= $0 } ?? true)
        }.sorted { ($0.created, $0.id) > ($1.created, $1.id) }
        let host = Self.host(request)
        return paged(
            found.map { Render.item($0, host: host) }, request, defaultLimit: 20,
            linkLimit: switches.legacyLink ? 20 : nil)
    }

    /// One page of `values` (`page`, `limit`: 0 or none is `defaultLimit`, more than the maximum is cut to it,
    /// silently), with `X-Total-Count` and a `Link` computed with the limit used (or `linkLimit`).
    func paged(_ values: [JSONValue], _ request: SimRequest, defaultLimit: Int, linkLimit: Int? = nil) -> SimResponse {
        let asked = request.query["limit"].flatMap { Int($0) } ?? 0
        let limit = asked <= 0 ? defaultLimit : min(asked, switches.maxResponseItems)
        let page = max(1, request.query["page"].flatMap { Int($0) } ?? 1)
        let start = min(values.count, (page - 1) * limit)
        var response = json(.array(Array(values[start..<min(values.count, start + limit)])))
        response.headers.append(("X-Total-Count", String(values.count)))
        let last = max(1, (values.count + (linkLimit ?? limit) - 1) / (linkLimit ?? limit))
        var links: [String] = []
        func link(_ number: Int, _ rel: String) {
            let others = request.queryPairs.filter { $0.name != "page" }.map { "\($0.name)=\(Self.encoded($0.value))" }
            let query = (others + ["page=\(number)"]).joined(separator: "&")
            links.append("<http://\(Self.host(request))\(request.path)?\(query)>; rel=\"\(rel)\"")
        }
        if page < last {
            link(page + 1, "next")
            link(last, "last")
        }
        if page > 1 {
            link(1, "first")
            link(page - 1, "prev")
        }
        if !links.isEmpty { response.headers.append(("Link", links.joined(separator: ","))) }
        return response
    }

    mutating func applyFault(_ name: String, _ response: inout SimResponse) {
        guard let index = faults.firstIndex(where: { $0.route == name || $0.route == "*" }) else { return }
        let fault = faults[index]
        faults[index].count -= 1
        if faults[index].count <= 0 { faults.remove(at: index) }
        switch fault.kind {
        case "html503", "html429":
            response = SimResponse(
                status: fault.kind == "html503" ? 503 : 429,
                body: Array("<html><body><h1>Service Unavailable</h1></body></html>\n".utf8))
            response.headers = [("Content-Type", "text/html")]
            if let wait = fault.retryAfter { response.headers.append(("Retry-After", String(wait))) }
        case "html":
            response = SimResponse(status: 200, body: Array("<!DOCTYPE html><html><body>Sign in</body></html>\n".utf8))
            response.headers = [("Content-Type", "text/html; charset=utf-8")]
        case "truncated": response.delivery = .truncated
        case "hang": response.delivery = .never
        case "item":
            // The item whose id is `item`, wherever the answer holds it, with `field` set to `value` (raw JSON).
            guard let id = fault.item, let field = fault.field, let raw = fault.value,
                let value = try? JSONValue.parse(Array(raw.utf8)), let body = try? JSONValue.parse(response.body)
            else { return }
            response.body = body.settingMember(field, to: value, ofItem: id, marker: "number").bytes
        default: response = Self.error(500, "internal server error")
        }
    }

    func json(_ value: JSONValue, status: Int = 200) -> SimResponse {
        var response = SimResponse(status: status, body: value.bytes)
        response.headers = [("Content-Type", "application/json;charset=utf-8")]
        return response
    }

    static func error(_ status: Int, _ message: String) -> SimResponse {
        let body: JSONValue = ["message": .string(message), "url": "/api/swagger"]
        var response = SimResponse(status: status, body: body.bytes)
        response.headers = [("Content-Type", "application/json;charset=utf-8")]
        return response
    }

    /// The router's answer to a route it does not know: plain text, not the API's JSON.
    static func routerNotFound() -> SimResponse {
        var response = SimResponse(status: 404, body: Array("404 page not found\n".utf8))
        response.headers = [("Content-Type", "text/plain; charset=utf-8")]
        return response
    }

    static func host(_ request: SimRequest) -> String { request.headers["host"] ?? "127.0.0.1" }

    static func encoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let safe =
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte)
            out += safe ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true).leftPadded
        }
        return out
    }
}

extension String {
    fileprivate var leftPadded: String { count < 2 ? "0" + self : self }
}

extension HTTPDate {
    /// RFC 3339 as clients send it (`2026-01-17T12:34:56Z`, or with an offset).
    static func parseISO(_ text: String) -> Int? {
        guard text.count >= 19 else { return nil }
        let base = String(text.prefix(19))
        guard let seconds = HTTPDate.parseZoneless(base.replacingT) else { return nil }
        let zone = text.dropFirst(19).drop { $0 == "." || $0.isNumber }
        guard zone.count == 6, let sign = zone.first, sign == "+" || sign == "-",
            let hours = Int(zone.dropFirst().prefix(2)), let minutes = Int(zone.suffix(2))
        else { return seconds }
        let offset = (hours * 3_600 + minutes * 60) * (sign == "+" ? 1 : -1)
        return seconds - offset
    }
}

extension String {
    fileprivate var replacingT: String { String(map { $0 == "T" ? " " : $0 }) }
}
