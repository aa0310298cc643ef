import TrackerHTTP
import TrackwatchCore

/// The route by which the server runs queries.
public enum QueryPath: String, Sendable {
    /// `POST …/query` + `GET …/query/{id}?pageNumber=N` (DevOps Plan, later Compass builds).
    case adHoc = "ad-hoc"
    /// A query stored in Personal Queries, run through result sets (every Compass 2.x).
    case stored
}

/// What the server answered to `POST …/query` when it would not run an ad-hoc query. Servers without the
/// endpoint are documented to say nothing in particular: 404 and 405 are the obvious answers, but 400, 500,
/// 501 and a 200 HTML page from a web front end are all plausible (compass-api.md §7.1, 21).
public enum AdHocRefusal: Equatable, Sendable, CustomStringConvertible {
    case status(Int)
    /// A 2xx answer that is an HTML page.
    case htmlPage(status: Int)

    init?(_ response: HTTPResponse) {
        switch response.status {
        case 400, 404, 405, 500, 501: self = .status(response.status)
        case 200..<300 where Self.isHTML(response): self = .htmlPage(status: response.status)
        default: return nil
        }
    }

    /// 404, 405 and 501 say "no such endpoint" and are believed for the life of the process; 400, 500 and an
    /// HTML page may be a passing fault of a server that has it, so the endpoint is tried again later.
    var isDefinitive: Bool {
        if case .status(let status) = self { return status == 404 || status == 405 || status == 501 }
        return false
    }

    public var description: String {
        switch self {
        case .status(let status): return "HTTP \(status)"
        case .htmlPage(let status): return "an HTML page (HTTP \(status))"
        }
    }

    private static func isHTML(_ response: HTTPResponse) -> Bool {
        if response.header("content-type")?.lowercased().contains("html") == true { return true }
        // Whitespace and a UTF-8 byte order mark may come first.
        let start = response.body.prefix(512).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return start.first == UInt8(ascii: "<")
    }
}

/// Which query path is in use, learned by the first query of the process. Never persisted: a server upgraded
/// to have `/query`, or a passing failure at the first try, must not decide for good; a restart tries again.
struct QueryPathMemory {
    /// How long a stored path chosen after an ambiguous refusal holds before `/query` is tried again.
    static let retryAfterAmbiguousRefusal: Double = 3_600

    var path: QueryPath?
    /// `/query` ran a query in this process: the server has it.
    var adHocWorked = false
    /// On the stored path: when to try `/query` again (`nil`: not in this process).
    var retryAdHocAt: Double?
    /// The last refusal seen (for `probe` and the log).
    var refusal: AdHocRefusal?

    func shouldTryAdHoc(now: Double) -> Bool {
        guard path == .stored else { return true }
        return retryAdHocAt.map { now >= $0 } ?? false
    }

    /// After a refusal: the stored path, and when `/query` deserves another try. A server that ran ad-hoc
    /// queries before is having a bad moment (its next query tries `/query` again, unless the answer said the
    /// endpoint is gone); a server that never did is asked again after an hour if the answer was ambiguous.
    mutating func refused(_ refusal: AdHocRefusal, now: Double) {
        self.refusal = refusal
        path = .stored
        switch (adHocWorked, refusal.isDefinitive) {
        case (true, false): retryAdHocAt = now
        case (true, true), (false, false): retryAdHocAt = now + Self.retryAfterAmbiguousRefusal
        case (false, true): retryAdHocAt = nil
        }
    }
}

/// How a query is kept on a server without ad-hoc queries.
public enum StoredQueryLifetime: Sendable {
    /// Created once under its name and reused on later polls (a fixed filter).
    case reused
    /// Created for one run and deleted afterwards (a filter that changes every poll).
    case temporary
}

extension CompassClient {
    /// The query path in use, `nil` before the first query.
    public var queryPath: QueryPath? { queryPathMemory.path }

    /// How the server last refused an ad-hoc query, if it did.
    public var adHocRefusal: AdHocRefusal? { queryPathMemory.refusal }

    /// Starts on `path` without trying the other (tests and the fuzzer reach the stored path with it).
    public func assume(_ path: QueryPath) { queryPathMemory.path = path }

    /// Runs `query` and returns every row's values in column order. The result is complete or this throws.
    public func run(
        _ query: QueryDefinition, storedAs name: String, lifetime: StoredQueryLifetime, pageSize: Int, maxRows: Int? = nil
    ) async throws -> [[String]] {
        try await run(query, storedAs: name, lifetime: lifetime, pageSize: pageSize, maxRows: maxRows) { $0 }
    }

