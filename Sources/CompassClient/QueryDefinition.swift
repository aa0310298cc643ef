import TrackwatchCore

/// A Compass QueryDef as the REST API takes it (`POST …/query`, `POST …/workspace/queryDefs`).
public struct QueryDefinition: Codable, Equatable, Sendable {
    public var name: String?
    public var dbId: String?
    public var dbIdParent: String?
    public var primaryEntityDefName: String
    public var queryFieldDefs: [QueryFieldDefinition]
    public var filterNode: FilterNode

    public init(
        name: String? = nil, dbIdParent: String? = nil, primaryEntityDefName: String,
        queryFieldDefs: [QueryFieldDefinition], filterNode: FilterNode
    ) {
        self.name = name
        self.dbId = name == nil ? nil : ""
        self.dbIdParent = dbIdParent
        self.primaryEntityDefName = primaryEntityDefName
        self.queryFieldDefs = queryFieldDefs
        self.filterNode = filterNode
    }

    /// The column names in result order: rows' `values` follow `queryFieldDefs`.
    public var columns: [String] { queryFieldDefs.map(\.fieldPathName) }
}

public struct QueryFieldDefinition: Codable, Equatable, Sendable {
    public enum SortType: String, Codable, Sendable {
        case none = "NO_SORT", ascending = "SORT_ASC", descending = "SORT_DESC"
    }

    public var fieldPathName: String
    public var isShown: Bool
    public var sortType: SortType
    public var sortOrder: Int

    public init(_ fieldPathName: String, sort: SortType = .none, sortOrder: Int = 0) {
        self.fieldPathName = fieldPathName
        self.isShown = true
        self.sortType = sort
        self.sortOrder = sortOrder
    }
}

public struct FilterNode: Codable, Equatable, Sendable {
    public enum BoolOp: String, Codable, Sendable { case and = "BOOL_OP_AND", or = "BOOL_OP_OR" }

    public var boolOp: BoolOp
    public var fieldFilters: [FieldFilter]
    public var childFilterNodes: [FilterNode]

    public init(_ boolOp: BoolOp = .and, _ fieldFilters: [FieldFilter], children: [FilterNode] = []) {
        self.boolOp = boolOp
        self.fieldFilters = fieldFilters
        self.childFilterNodes = children
    }
}

public struct FieldFilter: Codable, Equatable, Sendable {
    /// The REST spelling of Compass's CompOp constants.
    public enum Operator: String, Codable, Sendable {
        case equal = "COMP_OP_EQ", notEqual = "COMP_OP_NEQ"
        case less = "COMP_OP_LT", lessOrEqual = "COMP_OP_LTE"
        case greater = "COMP_OP_GT", greaterOrEqual = "COMP_OP_GTE"
        case like = "COMP_OP_LIKE", notLike = "COMP_OP_NOT_LIKE"
        case between = "COMP_OP_BETWEEN", notBetween = "COMP_OP_NOT_BETWEEN"
        case isNull = "COMP_OP_IS_NULL", isNotNull = "COMP_OP_IS_NOT_NULL"
        case inSet = "COMP_OP_IN", notInSet = "COMP_OP_NOT_IN"
    }

    public var fieldPath: String
    public var compOp: Operator
    public var values: [String]

    public init(_ fieldPath: String, _ compOp: Operator, _ values: [String]) {
        self.fieldPath = fieldPath
        self.compOp = compOp
        self.values = values
    }
}

extension QueryDefinition {
    /// This query in id order, from just after `id`: the `id` column sorted ascending before any other sort key,
    /// and `id GT id` added to the filter. Reads a result too large for the server's row limit in batches, each
    /// under the limit: the next batch starts after the last id of the one before.
    public func inIDOrder(after id: String?) -> QueryDefinition {
        var query = self
        query.queryFieldDefs = queryFieldDefs.map { field in
            var field = field
            if field.fieldPathName == "id" {
                field.sortType = .ascending
                field.sortOrder = 1
            } else if field.sortType != .none {
                field.sortOrder = max(field.sortOrder, 1) + 1
            }
            return field
        }
        guard let id else { return query }
        let after = FieldFilter("id", .greater, [id])
        if filterNode.boolOp == .and {
            query.filterNode.fieldFilters.append(after)
        } else {
            query.filterNode = FilterNode(.and, [after], children: [filterNode])
        }
        return query
    }
}
