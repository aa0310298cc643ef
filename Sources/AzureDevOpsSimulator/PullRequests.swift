import SimulatorKit

/// The pull request routes: lists per project (or repository), one by id, threads, iterations, reviewers.
extension AzureDevOpsState {
    mutating func pullRequestRoute(_ routed: Routed, _ call: Call, project: Int?, _ view: View) throws -> Answer {
        let p = routed.parameters
        // Repository routes: the repository (id or name) of the URL's project.
        if p.count >= 1, routed.name != "GET pullrequest" || p.count == 2 {
            guard let project, [Directory.repositoryID(project).lowercased(), Directory.projectNames[project].lowercased()]
                .contains(p[0].lowercased())
            else {
                throw AzureDevOpsError(404, "TF401019: The Git repository with name or identifier \(p[0]) does not "
                    + "exist or you do not have permissions for the operation you are attempting.",
                    "GitRepositoryNotFoundException")
            }
        }
        switch routed.name {
        case "GET pullrequests":
            guard let project else { throw AzureDevOpsError.badRequest("The pull request list needs a project in the URL.") }
            return try list(call, project: project, view)
        case "GET pullrequest":
            return Answer(view.pullRequest(pullRequests[try pullSlot(p.last ?? "", project: project, view)], inList: false))
        default: break
        }
        let slot = try pullSlot(p[1], project: project, view)
        let pull = pullRequests[slot]
        switch routed.name {
        case "GET threads": return Answer.list(pull.threads.map { view.thread($0, of: pull) })
        case "GET iterations": return Answer.list(pull.iterations.map { view.iteration($0, of: pull) })
        case "GET reviewers": return Answer.list(pull.reviewers.map { view.reviewer($0, of: pull) })
        case "POST threads":
            let body = try bodyObject(call)
            guard let text = body["comments"]?.array?.first?["content"]?.string, !text.isEmpty else {
                throw AzureDevOpsError.badRequest("The thread needs {\"comments\": [{\"content\": …}]}.")
            }
            let thread = addThread(slot, at: now, text: text, by: view.me)
            return Answer(view.thread(thread, of: pullRequests[slot]))
        case "PUT reviewer":
            guard Directory.person(id: p[2]) == view.me else {
                throw AzureDevOpsError.badRequest("You can only cast your own vote (reviewer \(p[2])).")
            }
            guard let vote = try bodyObject(call)["vote"]?.int, [10, 5, 0, -5, -10].contains(vote) else {
                throw AzureDevOpsError.badRequest("The vote must be 10, 5, 0, -5 or -10.")
            }
            self.vote(slot, vote, by: view.me, at: now)
            let reviewer = pullRequests[slot].reviewers.first { $0.who == view.me } ?? Reviewer(who: view.me)
            return Answer(view.reviewer(reviewer, of: pullRequests[slot]))
        default:
            throw AzureDevOpsError.noRoute(call.request.path)
        }
    }

    /// A pull request the caller can read (in the URL's project when one is given): 404 `TF401180` otherwise.
    func pullSlot(_ text: String, project: Int?, _ view: View) throws -> Int {
        guard let id = Int(text), let slot = pullRequests.firstIndex(where: { $0.id == id }),
            reads(view.me, project: pullRequests[slot].project), project.map({ $0 == pullRequests[slot].project }) ?? true
        else { throw AzureDevOpsError.pullRequestNotFound(Int(text) ?? 0) }
        return slot
    }

    /// `searchCriteria.status` (active by default), `.creatorId`, `.reviewerId` (a GUID, matched against the
    /// reviewers themselves, not the groups they belong to), `.repositoryId`; newest first; `$top` 101 by default.
    func list(_ call: Call, project: Int, _ view: View) throws -> Answer {
        func guid(_ name: String) throws -> String? {
            guard let value = call.query("searchCriteria." + name) else { return nil }
            guard Self.isGUID(value) else {
                throw AzureDevOpsError.badRequest("The value '\(value)' of searchCriteria.\(name) is not a valid Guid.")
            }
            return value.lowercased()
        }
        let creator = try guid("creatorId"), reviewer = try guid("reviewerId"), repository = try guid("repositoryId")
        let status = (call.query("searchCriteria.status") ?? "active").lowercased()
        guard ["active", "abandoned", "completed", "all", "notset"].contains(status) else {
            throw AzureDevOpsError.badRequest("The value '\(status)' of searchCriteria.status is not valid.")
        }
        let top = max(0, min(call.query("$top").flatMap { Int($0) } ?? 101, 100_000))
        let skip = max(0, call.query("$skip").flatMap { Int($0) } ?? 0)
        let found = pullRequests.filter { pull in
            pull.project == project && (status == "all" || pull.status == (status == "notset" ? "active" : status))
                && creator.map { Directory.people[pull.author].id == $0 } ?? true
                && reviewer.map { id in pull.reviewers.contains { Directory.people[$0.who].id == id } } ?? true
                && repository.map { Directory.repositoryID(project) == $0 } ?? true
        }.sorted { $0.created > $1.created }
        return Answer.list(found.dropFirst(skip).prefix(top).map { view.pullRequest($0, inList: true) })
    }

    static func isGUID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
