import SimulatorKit

/// What an item offers to a QQL condition, by the field's kind.
enum QQLItemValue {
    /// An author id (author, createdBy, updatedBy).
    case author(Int?)
    /// A user id (a defect's assignee).
    case user(Int?)
    /// Seconds since 1970; QQL compares epoch milliseconds.
    case time(Int?)
    case id(Int)
    /// A status or severity, as a slug (`in_progress`); labels are compared in slug form.
    case text(String)
    case flag(Bool)
}

/// One searchable item: its project, id, the values conditions ask for, and its QQL shape.
struct QQLRow {
    let project: String
    let projectOrder: Int
    let id: Int
    let values: [String: QQLItemValue]
    let render: () -> JSONValue
}

/// A query checked against the entity's fields, ready to match rows.
struct QQLSearch {
    enum Kind { case project, id, user, time, text, flag }

    /// Lower-cased field names each entity accepts, and their kinds (qase-api.md §8; a subset).
    static let entities: [String: [String: Kind]] = [
        "case": [
            "project": .project, "id": .id, "author": .user, "createdby": .user, "updatedby": .user,
            "created": .time, "updated": .time, "status": .text, "severity": .text,
        ],
        "defect": [
            "project": .project, "id": .id, "author": .user, "createdby": .user, "assignee": .user,
            "created": .time, "updated": .time, "resolved": .time, "status": .text, "severity": .text,
            "isresolved": .flag,
        ],
        "plan": ["project": .project, "id": .id, "created": .time, "updated": .time],
        "run": [
            "project": .project, "id": .id, "author": .user, "createdby": .user, "started": .time, "ended": .time,
            "status": .text,
        ],
        "result": [
            "project": .project, "author": .user, "assignee": .user, "createdby": .user, "ended": .time,
            "status": .text, "caseid": .id,
        ],
        "requirement": [
            "project": .project, "id": .id, "author": .user, "createdby": .user, "created": .time,
            "updated": .time,
        ],
    ]

    let entity: String
    let conditions: [QQLCondition]
    let descending: Bool

    /// Checks the query: one `entity = "…"`, known fields, operators and values that fit each field.
    static func compile(_ query: QQLQuery, defectAssignee: Bool) throws -> QQLSearch {
        let entityClauses = query.conditions.filter { $0.field.lowercased() == "entity" }
        guard entityClauses.count == 1, let clause = entityClauses.first, clause.op == .equal,
            case .string(let name) = clause.values.first, let fields = entities[name.lowercased()]
        else { throw QQLError(reason: "one `entity = \"case|defect|plan|run|result|requirement\"` is required") }
        var conditions: [QQLCondition] = []
        for var condition in query.conditions where condition.field.lowercased() != "entity" {
            condition.field = condition.field.lowercased()
            guard let kind = fields[condition.field] else {
                throw QQLError(reason: "\(name) has no field \(condition.field)")
            }
            if name.lowercased() == "defect", condition.field == "assignee", !defectAssignee {
                throw QQLError(reason: "this server has no assignee on defects")
            }
            try check(condition, kind: kind)
            conditions.append(condition)
        }
        return QQLSearch(entity: name.lowercased(), conditions: conditions, descending: query.descending)
    }

    private static func check(_ condition: QQLCondition, kind: Kind) throws {
        let ops: [QQLCondition.Operator]
        let valid: (QQLValue) -> Bool
        switch kind {
        case .project, .text:
            ops = [.equal, .notEqual, .isIn, .notIn]
            valid = { if case .string = $0 { return true } else { return false } }
        case .user:
            ops = [.equal, .notEqual, .isIn, .notIn]
            valid = {
                if case .number = $0 { return false } else if case .bool = $0 { return false } else { return true }
            }
            if condition.values.contains(where: { if case .now = $0 { return true } else { return false } }) {
                throw QQLError(reason: "now() is not a user")
            }
        case .time:
            ops = [.equal, .notEqual, .greater, .greaterOrEqual, .less, .lessOrEqual]
            valid = {
                if case .number = $0 { return true } else if case .now = $0 { return true } else { return false }
            }
        case .id:
            ops = [.equal, .notEqual, .greater, .greaterOrEqual, .less, .lessOrEqual, .isIn, .notIn]
            valid = { if case .number = $0 { return true } else { return false } }
        case .flag:
            ops = [.equal, .notEqual, .isValue, .isNot]
            valid = { if case .bool = $0 { return true } else { return false } }
        }
        guard ops.contains(condition.op), condition.values.allSatisfy(valid) else {
            throw QQLError(reason: "\(condition.field) does not take \(condition.op.rawValue) with that value")
        }
    }

