#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SimulatorKit

extension Router {
    // MARK: - Workspace

    func knownFolder(_ id: String, user: String) throws -> String {
        guard id == SimulatorState.publicFolder || id == SimulatorState.personalFolder(of: user)
            || SimulatorState.subfolders[id] != nil
        else {
            throw Failure(status: 404, message: "Folder \(id) not found")
        }
        return id
    }

    func children(of folder: String) -> [SimulatorState.StoredQuery] {
        state.storedQueries.values.filter { $0.folder == folder }.sorted { $0.dbId < $1.dbId }
    }

    func folder(_ id: String, user: String) -> WorkspaceFolder {
        let path = state.path(of: id)
        let isPublic = SimulatorState.isPublic(id)
        let subfolders = SimulatorState.subfolders.filter { $0.value.parent == id }.sorted { $0.key < $1.key }.map { sub in
            WorkspaceItem(folder: sub.key, name: sub.value.name, parentPath: path)
        }
        return WorkspaceFolder(
            name: SimulatorState.subfolders[id]?.name ?? path, dbId: id, dbIdParent: SimulatorState.subfolders[id]?.parent ?? "",
            pathName: path, isWritable: !isPublic,
            children: subfolders + children(of: id).map { WorkspaceItem(query: $0, parentPath: path) })
    }

    func storedQuery(_ id: String, user: String) throws -> SimulatorState.StoredQuery {
        guard let query = state.storedQueries[id],
            query.folder == SimulatorState.publicFolder || query.folder == SimulatorState.personalFolder(of: user)
                || SimulatorState.subfolders[query.folder] != nil
        else { throw Failure(status: 404, message: "Query \(id) not found") }
        return query
    }

    mutating func createStoredQuery(user: String) throws -> SimResponse {
        var definition = try decode(SimQueryDefinition.self)
        guard let name = definition.name, !name.isEmpty else { throw Failure(status: 400, message: "The query needs a name") }
        if state.options.strictQueryNames,
            !name.unicodeScalars.allSatisfy({
                $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == " " || $0 == "_"
            })
        {
            // As ValidateQueryDefName: "characters that are not valid" (which ones is not documented).
            throw Failure(status: 400, message: "The query name \(name) contains characters that are not valid")
        }
        let folder = definition.dbIdParent ?? ""
        if folder == SimulatorState.publicFolder { throw Failure(status: 403, message: "Public Queries is read-only") }
        guard folder == SimulatorState.personalFolder(of: user) else { throw Failure(status: 404, message: "Folder \(folder) not found") }
        guard !children(of: folder).contains(where: { $0.definition.name == name }) else {
            throw Failure(status: 400, message: "A query named \(name) already exists in this folder")
        }
        _ = try QueryEngine.run(definition, over: [], currentUser: user, fullNames: [:])  // validates fields and operators
        let id = state.newDbId()
        definition.dbId = id
        state.storedQueries[id] = SimulatorState.StoredQuery(definition: definition, folder: folder, dbId: id)
        return encoded(201, definition)
    }

    // MARK: - Result sets

    mutating func createResultSet(_ query: SimQueryDefinition, options: ResultSetOptionsBody?, topLevelPageSize: String?,
                                  user: String, token: String) throws -> SimResponse {
        var rows = try QueryEngine.run(query, over: state.sortedDefects, currentUser: user, fullNames: state.fullNames,
                                       history: state.options.history)
        let matching = rows.count
        // The client's own cap or the administrator's limit, whichever cuts first; `resultSetIsLimited` is that
        // limit (a number, not a flag: shared/compass-api.md §7.1 item 18).
        var limited = 0
        for cap in [options?.maxResultSetRows, state.options.rowLimit].compactMap({ $0 }) where cap > 0 && rows.count > cap {
            rows = Array(rows.prefix(cap))
            limited = cap
        }
        let recordCount = limited > 0 && state.options.limitedCountBeforeCut ? matching : rows.count
        var pageSize = options?.pageSize ?? topLevelPageSize.flatMap { Int($0) } ?? state.options.defaultPageSize
        if pageSize < 1 { pageSize = state.options.defaultPageSize }
        if let cap = state.options.pageSizeCap { pageSize = min(pageSize, cap) }
        let id = UUID().uuidString.lowercased()
        state.sessions[token, default: SimulatorState.Session(user: user, expiresAt: Int.max)].resultSets[id] =
            SimulatorState.ResultSet(rows: rows, pageSize: pageSize, replica: replica)
        return encoded(201, ResultSetCreated(
            result_set_id: id,
            columns: query.queryFieldDefs.map { ResultColumn(name: $0.fieldPathName, sortType: $0.sortType ?? "NO_SORT", sortOrder: $0.sortOrder ?? 0) },
            recordCount: recordCount, resultSetIsLimited: limited > 0 && state.options.limitedAsFlag ? 1 : limited))
    }

