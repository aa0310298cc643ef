import SimulatorKit

/// The write routes a colleague uses, as the token's user; each records system notes or resource events by that
/// user, now, and bumps `updated_at` (see the lazy-updated-at switch).
extension GitLabState {
    mutating func write(_ routed: Routed, _ call: Call, _ view: View) throws -> Answer {
        let p = routed.parameters, params = try Params(call), me = view.me
        switch routed.name {
        case "POST /projects/:id/issues":
            return try createIssue(try project(p[0], view, write: true), params, view)
        case "PUT /projects/:id/issues/:issue_iid":
            let slot = try slot(.issue, p, view, write: true)
            try update(slot, params, by: me)
            return Answer(view.item(items[slot]))
        case "PUT /projects/:id/merge_requests/:merge_request_iid":
            let slot = try slot(.mergeRequest, p, view, write: true)
            try update(slot, params, by: me)
            return Answer(view.item(items[slot]))
        case "POST /projects/:id/issues/:issue_iid/notes", "POST /projects/:id/merge_requests/:merge_request_iid/notes":
            let kind: ItemKind = routed.name.contains("/issues/") ? .issue : .mergeRequest
            let slot = try slot(kind, p, view, write: true)
            guard let body = params.string("body"), !body.trimmed.isEmpty else { throw GitLabError.missing("body") }
            let note = addNote(body, on: slot, by: me, system: false)
            noteMentions(body, from: slot, by: me)
            return Answer(view.note(note, of: items[slot]), status: 201)
        case "POST /projects/:id/merge_requests/:merge_request_iid/approve":
            return try approve(try slot(.mergeRequest, p, view, write: true), view)
        case "POST /projects/:id/merge_requests/:merge_request_iid/unapprove":
            return try unapprove(try slot(.mergeRequest, p, view, write: true), view)
        case "PUT /projects/:id/merge_requests/:merge_request_iid/merge":
            return try merge(try slot(.mergeRequest, p, view, write: true), params, view)
        case "POST /projects/:id/issues/:issue_iid/move":
            return try move(try slot(.issue, p, view, write: true), params, view)
        default:
            throw GitLabError.noRoute
        }
    }

    /// `PUT` an issue or merge request: title, description, assignees, reviewers, labels, milestone, state.
    mutating func update(_ slot: Int, _ params: Params, by user: Int) throws {
        let known = ["title", "description", "assignee_ids", "assignee_id", "reviewer_ids", "labels", "add_labels",
            "remove_labels", "milestone_id", "state_event"]
        guard known.contains(where: params.has) else {
            throw GitLabError(status: 400, error: known.joined(separator: ", ")
                + " are missing, at least one parameter must be provided")
        }
        if let event = params.string("state_event"), !["close", "reopen"].contains(event) {
            throw GitLabError.invalid("state_event")
        }
        let milestone = try milestone(params, project: projects[items[slot].project].id)
        if let title = params.string("title") {
            guard !title.trimmed.isEmpty else { throw GitLabError(400, #"{:title=>["can't be blank"]}"#) }
            setTitle(slot, title, by: user)
        }
        if let text = params.string("description"), text != items[slot].description {
            setDescription(slot, text, by: user)
            noteMentions(text, from: slot, by: user)
        }
        if let wanted = assignees(params) { setAssignees(slot, wanted, by: user) }
        if items[slot].kind == .mergeRequest, !switches.noReviewers, let ids = params.ints("reviewer_ids") {
            setReviewers(slot, Self.users(ids), by: user)
        }
        if let labels = labels(params, current: items[slot].labels) { setLabels(slot, labels, by: user) }
        if let milestone { setMilestone(slot, milestone, by: user) }
        if let event = params.string("state_event") { changeState(slot, event, by: user) }
    }

    /// Known users of `ids`, in order, without repeats (0 and unknown ids dropped: "0 unassigns all").
    static func users(_ ids: [Int]) -> [Int] {
        var out: [Int] = []
        for id in ids { if let user = Directory.user(id: id), !out.contains(user) { out.append(user) } }
        return out
    }

    private func assignees(_ params: Params) -> [Int]? {
        if let ids = params.ints("assignee_ids") { return Self.users(ids) }
        if let id = params.int("assignee_id") { return Self.users(id.map { [$0] } ?? []) }
        return nil
    }

    /// `labels` replaces; `add_labels` and `remove_labels` change.
    private func labels(_ params: Params, current: [String]) -> [String]? {
        guard params.has("labels") || params.has("add_labels") || params.has("remove_labels") else { return nil }
        var labels = params.strings("labels") ?? current
        for name in params.strings("add_labels") ?? [] where !labels.contains(name) { labels.append(name) }
        let removed = params.strings("remove_labels") ?? []
        return labels.filter { !removed.contains($0) }
    }

    /// `.some(nil)` to remove (`0`, null, empty), the milestone's iid, nil when absent; 404 for another id.
    private func milestone(_ params: Params, project: Int) throws -> Int?? {
        guard let value = params.int("milestone_id") else { return nil }
        guard let id = value, id != 0 else { return .some(nil) }
        let iid = Directory.milestones.keys.first { Directory.milestoneID(project: project, iid: $0) == id }
        guard let iid else {
            throw GitLabError.notFound("Milestone")
        }
        return .some(iid)
    }

    private mutating func createIssue(_ project: Int, _ params: Params, _ view: View) throws -> Answer {
        guard let title = params.string("title"), !title.trimmed.isEmpty else { throw GitLabError.missing("title") }
        let time = now, iid = projects[project].nextIssueIID
        projects[project].nextIssueIID += 1
        insert(Item(kind: .issue, id: nextIssueID, project: project, iid: iid, title: title,
            description: params.string("description") ?? "", author: view.me, assignees: [], labels: [],
            created: time, updated: time, lastChange: time - 60_000))
        nextIssueID += 1
        let slot = items.count - 1
        noteMentions(items[slot].description, from: slot, by: view.me)
        var rest = params
        (rest.values["title"], rest.values["description"]) = (nil, nil)
        let more = ["assignee_ids", "assignee_id", "labels", "milestone_id"]
        if rest.values.keys.contains(where: more.contains) {
            try update(slot, rest, by: view.me)
        }
        return Answer(view.item(items[slot]), status: 201)
    }
}
