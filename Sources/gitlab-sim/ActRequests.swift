import ArgumentParser
import NIOHTTP1

/// The request of each `act` verb: method, path under `/api/v4` (or `/sim/…`) and JSON body.
struct ActRequests {
    let verb: String
    let arguments: [String]
    let assignee: String?
    let author: String
    let session: ActSession

    /// `platform/web#42` or `platform/web!7` as the project (URL-encoded), the item's path and its iid.
    private func reference(_ text: String) throws -> (project: String, path: String, iid: Int, mergeRequest: Bool) {
        let mergeRequest = text.contains("!")
        let parts = text.split(separator: mergeRequest ? "!" : "#").map(String.init)
        guard parts.count == 2, parts[0].contains("/"), let iid = Int(parts[1]) else {
            throw ValidationError("expected GROUP/PROJECT#IID or GROUP/PROJECT!IID, got \(text)")
        }
        let project = encoded(parts[0])
        return (project, "/projects/\(project)/\(mergeRequest ? "merge_requests" : "issues")/\(iid)", iid, mergeRequest)
    }

    private func encoded(_ path: String) -> String { path.replacingOccurrences(of: "/", with: "%2F") }

    private func need(_ count: Int, _ usage: String) throws {
        guard arguments.count >= count else { throw ValidationError("usage: \(verb) \(usage)") }
    }

    func request() throws -> (HTTPMethod, String, Any?) {
        let a = arguments
        try need(1, "REF …")
        if verb == "create" {
            try need(2, "PROJECT TITLE")
            let ids = try assignee.map { [try session.userID($0)] } ?? []
            return (.POST, "/projects/\(encoded(a[0]))/issues", ["title": a[1], "assignee_ids": ids])
        }
        let ref = try reference(a[0])
        switch verb {
        case "assign", "unassign", "request-review", "remove-review":
            try need(2, "REF USER...")
            let field = verb.hasSuffix("review") ? "reviewers" : "assignees"
            let people = try session.object(ref.path)[field] as? [[String: Any]] ?? []
            let current = people.compactMap { $0["id"] as? Int }
            let named = try a.dropFirst().map(session.userID)
            let adding = verb == "assign" || verb == "request-review"
            let wanted = adding
                ? current + named.filter { !current.contains($0) } : current.filter { !named.contains($0) }
            return (.PUT, ref.path, [field == "reviewers" ? "reviewer_ids" : "assignee_ids": wanted])
        case "comment":
            try need(2, "REF TEXT")
            return (.POST, ref.path + "/notes", ["body": a[1]])
        case "rename", "edit-description":
            try need(2, "REF TEXT")
            return (.PUT, ref.path, [verb == "rename" ? "title" : "description": a[1]])
        case "label", "unlabel":
            try need(2, "REF LABEL")
            return (.PUT, ref.path, [verb == "label" ? "add_labels" : "remove_labels": a[1]])
        case "milestone":
            try need(2, "REF v1.0|v2.0|none")
            return (.PUT, ref.path, ["milestone_id": try milestoneID(ref.project, a[1])])
        case "close", "reopen":
            return (.PUT, ref.path, ["state_event": verb])
        case "approve", "unapprove":
            return (.POST, ref.path + "/" + verb, [String: Any]())
        case "merge":
            return (.PUT, ref.path + "/merge", [String: Any]())
        case "move":
            try need(2, "ISSUE PROJECT")
            guard let id = try session.object("/projects/\(encoded(a[1]))")["id"] as? Int else {
                throw ValidationError("no project \(a[1])")
            }
            return (.POST, ref.path + "/move", ["to_project_id": id])
        case "push":
            return (.POST, "/sim/push", ["project": a[0].split(separator: "!").first.map(String.init) ?? "",
                "iid": ref.iid, "author": author, "pusher": session.username,
                "message": a.count > 1 ? a[1] : "Update from \(author)"])
        default:
            throw ValidationError("unknown verb \(verb); see gitlab-sim act --help")
        }
    }

    /// The id of the project's milestone titled `title` (`GET /projects/:id/milestones?title=`), 0 for none.
    private func milestoneID(_ project: String, _ title: String) throws -> Int {
        guard title.lowercased() != "none" else { return 0 }
        guard let found = try session.json("/projects/\(project)/milestones?title=\(title)") as? [[String: Any]],
            let id = found.first?["id"] as? Int
        else { throw ValidationError("no milestone \(title)") }
        return id
    }
}
