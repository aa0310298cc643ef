/// The QueryDef JSON compass-sim accepts (its own types: the simulator must not share the client's mistakes).
public struct SimQueryDefinition: Codable, Sendable {
    public var name: String?
    public var dbId: String?
    public var dbIdParent: String?
    public var primaryEntityDefName: String
    public var queryFieldDefs: [SimFieldDefinition]
    public var filterNode: SimFilterNode?
}

public struct SimFieldDefinition: Codable, Sendable {
    public var fieldPathName: String
    public var isShown: Bool?
    public var sortType: String?
    public var sortOrder: Int?
}

public struct SimFilterNode: Codable, Sendable {
    public var boolOp: String?
    public var fieldFilters: [SimFieldFilter]?
    public var childFilterNodes: [SimFilterNode]?
}

public struct SimFieldFilter: Codable, Sendable {
    public var fieldPath: String
    public var compOp: String
    public var values: [String]?
}

/// A query failed validation: reported as HTTP 400 with this message.
public struct QueryError: Error, Sendable {
    public let message: String
}

/// One result row: the record and its values in column order.
public struct ResultRow: Sendable {
    public let dbid: String
    public let displayName: String
    public let values: [String]
}

/// Runs a QueryDef over the Defect table. A query that mentions `history.*` in a column or a filter joins
/// the history: one row per (record, history entry) pair, with history filters applied to that entry.
public enum QueryEngine {
    static let historyFields = ["history.action_name", "history.action_timestamp", "history.user_name",
                                "history.old_state", "history.new_state"]
    static let operators = ["COMP_OP_EQ", "COMP_OP_NEQ", "COMP_OP_LT", "COMP_OP_LTE", "COMP_OP_GT", "COMP_OP_GTE",
                            "COMP_OP_LIKE", "COMP_OP_NOT_LIKE", "COMP_OP_BETWEEN", "COMP_OP_NOT_BETWEEN",
                            "COMP_OP_IS_NULL", "COMP_OP_IS_NOT_NULL", "COMP_OP_IN", "COMP_OP_NOT_IN"]
    static let maximumDepth = 32

    public static func run(_ query: SimQueryDefinition, over defects: [Defect], currentUser: String,
                           fullNames: [String: String], history clock: HistoryClock = HistoryClock()) throws -> [ResultRow] {
        guard query.primaryEntityDefName.lowercased() == "defect" else {
            throw QueryError(message: "Unknown record type \(query.primaryEntityDefName)")
        }
        let columns = query.queryFieldDefs.map(\.fieldPathName)
        var paths = columns
        if let node = query.filterNode { try collectPaths(node, into: &paths, depth: 0) }
        for path in paths where !isKnown(path) { throw QueryError(message: "Unknown field path \(path)") }
        let joinsHistory = paths.contains { $0.hasPrefix("history.") }
        var rows: [(Defect, HistoryRow?)] = []
        for defect in defects {
            if joinsHistory {
                for entry in defect.history { rows.append((defect, entry)) }
            } else {
                rows.append((defect, nil))
            }
        }
        let context = Context(currentUser: currentUser, fullNames: fullNames, clock: clock)
        if let node = query.filterNode {
            rows = rows.filter { context.matches(node, $0.0, $0.1) }
        }
        rows = sorted(rows, by: query.queryFieldDefs, context: context)
        return rows.map { defect, entry in
            ResultRow(dbid: defect.dbid, displayName: defect.id,
                      values: columns.map { context.value($0, defect, entry) ?? "" })
        }
    }

    static func isKnown(_ path: String) -> Bool {
        SampleSchema.fieldNames.contains(path) || historyFields.contains(path)
            || ["Owner.fullname", "Submitter.fullname", "Owner.login_name", "Submitter.login_name"].contains(path)
    }

    static func collectPaths(_ node: SimFilterNode, into paths: inout [String], depth: Int) throws {
        guard depth < maximumDepth else { throw QueryError(message: "Filter nodes nested too deeply") }
        for filter in node.fieldFilters ?? [] {
            guard operators.contains(filter.compOp) else { throw QueryError(message: "Unknown compOp \(filter.compOp)") }
            paths.append(filter.fieldPath)
        }
        for child in node.childFilterNodes ?? [] { try collectPaths(child, into: &paths, depth: depth + 1) }
    }

