import TrackwatchCore

// JSON bodies of the Compass REST API (shared/compass-api.md §2–§4). Decoding is tolerant: only what the
// client uses is required, everything the documentation marks as inferred is optional.

struct LoginRequest: Encodable {
    let username: String
    let password: String
    let repo: String
    let db: String
}

struct LoginResponse: Decodable {
    let token: String
}

struct ErrorBody: Decodable {
    let message: String?
    let error: String?
}

struct ResultSetOptions: Encodable {
    let pageSize: Int
    let enableRecordCount = true
    let convertToLocalTime = false
    let maxResultSetRows: Int?
}

struct AdHocQueryRequest: Encodable {
    let queryDef: QueryDefinition
    let resultSetOptions: ResultSetOptions
}

struct ResultSetRequest: Encodable {
    let resultSetOptions: ResultSetOptions
}

struct ResultSetCreated: Decodable {
    struct Column: Decodable {
        let name: String
    }

    let resultSetID: String
    let recordCount: Int?
    let resultSetIsLimited: Int?
    /// The result's columns, in row-value order (documented; a saved query's columns come from here).
    let columns: [Column]?

    enum CodingKeys: String, CodingKey {
        case resultSetID = "result_set_id", recordCount, resultSetIsLimited, columns
    }
}

struct WorkspaceItem: Decodable {
    let name: String
    let dbId: String
    let workspaceItemType: String?
    /// The full slash-separated path; some servers match root folders by it.
    let pathName: String?
    let children: [WorkspaceItem]?
    /// Whether the logged-in user may write in it: of the two root folders, Personal Queries is.
    let isWritable: Bool?

    var isQuery: Bool { workspaceItemType == "WORKSPACE_QUERY" }
}

/// The display fields of a stored query (`GET …/workspace/queryDefs/{id}`); everything else is ignored.
struct SavedQueryColumns: Decodable {
    struct Field: Decodable {
        let fieldPathName: String
    }

    let queryFieldDefs: [Field]
}

struct StoredQuery: Decodable {
    let dbId: String
    let name: String?
}
