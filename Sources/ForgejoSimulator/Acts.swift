import SimulatorKit

/// A colleague acting (`POST /sim/act {"as", "verb", "item", "value"}`): each act adds the timeline entry Forgejo
/// writes and bumps the item's `updated_at`, as `CreateComment` does.
extension ForgejoState {
    enum ActError: Error { case bad(String) }

    mutating func act(_ body: JSONValue) throws(ActError) -> JSONValue {
        guard let login = body["as"]?.string, let actor = login == "ghost" ? User.ghost : User.named(login) else {
            throw .bad("unknown \"as\"")
        }
        let verb = body["verb"]?.string ?? "", value = body["value"]?.string ?? ""
        let reference = (body["item"]?.string ?? "").split(separator: "#").map(String.init)
        guard reference.count == 2, let number = Int(reference[1]), let index = find(reference[0], number) else {
            throw .bad("unknown item")
        }
        let other = User.named(value)?.id
        let now = tick()
        var entry = Entry(id: 0, type: verb, user: actor.id, at: now)
        var item = items[index]
        switch verb {
        case "assign", "unassign":
            guard let other else { throw .bad("unknown user") }
            entry.type = "assignees"
            entry.assignee = other
            entry.removed = verb == "unassign"
            item.assignees.removeAll { $0 == other }
            if verb == "assign" { item.assignees.append(other) }
        case "request_review", "unrequest_review":
            guard let other, item.isPull else { throw .bad("a pull request and a user") }
            entry.type = "review_request"
            entry.assignee = other
            entry.removed = verb == "unrequest_review"
            item.reviewers.removeAll { $0 == other }
            if verb == "request_review" { item.reviewers.append(other) }
        case "comment": entry.body = value
        case "close", "reopen": item.state = verb == "close" ? "closed" : "open"
        case "merge":
            guard item.isPull else { throw .bad("not a pull request") }
            entry.type = "merge_pull"
            item.state = "closed"
            item.merged = true
        case "review":
            // value "APPROVED: text", "REQUEST_CHANGES: text" or "COMMENT: text"; the request row goes, silently.
            guard item.isPull else { throw .bad("not a pull request") }
            let parts = value.split(separator: ":", maxSplits: 1).map { String($0).trimmingSpaces }
            let review = Review(
                id: items.reduce(0) { $0 + $1.reviews.count } + 1, user: actor.id, state: parts.first ?? "COMMENT",
                body: parts.count > 1 ? parts[1] : "", at: now)
            item.reviews.append(review)
            item.reviewers.removeAll { $0 == actor.id }
            entry.reviewID = review.id
            entry.body = review.body
        case "push", "force_push":
            entry.type = "pull_push"
            entry.body = "{\"is_force_push\":\(verb == "force_push"),\"commit_ids\":[\"0123456789abcdef\"]}"
        case "label", "unlabel":
            entry.type = "label"
            entry.label = value
            entry.body = verb == "label" ? "1" : ""
            item.labels.removeAll { $0 == value }
            if verb == "label" { item.labels.append(value) }
        case "milestone":
            entry.oldMilestone = item.milestone
            entry.milestone = value
            item.milestone = value.isEmpty ? nil : value
        case "title":
            entry.type = "change_title"
            entry.oldTitle = item.title
            entry.newTitle = value
            item.title = value
        case "delete":
            items.remove(at: index)
            return ["deleted": .string(item.reference)]
        default: throw .bad("unknown verb \(verb)")
        }
        lastEntry += 1
        entry.id = lastEntry
        item.timeline.append(entry)
        item.updated = now
        items[index] = item
        return ["item": .string(item.reference), "entry": .int(entry.id)]
    }

    /// Creates `count` more issues assigned to engineer in `repo` (the paging tests).
    mutating func seedAssigned(_ count: Int, repo: String) {
        let now = tick()
        for _ in 0..<max(0, min(count, 10_000)) {
            let index = (items.filter { $0.repo == repo }.map(\.index).max() ?? 0) + 1
            let id = (items.map(\.id).max() ?? 0) + 1
            items.append(
                Item(
                    id: id, repo: repo, repoID: items.first { $0.repo == repo }?.repoID ?? 1, index: index,
                    title: "Issue \(index)", isPull: false, author: 2,
                    assignees: [1], created: now, updated: now))
        }
    }
}

extension ForgejoState {
    /// `POST /sim/repos`: `{"rename": "acme/web", "to": "acme/site"}` (a rename or transfer: 307 from the old name),
    /// `{"delete": "acme/api"}` or `{"revoke": "acme/api"}` (404 from then on, to every token).
    mutating func repos(_ body: JSONValue) -> Bool {
        if let old = body["rename"]?.string, let new = body["to"]?.string, new.split(separator: "/").count == 2 {
            for index in items.indices where items[index].repo == old { items[index].repo = new }
            redirects[old] = new
        } else if let gone = body["delete"]?.string {
            items.removeAll { $0.repo == gone }
        } else if let revoked = body["revoke"]?.string {
            hidden.insert(revoked)
        } else {
            return false
        }
        return true
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