    /// Runs `query` and turns each result page's rows into elements as the page arrives, so that only one
    /// page of raw rows is held at a time (at 100,000 records, all raw rows at once were ~30 MB beside the
    /// records made from them). The result is complete or this throws; errors of `transform` are rethrown.
    /// Without `maxRows`, a result the server limits or does not page is read another way (ResultReader.swift).
    public func run<Element>(
        _ query: QueryDefinition, storedAs name: String, lifetime: StoredQueryLifetime, pageSize: Int, maxRows: Int? = nil,
        transform: ([[String]]) throws -> [Element]
    ) async throws -> [Element] {
        let request = ResultRequest(
            query: query, lifetime: lifetime,
            expected: ResultExpectation(name: name, pageSize: pageSize, maxRows: maxRows, shape: ResultShape(query)))
        let renewals = sessionRenewals
        do {
            return try await runWhole(request, transform)
        } catch CompassError.server(status: 404, _, _, _) where sessionRenewals != renewals {
            // The token expired while paging: a result set belongs to the session that made it, so after the
            // new login its pages are gone. Run the query again, once, in the new session.
            logger.info("result set lost with the expired session; running the query again")
            return try await runWhole(request, transform)
        }
    }

    /// Creates a result set for `query` (ad hoc, or through a stored query) and reads it with `read` while the
    /// stored query exists. A refused ad-hoc query leaves nothing half read: the whole query runs on the stored
    /// path then.
    func runOnce<Result>(
        _ query: QueryDefinition, name: String, lifetime: StoredQueryLifetime, options: ResultSetOptions,
        read: (ResultSetHandle) async throws -> Result
    ) async throws -> Result {
        if queryPathMemory.shouldTryAdHoc(now: now()) {
            let before = queryPathMemory.path
            switch try await runAdHoc(query, options: options, read: read) {
            case .result(let result):
                queryPathMemory.path = .adHoc
                queryPathMemory.adHocWorked = true
                queryPathMemory.retryAdHocAt = nil
                if before != .adHoc { logger.notice("query path", metadata: ["query_path": "\(QueryPath.adHoc)"]) }
                return result
            case .refused(let refusal):
                queryPathMemory.refused(refusal, now: now())
                if before != .stored {
                    logger.notice(
                        "query path",
                        metadata: ["query_path": "\(QueryPath.stored)", "adhoc_refused_with": "\(refusal)"])
                }
            }
        }
        return try await runStored(query, name: name, lifetime: lifetime, options: options, read: read)
    }

    private enum AdHocOutcome<Result> {
        case result(Result)
        case refused(AdHocRefusal)
    }

    private func runAdHoc<Result>(
        _ query: QueryDefinition, options: ResultSetOptions, read: (ResultSetHandle) async throws -> Result
    ) async throws -> AdHocOutcome<Result> {
        let response = try await send(.adHocQuery, method: .post, body: AdHocQueryRequest(queryDef: query, resultSetOptions: options))
        if let refusal = AdHocRefusal(response) { return .refused(refusal) }
        try await expectSuccess(response, .adHocQuery)
        let created = try decode(ResultSetCreated.self, from: response, .adHocQuery)
        return await .result(try read(ResultSetHandle(
            created: created, path: .adHoc, page: { .adHocResultPage(resultSetID: created.resultSetID, page: $0) },
            file: nil, session: sessionRenewals)))
    }

    private func runStored<Result>(
        _ query: QueryDefinition, name: String, lifetime: StoredQueryLifetime, options: ResultSetOptions,
        again: Bool = false, read: (ResultSetHandle) async throws -> Result
    ) async throws -> Result {
        let queryID = try await storedQuery(query, name: name, lifetime: lifetime)
        guard lifetime == .temporary else {
            return try await runStored(query, id: queryID, name: name, lifetime: lifetime, options: options, again: again, read: read)
        }
        // A temporary query is deleted whatever happened (a stored one is kept for the next poll).
        do {
            let result = try await runStored(
                query, id: queryID, name: name, lifetime: lifetime, options: options, again: again, read: read)
            await deleteStoredQuery(id: queryID, name: name)
            return result
        } catch {
            await deleteStoredQuery(id: queryID, name: name)
            throw error
        }
    }

