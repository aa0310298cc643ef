import SimulatorKit

/// Notes, resource events, commits and approvals as GitLab's JSON.
extension View {
    func note(_ note: Note, of item: Item) -> JSONValue {
        [
            "id": .int(note.id), "type": .null, "body": .string(note.body), "attachment": .null,
            "author": user(note.author), "created_at": time(note.created), "updated_at": time(note.updated),
            "system": .bool(note.system), "noteable_id": .int(item.id), "noteable_type": .string(item.kind.typeName),
            "project_id": .int(projects[item.project].id), "resolvable": false, "confidential": false,
            "internal": false, "noteable_iid": .int(item.iid), "commands_changes": [:],
        ]
    }

    /// One item of a `resource_label_events`, `resource_state_events` or `resource_milestone_events` list.
    func event(_ event: ResourceEvent, of item: Item) -> JSONValue {
        var value: JSONValue = [
            "id": .int(event.id), "user": user(event.user), "created_at": time(event.created),
            "resource_type": .string(item.kind.typeName), "resource_id": .int(item.id),
        ]
        switch event.change {
        case .label(let name, let added):
            value["label"] = [
                "id": .int(Self.labelID(name)), "name": .string(name), "color": .string(Self.labelColor(name)),
                "description": .null,
            ]
            value["action"] = added ? "add" : "remove"
        case .milestone(let iid, let added):
            value["milestone"] = milestone(iid, project: item.project)
            value["action"] = added ? "add" : "remove"
        case .state(let state):
            value["state"] = .string(state)
            value["source_commit"] = .null
            value["source_merge_request"] = .null
        }
        return value
    }

    /// Labels are free text; a name's id and colour are stable.
    static func labelID(_ name: String) -> Int {
        var hash = 7
        for byte in name.utf8 { hash = (hash &* 31 &+ Int(byte)) % 100_000 }
        return 700_000 + hash
    }

    static func labelColor(_ name: String) -> String {
        ["bug": "#dc143c", "backend": "#6699cc"][name] ?? "#428bca"
    }

    func commit(_ commit: Commit, of item: Item) -> JSONValue {
        let date = time(commit.created)
        return [
            "id": .string(commit.sha), "short_id": .string(String(commit.sha.prefix(8))), "created_at": date,
            "parent_ids": [], "title": .string(commit.title), "message": .string(commit.title + "\n"),
            "author_name": .string(commit.authorName), "author_email": .string(commit.authorEmail),
            "authored_date": date, "committer_name": .string(commit.authorName),
            "committer_email": .string(commit.authorEmail), "committed_date": date, "trailers": [:],
            "web_url": .string("\(web)/\(projects[item.project].fullPath)/-/commit/\(commit.sha)"),
        ]
    }

    /// `GET …/approvals` and what approve/unapprove answer.
    func approvals(_ item: Item) -> JSONValue {
        [
            "id": .int(item.id), "iid": .int(item.iid), "project_id": .int(projects[item.project].id),
            "title": .string(item.title), "description": .string(item.description), "state": .string(item.state),
            "created_at": time(item.created), "updated_at": time(item.updated),
            "merge_status": item.isOpen ? "can_be_merged" : "unchecked",
            "approved": .bool(!item.approvedBy.isEmpty), "approvals_required": 0, "approvals_left": 0,
            "approved_by": .array(item.approvedBy.map { ["user": user($0)] }),
        ]
    }
}
