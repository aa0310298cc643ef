import SimulatorKit

/// Approving, merging and moving: the writes beyond `PUT`.
extension GitLabState {
    /// `POST …/approve`: 201 with the approvals; approving twice: 401, as GitLab.
    mutating func approve(_ slot: Int, _ view: View) throws -> Answer {
        guard items[slot].isOpen, !items[slot].approvedBy.contains(view.me) else { throw GitLabError.unauthorized }
        items[slot].approvedBy.append(view.me)
        addNote("approved this merge request", on: slot, by: view.me, system: true)
        return Answer(view.approvals(items[slot]), status: 201)
    }

    /// `POST …/unapprove`: 201 with the approvals; 404 when the user had not approved.
    mutating func unapprove(_ slot: Int, _ view: View) throws -> Answer {
        guard items[slot].approvedBy.contains(view.me) else { throw GitLabError(404, "404 Not Found") }
        items[slot].approvedBy.removeAll { $0 == view.me }
        addNote("unapproved this merge request", on: slot, by: view.me, system: true)
        return Answer(view.approvals(items[slot]), status: 201)
    }

    /// `PUT …/merge`: 405 unless open and not a draft; 409 when `sha` is not the head.
    mutating func merge(_ slot: Int, _ params: Params, _ view: View) throws -> Answer {
        guard items[slot].isOpen, !items[slot].draft else { throw GitLabError(405, "405 Method Not Allowed") }
        if let sha = params.string("sha"), sha != items[slot].sha {
            throw GitLabError(409, "SHA does not match HEAD of source branch: \(sha)")
        }
        merge(slot, by: view.me)
        return Answer(view.item(items[slot]))
    }

    /// `POST …/issues/:iid/move {to_project_id}`: a new issue (new id, the target's next iid) with the old one's
    /// title, description, author, assignees, labels, milestone and notes (copied: new ids, same authors and
    /// times); the old one closed with `moved_to_id`; `moved to …` and `moved from …` system notes by the mover.
    mutating func move(_ slot: Int, _ params: Params, _ view: View) throws -> Answer {
        guard let target = params.values["to_project_id"].map({ $0.string ?? $0.int.map(String.init) ?? "" }) else {
            throw GitLabError.missing("to_project_id")
        }
        let project = try self.project(target, view, write: true)
        let old = items[slot]
        guard project != old.project else {
            throw GitLabError(400, "400 Bad request - Cannot move issue to project it originates from!")
        }
        guard old.movedTo == nil else {
            throw GitLabError(400, "400 Bad request - Cannot move issue which was already moved!")
        }
        let time = now, iid = projects[project].nextIssueIID
        projects[project].nextIssueIID += 1
        var moved = Item(kind: .issue, id: nextIssueID, project: project, iid: iid, title: old.title,
            description: old.description, author: old.author, assignees: old.assignees, labels: old.labels,
            milestone: old.milestone, created: time, updated: time, lastChange: time - 60_000)
        nextIssueID += 1
        for note in old.notes {
            moved.notes.append(Note(id: nextNoteID, body: note.body, author: note.author, created: note.created,
                updated: note.updated, system: note.system))
            nextNoteID += 1
        }
        insert(moved)
        let new = items.count - 1
        addNote("moved from \(reference(old))", on: new, by: view.me, system: true)
        items[slot].movedTo = moved.id
        addNote("moved to \(reference(items[new]))", on: slot, by: view.me, system: true)
        changeState(slot, "close", by: view.me)
        return Answer(view.item(items[new]), status: 201)
    }

    /// `platform/web#42`.
    func reference(_ item: Item) -> String { projects[item.project].fullPath + item.kind.sigil + String(item.iid) }
}
