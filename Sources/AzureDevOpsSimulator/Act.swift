import SimulatorKit

/// `POST /sim/act`: a colleague (or the engineer, or the build service) does something, now, as the web UI
/// would record it (docs/azure-devops-sim.md, "Acting").
struct ActRequest: Decodable {
    /// Who acts (`as`): engineer, alice, lead, build.
    var actor: String
    var verb: String
    var workItem: Int?
    var pullRequest: Int?
    /// The person (or group, for a review) the verb is about.
    var user: String?
    /// `set`: State, Title, Priority, Iteration, Area, Tags, or a reference name.
    var field: String?
    var value: String?
    /// `comment`; `push`: the commit message.
    var text: String?
    /// `create`, `open`, `move`.
    var project: String?
    /// `create`, `open`.
    var title: String?
    /// `create`: Bug, Task, User Story (default Task).
    var type: String?
    var vote: Int?

    enum CodingKeys: String, CodingKey {
        case actor = "as"
        case verb, workItem, pullRequest, user, field, value, text, project, title, type, vote
    }
}

extension AzureDevOpsState {
    static let workItemVerbs = ["create", "assign", "unassign", "set", "move", "delete", "follow", "unfollow"]
    static let pullRequestVerbs = ["open", "request-review", "remove-review", "vote", "push", "complete", "abandon"]

    /// The short field names `set` takes.
    static let fieldNames = [
        "state": "System.State", "title": "System.Title", "priority": "Microsoft.VSTS.Common.Priority",
        "iteration": "System.IterationPath", "area": "System.AreaPath", "tags": "System.Tags",
        "reason": "System.Reason",
    ]

    mutating func act(_ request: ActRequest) throws -> JSONValue {
        let actor = try person(request.actor)
        guard !Directory.people[actor].isGroup, actor != Directory.tfs else {
            throw AzureDevOpsError.badRequest("\(request.actor) cannot act")
        }
        let time = now
        if request.verb == "comment" {
            if request.workItem != nil {
                let slot = try workItemForAct(request)
                _ = comment(slot, try need(request.text, "text"), by: actor, at: time)
                return workItemDone(slot)
            }
            let slot = try pullRequestForAct(request)
            let thread = addThread(slot, at: time, text: try need(request.text, "text"), by: actor)
            return ["ok": true, "pullRequest": .int(pullRequests[slot].id), "thread": .int(thread.id)]
        }
        if Self.workItemVerbs.contains(request.verb) { return try actOnWorkItem(request, actor: actor, at: time) }
        if Self.pullRequestVerbs.contains(request.verb) { return try actOnPullRequest(request, actor: actor, at: time) }
        throw AzureDevOpsError.badRequest("Unknown verb \(request.verb); known: comment, "
            + (Self.workItemVerbs + Self.pullRequestVerbs).joined(separator: ", "))
    }

    private func need<T>(_ value: T?, _ name: String) throws -> T {
        guard let value else { throw AzureDevOpsError.badRequest("This verb needs \"\(name)\".") }
        return value
    }

    private func workItemForAct(_ request: ActRequest) throws -> Int {
        let id = try need(request.workItem, "workItem")
        guard let slot = workItems.firstIndex(where: { $0.id == id }), !workItems[slot].deleted else {
            throw AzureDevOpsError.badRequest("No work item \(id)")
        }
        return slot
    }

    private func pullRequestForAct(_ request: ActRequest) throws -> Int {
        let id = try need(request.pullRequest, "pullRequest")
        guard let slot = pullRequests.firstIndex(where: { $0.id == id }) else {
            throw AzureDevOpsError.badRequest("No pull request \(id)")
        }
        return slot
    }

    private func workItemDone(_ slot: Int) -> JSONValue {
        ["ok": true, "workItem": .int(workItems[slot].id), "rev": .int(workItems[slot].rev)]
    }

