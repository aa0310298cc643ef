/// `GET /issues`, `GET /merge_requests` and their per-project forms: GitLab's filters, order and paging.
extension GitLabState {
    func list(_ kind: ItemKind, _ project: Int?, _ call: Call, _ view: View, _ routed: Routed) throws -> Answer {
        let slots = try selected(kind, project, call, view)
        return paged(slots, call, view, routed) { view.item(items[$0]) }
    }

    /// The slots passing every filter, in `order_by`/`sort` order.
    func selected(_ kind: ItemKind, _ project: Int?, _ call: Call, _ view: View) throws -> [Int] {
        let me = view.me
        let scopes = ["created_by_me", "assigned_to_me", "all", "created-by-me", "assigned-to-me"]
        let scope = project == nil ? try choice(call, "scope", scopes) : try choice(call, "scope", ["all"] + scopes)
        let states = kind == .issue ? ["all", "opened", "closed"] : ["all", "opened", "closed", "merged", "locked"]
        let state = try choice(call, "state", states)
        let ascending = try choice(call, "sort", ["desc", "asc"]) == "asc"
        let byUpdate = try choice(call, "order_by", ["created_at", "updated_at"]) == "updated_at"
        let filters = try Filters(call, kind: kind, reviewers: !view.switches.noReviewers)
        var slots = items.indices.filter { slot in
            let item = items[slot]
            guard item.kind == kind, project.map({ $0 == item.project }) ?? true, reads(me, project: item.project),
                state == "all" || item.state == state
            else { return false }
            switch scope {
            case "created_by_me", "created-by-me": if item.author != me { return false }
            case "assigned_to_me", "assigned-to-me": if !item.assignees.contains(me) { return false }
            default: break
            }
            return filters.keep(item)
        }
        slots.sort { a, b in
            let (x, y) = (items[a], items[b])
            let (p, q) = byUpdate ? (x.updated, y.updated) : (x.created, y.created)
            if p != q { return ascending ? p < q : p > q }
            return ascending ? x.id < y.id : x.id > y.id
        }
        return slots
    }
}

/// The filters of a list request besides `scope` and `state`.
struct Filters {
    /// A user filter: a user id, `None` (nobody) or `Any` (somebody).
    enum Person {
        case user(Int?)
        case none
        case any

        func keep(_ users: [Int]) -> Bool {
            switch self {
            case .user(let user): user.map(users.contains) ?? false
            case .none: users.isEmpty
            case .any: !users.isEmpty
            }
        }
    }

    var assignee: Person?
    var author: Person?
    var reviewer: Person?
    var labels: [String]?
    var milestone: String?
    var iids: [Int]?
    var after: Int?
    var before: Int?
    var createdAfter: Int?
    var createdBefore: Int?

    init(_ call: Call, kind: ItemKind, reviewers: Bool) throws {
        assignee = try Self.person(call, "assignee_id", "assignee_username")
        author = try Self.person(call, "author_id", "author_username")
        if kind == .mergeRequest, reviewers { reviewer = try Self.person(call, "reviewer_id", "reviewer_username") }
        labels = call.query("labels").map { $0.split(separator: ",").map { String($0).trimmed } }
        milestone = call.query("milestone")
        let iidValues = call.request.queryPairs.filter { $0.name == "iids[]" || $0.name == "iids" }
        if !iidValues.isEmpty {
            iids = try iidValues.flatMap { $0.value.split(separator: ",") }.map { text in
                guard let iid = Int(text) else { throw GitLabError.invalid("iids") }
                return iid
            }
        }
        after = try Self.time(call, "updated_after")
        before = try Self.time(call, "updated_before")
        createdAfter = try Self.time(call, "created_after")
        createdBefore = try Self.time(call, "created_before")
    }

    private static func person(_ call: Call, _ idName: String, _ usernameName: String) throws -> Person? {
        if let text = call.query(idName) {
            switch text.lowercased() {
            case "none": return Person.none
            case "any": return .any
            default:
                guard let id = Int(text) else { throw GitLabError.invalid(idName) }
                return .user(Directory.user(id: id))
            }
        }
        let username = call.query(usernameName) ?? call.query(usernameName + "[]")
        return username.map { .user(Directory.user(named: $0)) }
    }

    private static func time(_ call: Call, _ name: String) throws -> Int? {
        guard let text = call.query(name) else { return nil }
        guard let time = ISOTime.parse(text) else { throw GitLabError.invalid(name) }
        return time
    }

    func keep(_ item: Item) -> Bool {
        if let assignee, !assignee.keep(item.assignees) { return false }
        if let author, !author.keep([item.author]) { return false }
        if let reviewer, !reviewer.keep(item.reviewers) { return false }
        if let iids, !iids.contains(item.iid) { return false }
        if let labels, !keepLabels(labels, item.labels) { return false }
        if let milestone, !keepMilestone(milestone, item.milestone) { return false }
        if let after, item.updated < after { return false }
        if let before, item.updated > before { return false }
        if let createdAfter, item.created < createdAfter { return false }
        if let createdBefore, item.created > createdBefore { return false }
        return true
    }

    private func keepLabels(_ wanted: [String], _ labels: [String]) -> Bool {
        if wanted.count == 1, wanted[0].lowercased() == "none" { return labels.isEmpty }
        if wanted.count == 1, wanted[0].lowercased() == "any" { return !labels.isEmpty }
        return wanted.allSatisfy { name in labels.contains { $0.lowercased() == name.lowercased() } }
    }

    private func keepMilestone(_ wanted: String, _ milestone: Int?) -> Bool {
        switch wanted.lowercased() {
        case "none": milestone == nil
        case "any": milestone != nil
        default: milestone.flatMap { Directory.milestones[$0] } == wanted
        }
    }
}