    /// A page of a result set; `honouringPageNumber: false` answers page 1 whatever was asked.
    mutating func page(of id: String, token: String, honouringPageNumber: Bool = true) throws -> SimResponse {
        guard let resultSet = state.sessions[token]?.resultSets[id] else {
            throw Failure(status: 404, message: "Result set \(id) not found")
        }
        guard resultSet.replica == replica else {
            // Another replica's result set: this one never heard of it.
            state.replicaMisses += 1
            throw Failure(status: 404, message: "Result set \(id) not found")
        }
        let number = honouringPageNumber ? max(1, Int(request.query["pageNumber"] ?? "1") ?? 1) : 1
        let start = (number - 1) * resultSet.pageSize
        var rows = start < resultSet.rows.count ? Array(resultSet.rows[start..<min(start + resultSet.pageSize, resultSet.rows.count)]) : []
        if !rows.isEmpty, state.consumeShortPage(route: routeName) { rows.removeLast() }
        let pages = (resultSet.rows.count + resultSet.pageSize - 1) / resultSet.pageSize
        return encoded(200, ResultPage(
            rows: rows.map { PageRow(dbId: $0.dbid, displayName: $0.displayName, values: $0.values) },
            pageNumber: number, totalNumberOfPages: pages, totalNumberOfRecords: resultSet.rows.count))
    }

    /// The whole result set as CSV, as HCL's Node-RED client reads it: a header line with the column names, then
    /// one line per row; RFC 4180 quoting, CRLF line ends.
    func file(of id: String, query: SimQueryDefinition, token: String) throws -> SimResponse {
        guard state.options.csvRoute else { throw Failure(status: 404, message: "No endpoint \(request.method) \(request.path)") }
        guard (request.query["fileType"] ?? "csv").lowercased() == "csv" else {
            throw Failure(status: 400, message: "Unsupported fileType \(request.query["fileType"] ?? "")")
        }
        guard let resultSet = state.sessions[token]?.resultSets[id] else {
            throw Failure(status: 404, message: "Result set \(id) not found")
        }
        func line(_ fields: [String]) -> String {
            fields.map { field in
                field.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
                    ? "\"" + field.replacing("\"", with: "\"\"") + "\"" : field
            }.joined(separator: ",") + "\r\n"
        }
        var text = line(query.queryFieldDefs.map(\.fieldPathName))
        for row in resultSet.rows { text += line(row.values) }
        var response = SimResponse(status: 200, body: Array(text.utf8))
        response.headers.append(("Content-Type", "text/csv; charset=UTF-8"))
        return response
    }
}

// MARK: - JSON bodies

struct ResultSetOptionsBody: Decodable {
    var pageSize: Int?
    var maxResultSetRows: Int?

    enum CodingKeys: String, CodingKey { case pageSize, maxResultSetRows }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Clients send numbers or numeric strings.
        func number(_ key: CodingKeys) -> Int? {
            if let value = try? container.decodeIfPresent(Int.self, forKey: key) { return value }
            return (try? container.decodeIfPresent(String.self, forKey: key))?.flatMap { Int($0) }
        }
        pageSize = number(.pageSize)
        maxResultSetRows = number(.maxResultSetRows)
    }
}

