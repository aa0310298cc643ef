import SimulatorKit

/// The write routes a colleague uses, as the token's user; each adds timeline events and bumps `updated_at`.
extension GitHubState {
    mutating func write(_ name: String, _ parameters: [String], _ call: Call, _ view: View) throws -> Answer {
        guard view.token.readsPrivate else { throw GitHubError.notFound }
        let body = try WriteBody(call)
        switch name {
        case "POST /repos/{owner}/{repo}/issues":
            return try createIssue(try repoIndex(parameters[0], parameters[1], call, view), body, view)
        case "PATCH /repos/{owner}/{repo}/issues/{issue_number}":
            let slot = try slot(parameters, call, view)
            try edit(slot, body, by: view.me)
            return Answer(view.issue(issues[slot]))
        case "POST /repos/{owner}/{repo}/issues/{issue_number}/comments":
            return try comment(try slot(parameters, call, view), body, view)
        case "POST /repos/{owner}/{repo}/issues/{issue_number}/assignees",
            "DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees":
            let slot = try slot(parameters, call, view)
            let named = Set(body.strings("assignees").compactMap(assignable))
            let current = issues[slot].assignees
            let wanted = call.method == "POST"
                ? current + named.filter { !current.contains($0) }.sorted() : current.filter { !named.contains($0) }
            assign(slot, wanted, by: view.me)
            return Answer(view.issue(issues[slot]), status: call.method == "POST" ? 201 : 200)
        case "POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers",
            "DELETE /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers":
            let slot = try pullSlot(parameters, call, view)
            try requestReviews(slot, body, adding: call.method == "POST", by: view.me)
            return Answer(view.pull(issues[slot]), status: call.method == "POST" ? 201 : 200)
        case "POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews":
            return try review(try pullSlot(parameters, call, view), body, view)
        case "PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge":
            return try merge(try pullSlot(parameters, call, view), body, by: view.me)
        default:
            throw GitHubError.notFound
        }
    }

    /// A person's index for a login that can be assigned or requested (bots cannot), or nil.
    func assignable(_ login: String) -> Int? {
        Directory.account(login: login).flatMap { Directory.accounts[$0].type == "User" ? $0 : nil }
    }

    private mutating func createIssue(_ repo: Int, _ body: WriteBody, _ view: View) throws -> Answer {
        guard let title = body.string("title"), !title.isEmpty else {
            throw GitHubError.invalid("Issue", "title", code: "missing_field")
        }
        let number = repos[repo].nextNumber
        repos[repo].nextNumber += 1
        let issue = Issue(
            id: nextIssueID, repo: repo, number: number, isPull: false, title: title, body: body.string("body") ?? "",
            author: view.me, assignees: [], labels: [], milestone: nil, created: now, updated: now,
            headSHA: GitHubState.sha("new \(nextIssueID)"))
        nextIssueID += 1
        let slot = issues.count
        insert(issue)
        noteMentions(issue.body, on: slot)
        var edits = body
        edits.members["title"] = nil
        edits.members["body"] = nil
        try edit(slot, edits, by: view.me)
        issues[slot].updated = now
        var answer = Answer(view.issue(issues[slot]), status: 201)
        answer.headers.append(("Location", view.issueURL(issues[slot])))
        return answer
    }

    private mutating func comment(_ slot: Int, _ body: WriteBody, _ view: View) throws -> Answer {
        guard let text = body.string("body"), !text.isEmpty else {
            throw GitHubError.invalid("IssueComment", "body", code: "missing_field")
        }
        record(.commented(body: text), on: slot, by: view.me)
        issues[slot].comments += 1
        issues[slot].commenters.insert(view.me)
        noteMentions(text, on: slot)
        let event = issues[slot].timeline.last!
        var answer = Answer(view.comment(event, body: text, of: issues[slot]), status: 201)
        answer.headers.append(("Location", view.comment(event, body: text, of: issues[slot])["url"]?.string ?? ""))
        return answer
    }

    /// Accounts @-mentioned in `text` join the issue's mentions.
    mutating func noteMentions(_ text: String, on slot: Int) {
        for (index, account) in Directory.accounts.enumerated() where text.contains("@" + account.login) {
            issues[slot].mentions.insert(index)
        }
    }

    /// Sets the assignees, recording `unassigned` for those leaving and `assigned` for those arriving.
    mutating func assign(_ slot: Int, _ wanted: [Int], by actor: Int) {
        let current = issues[slot].assignees
        for gone in current where !wanted.contains(gone) { record(.unassigned(gone), on: slot, by: actor) }
        for new in wanted where !current.contains(new) { record(.assigned(new), on: slot, by: actor) }
        issues[slot].assignees = wanted
    }
}

/// A write request's JSON object; 400 "Problems parsing JSON" when it is not one.
struct WriteBody {
    var members: [String: JSONValue] = [:]

    init(_ call: Call) throws {
        guard !call.request.body.isEmpty else { return }
        guard let object = (try? JSONValue.parse(call.request.body))?.object else {
            throw GitHubError(400, "Problems parsing JSON")
        }
        for member in object.members { members[member.key] = member.value }
    }

    func string(_ key: String) -> String? { members[key]?.string }

    /// A list of strings, or of objects' `name`s (labels may come either way); a single string as a list of one.
    func strings(_ key: String) -> [String] {
        if let text = members[key]?.string { return [text] }
        return (members[key]?.array ?? []).compactMap { $0.string ?? $0["name"]?.string }
    }

    func has(_ key: String) -> Bool { members[key] != nil }
}
