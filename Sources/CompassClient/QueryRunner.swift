import TrackwatchCore

/// How the server runs queries. Learned on the first query and remembered for the process.
public enum QueryMode: String, Sendable {
    /// `POST …/query` + `GET …/query/{id}?pageNumber=N` (DevOps Plan, later Compass builds).
    case adHoc
    /// A query stored in Personal Queries, run through result sets (every Compass 2.x).
    case stored
}

/// How a query is kept on a server without ad-hoc queries.
public enum StoredQueryLifetime: Sendable {
    /// Created once under its name and reused on later polls (a fixed filter).
    case reused
    /// Created for one run and deleted afterwards (a filter that changes every poll).
    case temporary
}

extension CompassClient {
    /// The mode learned so far, `nil` before the first query.
    public var supportedQueryMode: QueryMode? { queryMode }

    /// Starts with a mode learned earlier (persisted by the caller), skipping the probe.
    public func assume(_ mode: QueryMode) { queryMode = mode }

    /// Runs `query` and returns every row's values in column order. The result is complete or this throws.
    public func run(
        _ query: QueryDefinition, storedAs name: String, lifetime: StoredQueryLifetime, pageSize: Int, maxRows: Int? = nil
    ) throws -> [[String]] {
        try run(query, storedAs: name, lifetime: lifetime, pageSize: pageSize, maxRows: maxRows) { $0 }
    }

    /// Runs `query` and turns each result page's rows into elements as the page arrives, so that only one
    /// page of raw rows is held at a time (at 100,000 records, all raw rows at once were ~30 MB beside the
    /// records made from them). The result is complete or this throws; errors of `transform` are rethrown.
    /// Without `maxRows`, a result the server limits or does not page is read another way (ResultReader.swift).
    public func run<Element>(
        _ query: QueryDefinition, storedAs name: String, lifetime: StoredQueryLifetime, pageSize: Int, maxRows: Int? = nil,
        transform: ([[String]]) throws -> [Element]
    ) throws -> [Element] {
        let request = ResultRequest(
            query: query, lifetime: lifetime,
            expected: ResultExpectation(name: name, pageSize: pageSize, maxRows: maxRows, shape: ResultShape(query)))
        let renewals = sessionRenewals
        do {
            return try runWhole(request, transform)
        } catch CompassError.server(status: 404, _, _, _) where sessionRenewals != renewals {
            // The token expired while paging: a result set belongs to the session that made it, so after the
            // new login its pages are gone. Run the query again, once, in the new session.
            logger.info("result set lost with the expired session; running the query again")
            return try runWhole(request, transform)
        }
    }

    /// Creates a result set for `query` (ad hoc, or through a stored query) and reads it with `read` while the
    /// stored query exists.
    func runOnce<Result>(
        _ query: QueryDefinition, name: String, lifetime: StoredQueryLifetime, options: ResultSetOptions,
        read: (ResultSetHandle) throws -> Result
    ) throws -> Result {
        if queryMode != .stored {
            if let result = try runAdHoc(query, options: options, read: read) {
                if queryMode == nil { logger.info("server runs ad-hoc queries") }
                queryMode = .adHoc
                return result
            }
            logger.notice("server has no ad-hoc query endpoint; using stored queries in Personal Queries")
            queryMode = .stored
        }
        return try runStored(query, name: name, lifetime: lifetime, options: options, read: read)
    }

    /// `nil` when the server does not have the endpoint (404/405).
    private func runAdHoc<Result>(
        _ query: QueryDefinition, options: ResultSetOptions, read: (ResultSetHandle) throws -> Result
    ) throws -> Result? {
        let response = try send(.adHocQuery, method: .post, body: AdHocQueryRequest(queryDef: query, resultSetOptions: options))
        if queryMode == nil, response.status == 404 || response.status == 405 { return nil }
        try expectSuccess(response, .adHocQuery)
        let created = try decode(ResultSetCreated.self, from: response, .adHocQuery)
        return try read(ResultSetHandle(
            created: created, path: .adHoc, page: { .adHocResultPage(resultSetID: created.resultSetID, page: $0) },
            file: nil, session: sessionRenewals))
    }

