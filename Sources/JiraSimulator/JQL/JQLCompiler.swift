/// Turns a parsed query into a predicate over issues, resolving every value (people, projects, statuses, keys,
/// dates) once, so that a search over n issues costs O(n) however long its `key in (…)` list is.
struct JQLCompiler {
    typealias Predicate = (Issue) -> Bool

    let state: JiraState
    /// Who `currentUser()` is.
    let caller: Int

    /// Field aliases, as Jira accepts them.
    static let aliases = [
        "issuekey": "key", "issue": "key", "statuscategory": "statuscategory", "type": "issuetype",
        "fixversion": "fixversion", "watchers": "watcher", "text": "text",
    ]
    static let fields: Set<String> = [
        "assignee", "reporter", "watcher", "creator", "project", "key", "id", "status", "statuscategory",
        "priority", "labels", "updated", "created", "resolution", "issuetype", "fixversion", "summary", "text",
    ]

    static func canonical(_ field: String) throws -> String {
        let name = aliases[field] ?? field
        guard fields.contains(name) else {
            throw JQLError(message: "Field '\(field)' does not exist or you do not have permission to view it.")
        }
        return name
    }

    func compile(_ expression: JQLExpression) throws -> Predicate {
        switch expression {
        case .and(let left, let right):
            let (l, r) = (try compile(left), try compile(right))
            return { l($0) && r($0) }
        case .or(let left, let right):
            let (l, r) = (try compile(left), try compile(right))
            return { l($0) || r($0) }
        case .not(let inner):
            let predicate = try compile(inner)
            return { !predicate($0) }
        case .clause(let clause):
            return try compile(clause)
        }
    }

    private func compile(_ clause: JQLClause) throws -> Predicate {
        let field = try Self.canonical(clause.field)
        if clause.op == .changed { return try changed(field, clause) }
        switch field {
        case "assignee": return try people(clause, field) { $0.assignee.map { [$0] } ?? [] }
        case "reporter": return try people(clause, field) { [$0.reporter] }
        case "creator": return try people(clause, field) { [$0.creator] }
        case "watcher": return try people(clause, field) { $0.watchers }
        case "project":
            return try set(clause, field, resolve: project) { [$0.projectIndex] }
        case "key", "id":
            return try set(clause, field, resolve: { try issueID($0, field) }) { [$0.id] }
        case "status":
            return try set(clause, field, resolve: { try status($0, field) }) { [$0.status] }
        case "statuscategory":
            return try set(clause, field, resolve: { try category($0, field) }) { [$0.status] }
        case "priority":
            return try set(clause, field, resolve: { try named($0, field, Workflow.priorities.map(\.1)) }) {
                [$0.priority.lowercased()]
            }
        case "issuetype":
            return try set(clause, field, resolve: { try named($0, field, Workflow.issueTypes.map(\.1)) }) {
                [$0.issueType.lowercased()]
            }
        case "fixversion":
            return try set(clause, field, resolve: { try named($0, field, Workflow.versions.map(\.1)) }) {
                $0.fixVersions.map { $0.lowercased() }
            }
        case "labels": return try set(clause, field, resolve: { $0.lowercased() }) { $0.labels.map { $0.lowercased() } }
        case "resolution":
            var clause = clause  // `resolution = Unresolved` is `resolution is EMPTY`
            clause.values = clause.values.map { $0 == .text("Unresolved") || $0 == .text("unresolved") ? .empty : $0 }
            return try set(clause, field, resolve: { try resolution($0, field) }) {
                $0.status == Workflow.done ? ["done"] : []
            }
        case "updated": return try dates(clause, field) { $0.updated }
        case "created": return try dates(clause, field) { $0.created }
        default: return try contains(clause, field)
        }
    }

    // MARK: Set-valued fields

