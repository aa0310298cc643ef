import SimulatorKit

/// The JSON shapes Forgejo answers with (the swagger's `User`, `Issue`, `TimelineComment`, `PullReview`).
enum Render {
    static func user(_ user: User) -> JSONValue {
        ["id": .int(user.id), "login": .string(user.login), "full_name": .string(user.fullName), "email": ""]
    }

    static func user(id: Int?) -> JSONValue {
        guard let id else { return .null }
        // The Ghost user for an account that is no longer there.
        return user(User.all.first { $0.id == id } ?? User(id: -1, login: "Ghost", fullName: ""))
    }

    static func item(_ item: Item, host: String) -> JSONValue {
        let parts = item.repo.split(separator: "/").map(String.init)
        let web = "http://\(host)/\(item.repo)/\(item.isPull ? "pulls" : "issues")/\(item.index)"
        let merged = item.merged ? JSONValue.string(HTTPDate.iso8601(item.updated)) : .null
        let pull: JSONValue =
            item.isPull
            ? ["merged": .bool(item.merged), "merged_at": merged, "draft": false, "html_url": .string(web)] : .null
        let labels: [JSONValue] = item.labels.enumerated().map {
            ["id": .int($0.offset + 1), "name": .string($0.element)]
        }
        let assignees: JSONValue = item.assignees.isEmpty ? .null : .array(item.assignees.map { user(id: $0) })
        return [
            "id": .int(item.id), "url": .string("http://\(host)/api/v1/repos/\(item.repo)/issues/\(item.index)"),
            "html_url": .string(web), "number": .int(item.index), "user": user(id: item.author),
            "title": .string(item.title), "body": "",
            "labels": .array(labels),
            "milestone": named("title", item.milestone),
            "assignees": assignees,
            "state": .string(item.state), "comments": .int(item.timeline.filter { $0.type == "comment" }.count),
            "created_at": .string(HTTPDate.iso8601(item.created)),
            "updated_at": .string(HTTPDate.iso8601(item.updated)),
            "pull_request": pull,
            "repository": [
                "id": .int(item.repoID), "name": .string(parts[1]), "owner": .string(parts[0]),
                "full_name": .string(item.repo),
            ],
        ]
    }

    static func entry(_ entry: Entry) -> JSONValue {
        let at = JSONValue.string(HTTPDate.iso8601(entry.at))
        return [
            "id": .int(entry.id), "type": .string(entry.type), "body": .string(entry.body),
            "user": user(id: entry.user),
            "created_at": at, "updated_at": at, "assignee": user(id: entry.assignee),
            "removed_assignee": .bool(entry.removed),
            "label": named("name", entry.label), "milestone": named("title", entry.milestone),
            "old_milestone": named("title", entry.oldMilestone),
            "old_title": .string(entry.oldTitle ?? ""), "new_title": .string(entry.newTitle ?? ""),
            "review_id": .int(entry.reviewID ?? 0),
        ]
    }

    /// A real comment as `/comments` answers it (`Comment`: no `type`).
    static func comment(_ entry: Entry) -> JSONValue {
        let at = JSONValue.string(HTTPDate.iso8601(entry.at))
        return [
            "id": .int(entry.id), "body": .string(entry.body), "user": user(id: entry.user), "created_at": at,
            "updated_at": at,
        ]
    }

    /// `{"id": 1, key: value}` (a label, a milestone), or null.
    static func named(_ key: String, _ value: String?) -> JSONValue {
        guard let value else { return .null }
        return .object([(key: "id", value: .int(1)), (key: key, value: .string(value))])
    }

    static func review(_ review: Review) -> JSONValue {
        [
            "id": .int(review.id), "user": user(id: review.user), "state": .string(review.state),
            "body": .string(review.body), "submitted_at": .string(HTTPDate.iso8601(review.at)), "stale": false,
            "official": false, "dismissed": false,
        ]
    }
}

/// `/sim/`: acting as a colleague, switches, faults, stats.
extension ForgejoState {
    mutating func control(_ request: SimRequest) -> SimResponse {
        let body = (try? JSONValue.parse(request.body)) ?? [:]
        switch (request.method, request.path) {
        case ("POST", "/sim/act"):
            do { return json(try act(body)) } catch { return Self.error(400, "\(error)") }
        case ("POST", "/sim/seed"):
            seedAssigned(body["count"]?.int ?? 0, repo: body["repo"]?.string ?? "acme/web")
            return json(["items": .int(items.count)])
        case ("POST", "/sim/switches"):
            if case .bool(let on)? = body["gitea"] { switches.gitea = on }
            if case .bool(let on)? = body["noTimeline"] { switches.noTimeline = on }
            if let most = body["maxResponseItems"]?.int, most > 0 { switches.maxResponseItems = most }
            if let version = body["version"]?.string { switches.version = version }
            if case .bool(let on)? = body["ignoreReviewRequested"] { switches.ignoreReviewRequested = on }
            if case .bool(let on)? = body["legacyLink"] { switches.legacyLink = on }
            return json(["gitea": .bool(switches.gitea), "noTimeline": .bool(switches.noTimeline)])
        case ("POST", "/sim/repos"):
            return repos(body) ? json(["items": .int(items.count)]) : Self.error(400, "rename/to, delete or revoke")
        case ("POST", "/sim/faults"):
            faults.append(
                Fault(
                    route: body["route"]?.string ?? "*", kind: body["kind"]?.string ?? "500",
                    count: body["count"]?.int ?? 1, retryAfter: body["retryAfter"]?.int, item: body["item"]?.int,
                    field: body["field"]?.string, value: body["value"]?.string))
            return json(["faults": .int(faults.count)])
        case ("DELETE", "/sim/faults"):
            faults = []
            return json([:])
        case ("GET", "/sim/stats"):
            let routes = requests.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.int($0.value)) }
            return json(["requests": .int(requests.values.reduce(0, +)), "requestsByRoute": .object(routes)])
        case ("DELETE", "/sim/stats"):
            requests = [:]
            return json([:])
        default: return Self.error(404, "no such control route")
        }
    }
}