    private func runStored<Result>(
        _ query: QueryDefinition, name: String, lifetime: StoredQueryLifetime, options: ResultSetOptions,
        read: (ResultSetHandle) throws -> Result
    ) throws -> Result {
        let queryID = try storedQuery(query, name: name, lifetime: lifetime)
        defer { if lifetime == .temporary { deleteStoredQuery(id: queryID, name: name) } }
        let response = try send(.resultSets(queryID: queryID), method: .post, body: ResultSetRequest(resultSetOptions: options))
        if response.status == 404, lifetime == .reused {
            // Someone deleted our stored query since we cached its id: make it again, once.
            storedQueryIDs[name] = nil
            return try runStored(query, name: name, lifetime: lifetime, options: options, read: read)
        }
        try expectSuccess(response, .resultSets(queryID: queryID))
        let created = try decode(ResultSetCreated.self, from: response, .resultSets(queryID: queryID))
        return try read(storedResultSet(created, queryID: queryID))
    }

    func storedResultSet(_ created: ResultSetCreated, queryID: String) -> ResultSetHandle {
        ResultSetHandle(
            created: created, path: .stored,
            page: { .resultSetPage(queryID: queryID, resultSetID: created.resultSetID, page: $0) },
            file: .resultSetFile(queryID: queryID, resultSetID: created.resultSetID), session: sessionRenewals)
    }

    /// The id of the stored query `name`, creating it in Personal Queries if needed. A temporary query left
    /// behind by an interrupted run is deleted first, so that the name is free and nothing accumulates.
    private func storedQuery(_ query: QueryDefinition, name: String, lifetime: StoredQueryLifetime) throws -> String {
        if lifetime == .reused, let id = storedQueryIDs[name] { return id }
        let folder = try personalFolder()
        let existing = try queriesInFolder(folder).first { $0.name == name }
        if let existing, lifetime == .reused {
            storedQueryIDs[name] = existing.dbId
            return existing.dbId
        }
        if let existing { deleteStoredQuery(id: existing.dbId, name: name) }
        var definition = query
        definition.name = name
        definition.dbId = ""
        definition.dbIdParent = folder
        let response = try send(.queryDefinitions, method: .post, body: definition)
        try expectSuccess(response, .queryDefinitions)
        let id = try decode(StoredQuery.self, from: response, .queryDefinitions).dbId
        if lifetime == .reused { storedQueryIDs[name] = id }
        logger.debug("stored query created", metadata: ["name": "\(name)"])
        return id
    }

    private func personalFolder() throws -> String {
        if let personalFolderID { return personalFolderID }
        let response = try send(.folders, method: .get)
        try expectSuccess(response, .folders)
        let roots = try decode([WorkspaceItem].self, from: response, .folders)
        guard let folder = roots.first(where: { $0.name == "Personal Queries" }) else {
            throw CompassError.invalidResponse(endpoint: "workspace folders", detail: "no Personal Queries folder")
        }
        personalFolderID = folder.dbId
        return folder.dbId
    }

    private func queriesInFolder(_ folder: String) throws -> [StoredQuery] {
        let endpoint = CompassEndpoint.folderQueryDefinitions(folderID: folder)
        let response = try send(endpoint, method: .get)
        try expectSuccess(response, endpoint)
        return try decode([StoredQuery].self, from: response, endpoint)
    }

    private func deleteStoredQuery(id: String, name: String) {
        do {
            let response = try send(.queryDefinition(id: id), method: .delete)
            if !(200..<300).contains(response.status) && response.status != 404 {
                logger.warning("could not delete stored query", metadata: ["name": "\(name)", "status": "\(response.status)"])
            }
        } catch {
            logger.warning("could not delete stored query", metadata: ["name": "\(name)", "error": "\(error)"])
        }
    }
}
