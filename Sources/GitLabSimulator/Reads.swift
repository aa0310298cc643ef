import SimulatorKit

/// Dispatch, and the read routes.
extension GitLabState {
    mutating func answer(_ routed: Routed, _ call: Call, _ view: View) throws -> Answer {
        let p = routed.parameters
        let kind: ItemKind = routed.name.contains("/merge_requests/") ? .mergeRequest : .issue
        switch routed.name {
        case "GET /user": return Answer(view.currentUser())
        case "GET /issues": return try list(.issue, nil, call, view, routed)
        case "GET /merge_requests": return try list(.mergeRequest, nil, call, view, routed)
        case "GET /users":
            let named = call.query("username").map { Directory.user(named: $0).map { [$0] } ?? [] }
            return paged(named ?? Array(Directory.users.indices), call, view, routed) { view.user($0) }
        case "GET /projects/:id": return Answer(view.project(try project(p[0], view, items: false)))
        case "GET /projects/:id/milestones":
            let project = try project(p[0], view, items: false)
            let title = call.query("title")
            let iids = Directory.milestones.keys.sorted().filter { title == nil || Directory.milestones[$0] == title }
            return paged(iids.reversed(), call, view, routed) { view.milestone($0, project: project) }
        case "GET /projects/:id/issues": return try list(.issue, try project(p[0], view), call, view, routed)
        case "GET /projects/:id/merge_requests":
            return try list(.mergeRequest, try project(p[0], view), call, view, routed)
        case "GET /projects/:id/issues/:issue_iid", "GET /projects/:id/merge_requests/:merge_request_iid":
            return Answer(view.item(items[try slot(kind, p, view)]))
        default: break
        }
        if routed.name.hasPrefix("GET "), routed.name.hasSuffix("/notes") {
            return try notes(items[try slot(kind, p, view)], call, view, routed)
        }
        if routed.name.hasPrefix("GET "), Endpoint.isResourceEvents(routed.name) {
            let item = items[try slot(kind, p, view)]
            let wanted = routed.name.split(separator: "/").last.map(String.init) ?? ""
            let events = item.events.filter { Self.eventRoute($0.change) == wanted }
            return paged(events, call, view, routed) { view.event($0, of: item) }
        }
        switch routed.name {
        case "GET /projects/:id/merge_requests/:merge_request_iid/commits":
            let item = items[try slot(.mergeRequest, p, view)]
            return paged(item.commits.reversed(), call, view, routed) { view.commit($0, of: item) }
        case "GET /projects/:id/merge_requests/:merge_request_iid/approvals":
            return Answer(view.approvals(items[try slot(.mergeRequest, p, view)]))
        default:
            return try write(routed, call, view)
        }
    }

    static func eventRoute(_ change: ResourceEvent.Change) -> String {
        switch change {
        case .label: "resource_label_events"
        case .milestone: "resource_milestone_events"
        case .state: "resource_state_events"
        }
    }

    /// A page of `elements` rendered by `render`, with GitLab's paging headers.
    func paged<T>(_ elements: [T], _ call: Call, _ view: View, _ routed: Routed, render: (T) -> JSONValue)
        -> Answer
    {
        let window = Paging.window(count: elements.count, call, view, path: routed.path)
        var answer = Answer(.array(elements[window.range].map(render)))
        answer.headers = window.headers
        return answer
    }

    /// `GET …/notes`: `sort` asc|desc (desc), `order_by` created_at|updated_at (created_at).
    private func notes(_ item: Item, _ call: Call, _ view: View, _ routed: Routed) throws -> Answer {
        let ascending = try choice(call, "sort", ["desc", "asc"]) == "asc"
        let byUpdate = try choice(call, "order_by", ["created_at", "updated_at"]) == "updated_at"
        let notes = item.notes.sorted { a, b in
            let (x, y) = byUpdate ? (a.updated, b.updated) : (a.created, b.created)
            if x != y { return ascending ? x < y : x > y }
            return ascending ? a.id < b.id : a.id > b.id
        }
        return paged(notes, call, view, routed) { view.note($0, of: item) }
    }

    /// The query parameter `name`, one of `allowed` (the first when absent), else 400.
    func choice(_ call: Call, _ name: String, _ allowed: [String]) throws -> String {
        guard let value = call.query(name) else { return allowed[0] }
        guard allowed.contains(value) else { throw GitLabError.invalid(name) }
        return value
    }
}
