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
    let resultSetID: String
    let recordCount: Int?
    let resultSetIsLimited: Int?

    enum CodingKeys: String, CodingKey {
        case resultSetID = "result_set_id", recordCount, resultSetIsLimited
    }
}

struct WorkspaceItem: Decodable {
    let name: String
    let dbId: String
    let workspaceItemType: String?
    let children: [WorkspaceItem]?
}

struct StoredQuery: Decodable {
    let dbId: String
    let name: String?
}