    private func runStored<Result>(
        _ query: QueryDefinition, id queryID: String, name: String, lifetime: StoredQueryLifetime,
        options: ResultSetOptions, again: Bool, read: (ResultSetHandle) async throws -> Result
    ) async throws -> Result {
        let response = try await send(.resultSets(queryID: queryID), method: .post, body: ResultSetRequest(resultSetOptions: options))
        if response.status == 404, lifetime == .reused, !again {
            // Someone deleted our stored query since we cached its id: make it again, once.
            storedQueryIDs[name] = nil
            return try await runStored(query, name: name, lifetime: lifetime, options: options, again: true, read: read)
        }
        try await expectSuccess(response, .resultSets(queryID: queryID))
        let created = try decode(ResultSetCreated.self, from: response, .resultSets(queryID: queryID))
        if lifetime == .reused, !again, let columns = created.columns, columns.count != query.columns.count {
            // Stored by an earlier poll with other columns (an upgrade, `extra_fields` changed): store it anew, once.
            logger.info("stored query has other columns; storing it again", metadata: ["name": "\(name)"])
            await deleteStoredQuery(id: queryID, name: name)
            storedQueryIDs[name] = nil
            return try await runStored(query, name: name, lifetime: lifetime, options: options, again: true, read: read)
        }
        return try await read(storedResultSet(created, queryID: queryID))
    }

    func storedResultSet(_ created: ResultSetCreated, queryID: String) -> ResultSetHandle {
        ResultSetHandle(
            created: created, path: .stored,
            page: { .resultSetPage(queryID: queryID, resultSetID: created.resultSetID, page: $0) },
            file: .resultSetFile(queryID: queryID, resultSetID: created.resultSetID), session: sessionRenewals)
    }

    /// The id of the stored query `name`, creating it in Personal Queries if needed. A temporary query left
    /// behind by an interrupted run is deleted first, so that the name is free and nothing accumulates.
    private func storedQuery(_ query: QueryDefinition, name: String, lifetime: StoredQueryLifetime) async throws -> String {
        if lifetime == .reused, let id = storedQueryIDs[name] { return id }
        let folder = try await workspaceRoots().personal.dbId
        let queries = try await queriesInFolder(folder)
        await deleteLegacyQueries(in: queries)
        let existing = queries.first { $0.name == name }
        if let existing, lifetime == .reused {
            storedQueryIDs[name] = existing.dbId
            return existing.dbId
        }
        if let existing { await deleteStoredQuery(id: existing.dbId, name: name) }
        var definition = query
        definition.name = name
        definition.dbId = ""
        definition.dbIdParent = folder
        let response = try await send(.queryDefinitions, method: .post, body: definition)
        try await expectSuccess(response, .queryDefinitions)
        let id = try decode(StoredQuery.self, from: response, .queryDefinitions).dbId
        if lifetime == .reused { storedQueryIDs[name] = id }
        logger.debug("stored query created", metadata: ["name": "\(name)"])
        return id
    }

    /// Earlier versions stored their queries under names with a colon, which some servers' `ValidateQueryDefName`
    /// refuses; where a server took them, they are deleted once per process, so that an upgrade leaves nothing.
    private func deleteLegacyQueries(in queries: [StoredQuery]) async {
        guard !legacyQueriesChecked, !probing else { return }
        legacyQueriesChecked = true
        for query in queries {
            guard let name = query.name, WatchQueries.legacyQueryNames.contains(name) else { continue }
            logger.info("deleting a query an earlier trackwatch stored", metadata: ["name": "\(name)"])
            await deleteStoredQuery(id: query.dbId, name: name)
        }
    }

    private func queriesInFolder(_ folder: String) async throws -> [StoredQuery] {
        let endpoint = CompassEndpoint.folderQueryDefinitions(folderID: folder)
        let response = try await send(endpoint, method: .get)
        try await expectSuccess(response, endpoint)
        return try decode([StoredQuery].self, from: response, endpoint)
    }

    private func deleteStoredQuery(id: String, name: String) async {
        do {
            let response = try await send(.queryDefinition(id: id), method: .delete)
            if !(200..<300).contains(response.status) && response.status != 404 {
                logger.warning("could not delete stored query", metadata: ["name": "\(name)", "status": "\(response.status)"])
            }
        } catch {
            logger.warning("could not delete stored query", metadata: ["name": "\(name)", "error": "\(error)"])
        }
    }
}