    /// Sort keys: fields with a sort type, by `sortOrder` (0 = after the numbered ones); ties by record id.
    static func sorted(_ rows: [(Defect, HistoryRow?)], by fields: [SimFieldDefinition], context: Context)
        -> [(Defect, HistoryRow?)]
    {
        let keys = fields.enumerated()
            .filter { $0.element.sortType == "SORT_ASC" || $0.element.sortType == "SORT_DESC" }
            .sorted { (($0.element.sortOrder ?? 0) == 0 ? Int.max : $0.element.sortOrder!, $0.offset)
                < (($1.element.sortOrder ?? 0) == 0 ? Int.max : $1.element.sortOrder!, $1.offset) }
            .map(\.element)
        return rows.sorted { left, right in
            for key in keys {
                let a = context.compared(key.fieldPathName, left.0, left.1)
                let b = context.compared(key.fieldPathName, right.0, right.1)
                if a != b { return key.sortType == "SORT_DESC" ? Context.less(b, a) : Context.less(a, b) }
            }
            return left.0.number < right.0.number
        }
    }

    struct Context {
        let currentUser: String
        let fullNames: [String: String]
        let clock: HistoryClock

        /// What filters and sorting compare: for the history timestamp its stored form, not the printed one.
        func compared(_ path: String, _ defect: Defect, _ entry: HistoryRow?) -> String {
            if path == "history.action_timestamp" { return entry.map { clock.stored($0.timestamp) } ?? "" }
            return value(path, defect, entry) ?? ""
        }

        func value(_ path: String, _ defect: Defect, _ entry: HistoryRow?) -> String? {
            switch path {
            case "id": return defect.id
            case "dbid": return defect.dbid
            case "Owner.fullname": return fullNames[defect.fields["Owner"] ?? ""] ?? ""
            case "Submitter.fullname": return fullNames[defect.fields["Submitter"] ?? ""] ?? ""
            case "Owner.login_name": return defect.fields["Owner"]
            case "Submitter.login_name": return defect.fields["Submitter"]
            case "history.action_name": return entry?.action
            case "history.action_timestamp": return entry.map { clock.printed($0.timestamp) }
            case "history.user_name": return entry?.user
            case "history.old_state": return entry?.oldState
            case "history.new_state": return entry?.newState
            default: return defect.fields[path]
            }
        }

        func matches(_ node: SimFilterNode, _ defect: Defect, _ entry: HistoryRow?) -> Bool {
            let results = (node.fieldFilters ?? []).map { matches($0, defect, entry) }
                + (node.childFilterNodes ?? []).map { matches($0, defect, entry) }
            if results.isEmpty { return true }
            return node.boolOp == "BOOL_OP_OR" ? results.contains(true) : !results.contains(false)
        }

        func matches(_ filter: SimFieldFilter, _ defect: Defect, _ entry: HistoryRow?) -> Bool {
            let actual = compared(filter.fieldPath, defect, entry)
            var values = (filter.values ?? []).map { $0 == "[CURRENT_USER]" ? currentUser : $0 }
            if filter.fieldPath == "history.action_timestamp" {
                if clock.ignoresFilter { return true }
                values = values.map(clock.storedValue(ofFilter:))
            }
            let first = values.first ?? ""
            switch filter.compOp {
            case "COMP_OP_EQ": return Self.compare(actual, first) == 0
            case "COMP_OP_NEQ": return Self.compare(actual, first) != 0
            case "COMP_OP_LT": return Self.compare(actual, first) < 0
            case "COMP_OP_LTE": return Self.compare(actual, first) <= 0
            case "COMP_OP_GT": return Self.compare(actual, first) > 0
            case "COMP_OP_GTE": return Self.compare(actual, first) >= 0
            case "COMP_OP_LIKE": return actual.lowercased().contains(first.lowercased())
            case "COMP_OP_NOT_LIKE": return !actual.lowercased().contains(first.lowercased())
            case "COMP_OP_BETWEEN", "COMP_OP_NOT_BETWEEN":
                guard values.count >= 2 else { return false }
                let inside = Self.compare(actual, values[0]) >= 0 && Self.compare(actual, values[1]) <= 0
                return filter.compOp == "COMP_OP_BETWEEN" ? inside : !inside
            case "COMP_OP_IS_NULL": return actual.isEmpty
            case "COMP_OP_IS_NOT_NULL": return !actual.isEmpty
            case "COMP_OP_IN": return values.contains { Self.compare(actual, $0) == 0 }
            case "COMP_OP_NOT_IN": return !values.contains { Self.compare(actual, $0) == 0 }
            default: return false
            }
        }

        /// As numbers when both sides are integers, otherwise as strings (timestamps order correctly).
        static func compare(_ a: String, _ b: String) -> Int {
            if let x = Int(a), let y = Int(b) { return x < y ? -1 : x > y ? 1 : 0 }
            return a < b ? -1 : a > b ? 1 : 0
        }

        static func less(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }
    }
}