    /// `=`, `!=`, `in`, `not in`, `is [not] EMPTY` over a field holding zero or more values. As in Jira, `!=` and
    /// `not in` never match an empty field (`assignee != alice` leaves out unassigned issues).
    private func set<T: Hashable>(
        _ clause: JQLClause, _ field: String, resolve: (String) throws -> T, values: @escaping (Issue) -> [T]
    ) throws -> Predicate {
        let wantsEmpty = clause.values.contains(.empty)
        let wanted = Set(try clause.values.compactMap { value -> T? in
            switch value {
            case .empty: return nil
            case .text(let text): return try resolve(text)
            case .function(let name, _):
                guard name == "currentuser", let own = try? resolve(currentUserValue) else {
                    throw JQLError(message: "Unable to find JQL function '\(name)()'.")
                }
                return own
            }
        })
        switch clause.op {
        case .equal, .isIn, .isValue:
            if clause.op == .isValue && !wantsEmpty { throw unsupported(clause, field) }
            return { issue in
                let have = values(issue)
                return (wantsEmpty && have.isEmpty) || have.contains(where: wanted.contains)
            }
        case .notEqual, .notIn, .isNot:
            if clause.op == .isNot && !wantsEmpty { throw unsupported(clause, field) }
            return { issue in
                let have = values(issue)
                return !have.isEmpty && !have.contains(where: wanted.contains)
            }
        default:
            throw unsupported(clause, field)
        }
    }

    /// What `currentUser()` stands for when resolved as a value: the caller's JQL name.
    private var currentUserValue: String {
        let person = Directory.people[caller]
        return state.flavor == .cloud ? person.accountId : person.handle
    }

    private func people(_ clause: JQLClause, _ field: String, _ values: @escaping (Issue) -> [Int]) throws
        -> Predicate
    {
        try set(clause, field, resolve: { try person($0, field) }, values: values)
    }

    func person(_ text: String, _ field: String) throws -> Int {
        guard let index = Directory.person(named: text, flavor: state.flavor) else {
            throw JQLError(message: "The value '\(text)' does not exist for the field '\(field)'.")
        }
        return index
    }

    func project(_ text: String) throws -> Int {
        let lower = text.lowercased()
        guard let project = state.projects.first(where: {
                $0.key.lowercased() == lower || String($0.id) == text || $0.name.lowercased() == lower
            }),
            state.canSee(caller, project: project.index)
        else { throw JQLError(message: "The value '\(text)' does not exist for the field 'project'.") }
        return project.index
    }

    /// An issue key (a moved issue's old one too) or id; Jira refuses the whole query for one it cannot find.
    private func issueID(_ text: String, _ field: String) throws -> Int {
        guard let slot = try? state.slot(text, for: caller), let issue = state.issues[slot] else {
            throw JQLError(message: "An issue with key '\(text)' does not exist for field '\(field)'.")
        }
        return issue.id
    }

    private func status(_ text: String, _ field: String) throws -> Int {
        let lower = text.lowercased()
        guard let index = Workflow.statuses.firstIndex(where: { $0.name.lowercased() == lower || $0.id == text })
        else { throw JQLError(message: "The value '\(text)' does not exist for the field '\(field)'.") }
        return index
    }

    private func category(_ text: String, _ field: String) throws -> Int {
        let lower = text.lowercased()
        guard let index = Workflow.statuses.firstIndex(where: {
            $0.categoryKey == lower || $0.categoryName.lowercased() == lower || String($0.categoryID) == text
        }) else { throw JQLError(message: "The value '\(text)' does not exist for the field '\(field)'.") }
        return index
    }

    private func named(_ text: String, _ field: String, _ names: [String]) throws -> String {
        guard names.contains(where: { $0.lowercased() == text.lowercased() }) else {
            throw JQLError(message: "The value '\(text)' does not exist for the field '\(field)'.")
        }
        return text.lowercased()
    }

    private func resolution(_ text: String, _ field: String) throws -> String {
        switch text.lowercased() {
        case "done": return "done"
        default: throw JQLError(message: "The value '\(text)' does not exist for the field '\(field)'.")
        }
    }

    func unsupported(_ clause: JQLClause, _ field: String) -> JQLError {
        JQLError(message: "The operator '\(clause.op.rawValue)' is not supported by the '\(field)' field.")
    }
}