    private mutating func actOnWorkItem(_ request: ActRequest, actor: Int, at time: Int) throws -> JSONValue {
        if request.verb == "create" {
            let project = try projectNamed(try need(request.project, "project"))
            let type = request.type ?? "Task"
            guard Seed.types.contains(type) else {
                throw AzureDevOpsError.badRequest("type is one of \(Seed.types.joined(separator: ", "))")
            }
            let id = (workItems.map(\.id).max() ?? 0) + 1, name = Directory.projectNames[project]
            var set: [(String, FieldValue?)] = [
                ("System.Id", .number(id)), ("System.AreaPath", .text(name)), ("System.TeamProject", .text(name)),
                ("System.IterationPath", .text(name)), ("System.WorkItemType", .text(type)),
                ("System.State", .text("New")), ("System.Reason", .text("New")), ("System.CreatedDate", .date(time)),
                ("System.CreatedBy", .person(actor)), ("System.CommentCount", .number(0)),
                ("System.Title", .text(try need(request.title, "title"))),
                ("Microsoft.VSTS.Common.Priority", .number(2)),
            ]
            if let user = request.user { set.insert(("System.AssignedTo", .person(try person(user))), at: 5) }
            workItems.append(WorkItem(id: id, project: project, fields: [:]))
            change(workItems.count - 1, by: actor, at: time, set: set)
            return workItemDone(workItems.count - 1)
        }
        let slot = try workItemForAct(request)
        switch request.verb {
        case "assign":
            change(slot, by: actor, at: time, set: [("System.AssignedTo", .person(try person(try need(request.user, "user"))))])
        case "unassign": change(slot, by: actor, at: time, set: [("System.AssignedTo", nil)])
        case "set":
            let name = try need(request.field, "field"), text = try need(request.value, "value")
            let field = Self.fieldNames[name.lowercased()] ?? name
            guard WiqlQuery.fields[field] != nil || field == "System.Reason" else {
                throw AzureDevOpsError.badRequest("field is one of State, Title, Priority, Iteration, Area, Tags")
            }
            let value: FieldValue?
            switch WiqlQuery.fields[field]?.kind {
            case .number?:
                guard let number = Int(text) else { throw AzureDevOpsError.badRequest("\(name) takes a number") }
                value = .number(number)
            case .person?: value = text.isEmpty ? nil : .person(try person(text))
            default: value = text.isEmpty ? nil : .text(text)
            }
            change(slot, by: actor, at: time, set: [(field, value)])
        case "move":
            let project = try projectNamed(try need(request.project, "project"))
            guard project != workItems[slot].project else {
                throw AzureDevOpsError.badRequest("Work item \(workItems[slot].id) is already in \(Directory.projectNames[project])")
            }
            move(slot, to: project, by: actor, at: time)
        case "delete": workItems[slot].deleted = true
        case "follow": workItems[slot].followers.insert(actor)
        default: workItems[slot].followers.remove(actor)
        }
        return workItemDone(slot)
    }

    private mutating func actOnPullRequest(_ request: ActRequest, actor: Int, at time: Int) throws -> JSONValue {
        if request.verb == "open" {
            let project = try projectNamed(try need(request.project, "project"))
            let id = (pullRequests.map(\.id).max() ?? 0) + 1
            var pull = PullRequest(id: id, project: project, title: try need(request.title, "title"),
                description: request.text ?? "", author: actor, created: time, sourceBranch: "refs/heads/feature-\(id)")
            pull.iterations = [Iteration(id: 1, author: actor, at: time, commit: Self.sha("\(id)/1"), reason: "create")]
            pullRequests.append(pull)
            if let user = request.user { requestReview(pullRequests.count - 1, reviewer: try person(user), by: actor, at: time) }
            return ["ok": true, "pullRequest": .int(id)]
        }
        let slot = try pullRequestForAct(request)
        guard pullRequests[slot].status == "active" else {
            throw AzureDevOpsError.badRequest("Pull request \(pullRequests[slot].id) is \(pullRequests[slot].status)")
        }
        switch request.verb {
        case "request-review":
            requestReview(slot, reviewer: try person(try need(request.user, "user")), by: actor, at: time)
        case "remove-review":
            removeReview(slot, reviewer: try person(try need(request.user, "user")), by: actor, at: time)
        case "vote":
            let vote = try need(request.vote, "vote")
            guard [10, 5, 0, -5, -10].contains(vote) else {
                throw AzureDevOpsError.badRequest("vote is 10, 5, 0, -5 or -10")
            }
            self.vote(slot, vote, by: actor, at: time)
        case "push": push(slot, by: actor, at: time, message: request.text ?? "Update from \(Directory.people[actor].username)")
        case "complete": close(slot, completed: true, by: actor, at: time)
        default: close(slot, completed: false, by: actor, at: time)
        }
        // The thread the action recorded: what a fault on `GET threads` names.
        let thread = pullRequests[slot].threads.last?.id ?? 0
        return ["ok": true, "pullRequest": .int(pullRequests[slot].id), "thread": .int(thread)]
    }
}