    /// Whether every condition holds for the row, for the user asking (`currentUser()`) at `now` (seconds).
    func matches(_ row: QQLRow, actor: Actor, now: Int) -> Bool {
        conditions.allSatisfy { condition in
            guard condition.field != "project" else {
                return compare(condition, row.project.lowercased()) { value in
                    if case .string(let code) = value { return code.lowercased() }
                    return nil
                }
            }
            guard let item = row.values[condition.field] else { return false }
            return holds(condition, on: item, actor: actor, now: now)
        }
    }

    private func holds(_ condition: QQLCondition, on item: QQLItemValue, actor: Actor, now: Int) -> Bool {
        switch item {
        case .author(let authorID):
            return compare(condition, authorID) { Self.actor(for: $0, current: actor)?.authorID }
        case .user(let userID):
            return compare(condition, userID) { Self.actor(for: $0, current: actor)?.userID }
        case .time(let seconds):
            guard let seconds else { return false }
            return order(condition.op, seconds * 1_000, Self.milliseconds(condition.values[0], now: now))
        case .id(let id):
            if condition.op == .isIn || condition.op == .notIn {
                return compare(condition, id) { if case .number(let number) = $0 { return number } else { return nil } }
            }
            guard case .number(let number) = condition.values[0] else { return false }
            return order(condition.op, id, number)
        case .text(let slug):
            return compare(condition, slug) { value in
                if case .string(let text) = value { return Self.slug(text) }
                return nil
            }
        case .flag(let flag):
            guard case .bool(let wanted) = condition.values[0] else { return false }
            return [.equal, .isValue].contains(condition.op) ? flag == wanted : flag != wanted
        }
    }

    /// `=`, `!=`, `in`, `not in` of an item's value against the condition's values, each resolved by `resolve`.
    /// An unset value (no assignee) equals nothing, so it counts as "not" anything.
    private func compare<T: Equatable>(_ condition: QQLCondition, _ item: T?, resolve: (QQLValue) -> T?) -> Bool {
        let hit = item != nil && condition.values.contains { resolve($0) == item }
        return [.equal, .isIn].contains(condition.op) ? hit : !hit
    }

    private func order(_ op: QQLCondition.Operator, _ left: Int, _ right: Int) -> Bool {
        switch op {
        case .equal: return left == right
        case .notEqual: return left != right
        case .greater: return left > right
        case .greaterOrEqual: return left >= right
        case .less: return left < right
        case .lessOrEqual: return left <= right
        default: return false
        }
    }

    private static func milliseconds(_ value: QQLValue, now: Int) -> Int {
        switch value {
        case .number(let milliseconds): return milliseconds
        case .now(let offset): return (now + offset) * 1_000
        default: return 0
        }
    }

    /// `currentUser()`, a person's display name (`"Eve Engineer"`), or a reporter app as `"Jenkins-reporter"`.
    static func actor(for value: QQLValue, current: Actor) -> Actor? {
        switch value {
        case .currentUser: return current
        case .string(let name):
            if name.lowercased() == "\(Directory.app.name)-reporter".lowercased() { return .app }
            return Directory.people.first { $0.name.lowercased() == name.lowercased() }.map(Actor.person)
        default: return nil
        }
    }

    /// "In progress" and "in_progress" alike.
    static func slug(_ text: String) -> String { text.lowercased().replacing(" ", with: "_") }
}
