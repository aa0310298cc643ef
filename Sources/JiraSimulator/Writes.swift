import SimulatorKit

/// Colleagues acting through Jira's own write API. Every change records a history by the caller, dated now, and
/// bumps `updated` (a comment bumps `updated` and is its own record; creating an issue records no history, as in
/// Jira).
extension JiraState {
    mutating func write(_ name: String, _ key: String, _ call: Call, _ view: View) throws -> Answer {
        let body = try jsonBody(call)
        switch name {
        case "POST /issue": return Answer(status: 201, try create(body, view))
        case "PUT /issue/{idOrKey}":
            try edit(try slot(key, for: view.caller), body["fields"]?.object ?? JSONObject(), view)
            return Answer(status: 204)
        case "PUT /issue/{idOrKey}/assignee":
            let slot = try slot(key, for: view.caller)
            assign(slot, to: try assignee(body), by: view.caller)
            return Answer(status: 204)
        case "POST /issue/{idOrKey}/transitions":
            try transition(try slot(key, for: view.caller), id: body["transition"]?["id"], by: view.caller)
            return Answer(status: 204)
        case "POST /issue/{idOrKey}/comment":
            return Answer(status: 201, try addComment(try slot(key, for: view.caller), body, view))
        default:
            throw JiraError(404, "null for uri: \(call.origin)\(call.request.path)")
        }
    }

    private func jsonBody(_ call: Call) throws -> JSONValue {
        guard let body = try? JSONValue.parse(call.request.body), body.object != nil else {
            throw JiraError(400, "The request body is not a JSON object.")
        }
        return body
    }

    /// The person an assignee body names (`{accountId}` on Cloud, `{name}` on Data Center); nil unassigns.
    func assignee(_ body: JSONValue) throws -> Int? {
        let member = flavor == .cloud ? "accountId" : "name"
        guard let value = body[member], value != .null else { return nil }
        guard let text = value.string, let person = Directory.person(named: text, flavor: flavor) else {
            throw JiraError(field: "assignee", "User '\(body[member]?.string ?? "?")' does not exist.")
        }
        return person
    }

    /// Sets the assignee, who starts watching (Jira's autowatch); nothing happens when it does not change.
    mutating func assign(_ slot: Int, to person: Int?, by author: Int) {
        let old = issues[slot]!.assignee
        guard old != person else { return }
        issues[slot]!.assignee = person
        if let person { issues[slot]!.watch(person) }
        let item = HistoryItem(
            field: "assignee", fieldtype: "jira", fieldId: "assignee", from: old.map { .person($0) } ?? .none,
            to: person.map { .person($0) } ?? .none)
        record([item], on: slot, by: author)
    }

    /// Transitions 11, 21, 31 lead to To Do, In Progress, Done; entering or leaving Done also sets the resolution.
    mutating func transition(_ slot: Int, id: JSONValue?, by author: Int) throws {
        let current = issues[slot]!.status
        let wanted = id?.string ?? id?.int.map(String.init)
        guard let target = Workflow.statuses.firstIndex(where: { $0.transitionID == wanted }), target != current else {
            throw JiraError(400, "Transition id '\(wanted ?? "")' is not valid for this issue.")
        }
        let from = Workflow.statuses[current], to = Workflow.statuses[target]
        var items = [
            HistoryItem(field: "status", fieldtype: "jira", fieldId: "status", from: .text(id: from.id, from.name),
                to: .text(id: to.id, to.name))
        ]
        if current == Workflow.done || target == Workflow.done {
            let done = ItemValue.text(id: "10000", "Done")
            items.insert(HistoryItem(field: "resolution", fieldtype: "jira", fieldId: "resolution",
                from: current == Workflow.done ? done : .none, to: target == Workflow.done ? done : .none), at: 0)
        }
        issues[slot]!.status = target
        record(items, on: slot, by: author)
    }