struct AdHocBody: Decodable {
    let queryDef: SimQueryDefinition
    let resultSetOptions: ResultSetOptionsBody?
}

struct ResultSetBody: Decodable {
    let resultSetOptions: ResultSetOptionsBody?
    let pageSize: String?
}

struct ResultColumn: Encodable {
    let name: String
    let sortType: String
    let sortOrder: Int
    let dataType = "PD_C_CHAR"
}

struct ResultSetCreated: Encodable {
    let result_set_id: String
    let columns: [ResultColumn]
    let recordCount: Int
    let resultSetIsLimited: Int
    let sql = "select distinct T1.dbid from Defect T1"
    let queryLimitHard = 0
    let queryLimitSoft = 0
}

struct PageRow: Encodable {
    let dbId: String
    let displayName: String
    let values: [String]
}

/// The paging keys are not documented; these names are the simulator's invention.
struct ResultPage: Encodable {
    let rows: [PageRow]
    let pageNumber: Int
    let totalNumberOfPages: Int
    let totalNumberOfRecords: Int
}

struct WorkspaceItem: Encodable {
    let name: String
    let dbId: String
    let workspaceItemType: String
    let pathName: String

    init(query: SimulatorState.StoredQuery, parentPath: String) {
        name = query.definition.name ?? ""
        dbId = query.dbId
        workspaceItemType = "WORKSPACE_QUERY"
        pathName = parentPath + "/" + name
    }

    init(folder: String, name: String, parentPath: String) {
        self.name = name
        dbId = folder
        workspaceItemType = "WORKSPACE_FOLDER"
        pathName = parentPath + "/" + name
    }
}

struct WorkspaceFolder: Encodable {
    let name: String
    let dbId: String
    let dbIdParent: String
    let pathName: String
    let masterReplicaName = "<local>"
    let workspaceItemType = "WORKSPACE_FOLDER"
    let isReadable = true
    let isWritable: Bool
    let children: [WorkspaceItem]
}

struct ErrorBody: Encodable {
    let timestamp: String
    let status: Int
    let error: String
    let message: String
    let path: String
}

struct NamedItem: Encodable {
    let name: String
}

struct RepoWithDatabases: Encodable {
    let name = SampleSchema.repo
    let databaseNames = [SampleSchema.database]
}

struct DatabaseDetail: Encodable {
    let name = "Sample Database"
    let description = "compass-sim's SAMPL database."
    let isMaster = false
    let entityDefNames = ["Defect"]
    let entityDefNamesForSubmit = ["Defect"]
    let entityDefFamilyNames: [String] = []
}

struct Stats: Encodable {
    struct Query: Encodable {
        let folder: String
        let name: String
    }

    let requests: Int
    let logins: Int
    let loginFailures: Int
    let logoffs: Int
    let liveTokens: Int
    let requestsByRoute: [String: Int]
    let storedQueries: [Query]
    let replicaMisses: Int
    let foreignCookies: Int
    let refusedForMediaType: Int

    init(state: SimulatorState) {
        replicaMisses = state.replicaMisses
        foreignCookies = state.foreignCookies
        refusedForMediaType = state.refusedForMediaType
        requests = state.requests
        logins = state.logins
        loginFailures = state.loginFailures
        logoffs = state.logoffs
        liveTokens = state.sessions.values.filter { $0.expiresAt > state.clock.now }.count
        requestsByRoute = state.requestsByRoute
        storedQueries = state.storedQueries.values.filter { !SimulatorState.isPublic($0.folder) }.map { query in
            let owner = SampleSchema.users.first { SimulatorState.personalFolder(of: $0.login) == query.folder }?.login ?? "?"
            return Query(folder: "\(state.rootName(personal: true))/\(owner)", name: query.definition.name ?? "")
        }.sorted { $0.name < $1.name }
    }
}
