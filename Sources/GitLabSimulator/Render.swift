import SimulatorKit

/// Renders the server's model as GitLab's JSON for one caller and origin.
struct View {
    let projects: [Project]
    /// The web root: scheme, the request's host and port.
    let web: String
    let me: Int
    let switches: GitLabSwitches

    init(state: GitLabState, call: Call, user: Int) {
        projects = state.projects
        web = (state.options.https ? "https://" : "http://") + (call.request.headers["host"] ?? "127.0.0.1")
        me = user
        switches = state.switches
    }

    var api: String { web + "/api/v4" }

    /// GitLab's timestamps: `2026-01-17T12:34:56.789Z`.
    static func timestamp(_ milliseconds: Int) -> String {
        let seconds = HTTPDate.iso8601(milliseconds / 1000).dropLast()
        let fraction = String(milliseconds % 1000)
        return seconds + "." + String(repeating: "0", count: 3 - fraction.count) + fraction + "Z"
    }

    func time(_ milliseconds: Int?) -> JSONValue { .text(milliseconds.map(Self.timestamp)) }

    /// The basic user: `{id, username, name, state, locked, avatar_url, web_url}`.
    func user(_ index: Int) -> JSONValue {
        let user = Directory.users[index]
        return [
            "id": .int(user.id), "username": .string(user.username), "name": .string(user.name), "state": "active",
            "locked": false, "avatar_url": .string("\(web)/uploads/-/system/user/avatar/\(user.id)/avatar.png"),
            "web_url": .string("\(web)/\(user.username)"),
        ]
    }

    func user(_ index: Int?) -> JSONValue { index.map { user($0) } ?? .null }

    /// `GET /user`: the basic user plus `bot`, `email` and a few profile members.
    func currentUser() -> JSONValue {
        let account = Directory.users[me]
        var value = user(me)
        value["bot"] = .bool(account.bot)
        value["created_at"] = "2020-01-01T00:00:00.000Z"
        value["public_email"] = .null
        value["email"] = .string(account.email)
        value["is_admin"] = false
        return value
    }

    func project(_ index: Int) -> JSONValue {
        let project = projects[index]
        let namespace: JSONValue = [
            "id": .int(Directory.group.id), "name": .string(Directory.group.name),
            "path": .string(Directory.group.path), "kind": "group", "full_path": .string(Directory.group.path),
            "parent_id": .null, "web_url": .string("\(web)/groups/\(Directory.group.path)"),
        ]
        return [
            "id": .int(project.id), "description": .string("The \(project.path) project."),
            "name": .string(project.path), "name_with_namespace": .string("\(Directory.group.name) / \(project.path)"),
            "path": .string(project.path), "path_with_namespace": .string(project.fullPath),
            "created_at": "2024-01-01T00:00:00.000Z", "default_branch": "main",
            "web_url": .string("\(web)/\(project.fullPath)"), "visibility": .string(project.visibility),
            "namespace": namespace, "archived": false, "issues_enabled": true, "merge_requests_enabled": true,
        ]
    }

    func milestone(_ iid: Int?, project: Int) -> JSONValue {
        guard let iid, let title = Directory.milestones[iid] else { return .null }
        let id = projects[project].id
        return [
            "id": .int(Directory.milestoneID(project: id, iid: iid)), "iid": .int(iid), "project_id": .int(id),
            "title": .string(title), "description": "", "state": "active", "created_at": "2024-01-01T00:00:00.000Z",
            "updated_at": "2024-01-01T00:00:00.000Z", "due_date": .null, "start_date": .null,
            "web_url": .string("\(web)/\(projects[project].fullPath)/-/milestones/\(iid)"),
        ]
    }

    func webURL(_ item: Item) -> String {
        "\(web)/\(projects[item.project].fullPath)/-/\(item.kind == .issue ? "issues" : "merge_requests")/\(item.iid)"
    }

    /// GitLab's issue object, or its merge request object.
    func item(_ item: Item) -> JSONValue {
        let project = projects[item.project], ref = item.kind.sigil + String(item.iid)
        var value: JSONValue = [
            "id": .int(item.id), "iid": .int(item.iid), "project_id": .int(project.id), "title": .string(item.title),
            "description": .string(item.description), "state": .string(item.state),
            "created_at": time(item.created), "updated_at": time(item.updated), "closed_at": time(item.closed),
            "closed_by": user(item.closedBy), "labels": .array(item.labels.map { .string($0) }),
            "milestone": milestone(item.milestone, project: item.project), "author": user(item.author),
            "assignees": .array(item.assignees.map { user($0) }), "assignee": user(item.assignees.first),
            "user_notes_count": .int(item.userNotesCount), "upvotes": 0, "downvotes": 0,
            "confidential": false, "discussion_locked": .null, "web_url": .string(webURL(item)),
            "references": ["short": .string(ref), "relative": .string(ref), "full": .string(project.fullPath + ref)],
        ]
        guard item.kind == .mergeRequest else {
            value["type"] = "ISSUE"
            value["issue_type"] = "issue"
            value["moved_to_id"] = .int(item.movedTo)
            value["due_date"] = .null
            return value
        }
        if !switches.noReviewers { value["reviewers"] = .array(item.reviewers.map { user($0) }) }
        value["merged_by"] = user(item.mergedBy)
        value["merge_user"] = user(item.mergedBy)
        value["merged_at"] = time(item.merged)
        value["target_branch"] = "main"
        value["source_branch"] = .string(item.sourceBranch)
        value["source_project_id"] = .int(project.id)
        value["target_project_id"] = .int(project.id)
        value["draft"] = .bool(item.draft)
        value["work_in_progress"] = .bool(item.draft)
        value["merge_status"] = item.isOpen ? "can_be_merged" : "unchecked"
        value["detailed_merge_status"] = item.isOpen ? "mergeable" : "not_open"
        value["sha"] = .text(item.sha)
        value["merge_commit_sha"] = .text(item.merged.map { _ in GitLabState.sha("merge \(item.id)") })
        return value
    }
}