    /// `PUT /issue/{idOrKey}` with `fields`: summary, priority, labels, description, fixVersions, assignee.
    mutating func edit(_ slot: Int, _ fields: JSONObject, _ view: View) throws {
        var issue = issues[slot]!
        var items: [HistoryItem] = []
        func item(_ field: String, _ id: String, _ from: ItemValue, _ to: ItemValue) {
            items.append(HistoryItem(field: field, fieldtype: "jira", fieldId: id, from: from, to: to))
        }
        for member in fields.members {
            switch member.key {
            case "summary":
                guard let text = member.value.string, !text.isEmpty else {
                    throw JiraError(field: "summary", "You must specify a summary of the issue.")
                }
                if text != issue.summary { item("summary", "summary", .text(id: nil, issue.summary), .text(id: nil, text)) }
                issue.summary = text
            case "description":
                let text = RichText.plain(member.value)
                if text != issue.description {
                    item("description", "description", issue.description.map { .text(id: nil, $0) } ?? .none,
                        text.map { .text(id: nil, $0) } ?? .none)
                }
                issue.description = text
            case "priority":
                guard let name = member.value["name"]?.string, let new = Workflow.priority(named: name) else {
                    throw JiraError(field: "priority", "Specify the Priority (name) in the format {\"name\": \"High\"}.")
                }
                let old = Workflow.priority(named: issue.priority)!
                if new.name != old.name { item("priority", "priority", .text(id: old.id, old.name), .text(id: new.id, new.name)) }
                issue.priority = new.name
            case "labels":
                guard let labels = member.value.array?.compactMap(\.string) else {
                    throw JiraError(field: "labels", "Labels are a list of strings.")
                }
                if labels != issue.labels {
                    item("labels", "labels", .text(id: nil, issue.labels.joined(separator: " ")),
                        .text(id: nil, labels.joined(separator: " ")))
                }
                issue.labels = labels
            case "fixVersions":
                let names = try (member.value.array ?? []).map { value -> String in
                    guard let name = value["name"]?.string, let version = Workflow.version(named: name) else {
                        throw JiraError(field: "fixVersions", "Version name '\(value["name"]?.string ?? "?")' is not valid")
                    }
                    return version.name
                }
                for removed in issue.fixVersions where !names.contains(removed) {
                    item("Fix Version", "fixVersions", .text(id: Workflow.version(named: removed)?.id, removed), .none)
                }
                for added in names where !issue.fixVersions.contains(added) {
                    item("Fix Version", "fixVersions", .none, .text(id: Workflow.version(named: added)?.id, added))
                }
                issue.fixVersions = names
            case "assignee":
                continue
            default:
                throw JiraError(
                    field: member.key, "Field '\(member.key)' cannot be set. It is not on the appropriate screen, or unknown.")
            }
        }
        issues[slot] = issue
        record(items, on: slot, by: view.caller)
        if let value = fields["assignee"] { assign(slot, to: try assignee(value), by: view.caller) }
    }

    mutating func addComment(_ slot: Int, _ body: JSONValue, _ view: View) throws -> JSONValue {
        guard let text = RichText.plain(body["body"]), !text.isEmpty else {
            throw JiraError(field: "comment", "Comment body can not be empty!")
        }
        let time = now
        let comment = Comment(
            id: nextCommentID, author: view.caller, updateAuthor: view.caller, body: text, created: time, updated: time)
        nextCommentID += 1
        issues[slot]!.comments.append(comment)
        issues[slot]!.updated = time
        return view.comment(comment, issueID: issues[slot]!.id)
    }

    /// `POST /issue`: project, summary and issuetype required; the caller reports it and watches it.
    mutating func create(_ body: JSONValue, _ view: View) throws -> JSONValue {
        let fields = body["fields"] ?? .null
        let projectName = fields["project"]?["key"]?.string ?? fields["project"]?["id"]?.string
        guard let projectName,
            let project = projects.first(where: { $0.key == projectName.uppercased() || String($0.id) == projectName }),
            canSee(view.caller, project: project.index)
        else { throw JiraError(field: "project", "Specify a valid project ID or key") }
        guard let summary = fields["summary"]?.string, !summary.isEmpty else {
            throw JiraError(field: "summary", "You must specify a summary of the issue.")
        }
        let typeName = fields["issuetype"]?["name"]?.string ?? fields["issuetype"]?["id"]?.string ?? ""
        guard let type = Workflow.issueTypes.first(where: { $0.1.lowercased() == typeName.lowercased() || $0.0 == typeName })
        else { throw JiraError(field: "issuetype", "Specify an issue type") }
        let assignee = try fields["assignee"].map { try self.assignee($0) } ?? nil
        let number = project.nextNumber
        projects[project.index].nextNumber += 1
        let time = now
        var issue = Issue(
            id: 10000 + project.index * 100_000 + number, projectIndex: project.index, number: number,
            summary: summary, description: RichText.plain(fields["description"]), issueType: type.1,
            assignee: assignee, reporter: view.caller, creator: view.caller, watchers: [view.caller], status: Workflow.toDo,
            priority: fields["priority"]?["name"]?.string.flatMap { Workflow.priority(named: $0)?.name } ?? "Medium",
            labels: fields["labels"]?.array?.compactMap(\.string) ?? [], fixVersions: [], sprint: nil, created: time,
            updated: time)
        if let assignee { issue.watch(assignee) }
        insert(issue)
        return ["id": .string(String(issue.id)), "key": .string(key(of: issue)), "self": .string("\(view.api)/issue/\(issue.id)")]
    }
}
