import TrackwatchCore

/// A saved query's result: its columns (the query's display fields, in order) and every row's values.
public struct SavedQueryResult: Sendable {
    public var columns: [String]
    public var rows: [[String]]
}

extension CompassClient {
    /// More columns than any saved query plausibly shows: a bound on what the answer makes the client hold.
    static let maximumColumns = 1_000

    /// Runs the saved query at `path` (`Public Queries/Team P1s`) and returns its complete result. The path is
    /// resolved once per client and remembered; a query deleted and saved again under the same path is
    /// found again.
    public func run(savedQuery path: WorkspacePath, pageSize: Int) async throws -> SavedQueryResult {
        let options = ResultSetOptions(pageSize: pageSize, maxResultSetRows: nil)
        let renewals = sessionRenewals
        do {
            return try await runSaved(path, options: options, resolveAgain: true)
        } catch CompassError.server(status: 404, _, _, _) where sessionRenewals != renewals {
            // The session expired while paging and its result set went with it (see `run(_:storedAs:…)`).
            logger.info("result set lost with the expired session; running the query again")
            return try await runSaved(path, options: options, resolveAgain: true)
        }
    }

    private func runSaved(_ path: WorkspacePath, options: ResultSetOptions, resolveAgain: Bool) async throws -> SavedQueryResult {
        let cached = savedQueryIDs[path.description]
        let queryID = if let cached { cached } else { try await resolve(path) }
        savedQueryIDs[path.description] = queryID
        let endpoint = CompassEndpoint.resultSets(queryID: queryID)
        let response = try await send(endpoint, method: .post, body: ResultSetRequest(resultSetOptions: options))
        if response.status == 404, cached != nil, resolveAgain {
            // Deleted (and perhaps saved again) since we found it: look it up once more.
            savedQueryIDs[path.description] = nil
            return try await runSaved(path, options: options, resolveAgain: false)
        }
        try await expectSuccess(response, endpoint)
        let created = try decode(ResultSetCreated.self, from: response, endpoint)
        let columns = if let named = created.columns?.map(\.name) { named } else { try await savedQueryColumns(queryID) }
        guard columns.count <= Self.maximumColumns else {
            throw CompassError.invalidResponse(endpoint: endpoint.name, detail: "the result has \(columns.count) columns")
        }
        // The query's definition is the user's: it cannot be narrowed by id, so a result the server limits, or
        // pages it ignores without a CSV route or a page large enough, fail the watch rather than report records
        // as gone.
        let expected = ResultExpectation(name: path.description, pageSize: options.pageSize, maxRows: nil,
                                         shape: ResultShape(columns: columns))
        do {
            let rows = try await read(storedResultSet(created, queryID: queryID), expected) { $0 }
            return SavedQueryResult(columns: columns, rows: rows)
        } catch ReadingFallback.limited(let limit) {
            throw CompassError.invalidConfiguration(
                "the query \(path) matches more records than the \(limit) the server returns at once; narrow the query "
                    + "in Compass, or ask your administrator to raise the query limit (until then this watch is not polled)")
        } catch ReadingFallback.onePage(let rows) where rows > options.pageSize {
            logger.notice("reading the query on one page", metadata: ["query": "\(path)", "page_size": "\(rows)"])
            return try await runSaved(path, options: ResultSetOptions(pageSize: rows, maxResultSetRows: nil), resolveAgain: false)
        } catch is ReadingFallback {
            throw CompassError.invalidConfiguration(
                "the server ignores pageNumber for \(path) and has no usable CSV route; set page_size in [poll] above "
                    + "the number of records the query returns")
        }
    }

    /// The query's dbId: from the root folder down through each subfolder by name.
    private func resolve(_ path: WorkspacePath) async throws -> String {
        let roots = try await readWorkspaceRoots()
        guard var folder = roots.root(named: path.components[0]) else {
            throw CompassError.invalidConfiguration(
                "the root folder \"\(path.components[0])\" is not on the server "
                    + "(it has \(roots.names.joined(separator: ", "))); correct query in the [[watch]] for \(path)")
        }
        var walked = [path.components[0]]
        for (index, name) in path.components.enumerated().dropFirst() {
            let isQuery = index == path.components.count - 1
            let children = if let known = folder.children { known } else { try await self.folder(folder.dbId).children ?? [] }
            let match = children.first { $0.name == name && ($0.isQuery == isQuery || $0.workspaceItemType == nil) }
            guard let match else {
                let kind = isQuery ? "query" : "folder"
                let here = children.filter { $0.isQuery == isQuery }.map(\.name).sorted()
                let listing = here.isEmpty ? "it has no \(kind)s" : "it has \(here.prefix(20).joined(separator: ", "))"
                throw CompassError.invalidConfiguration(
                    "the \(kind) \"\(name)\" is not in \(walked.joined(separator: "/")) on the server (\(listing)); "
                        + "correct query in the [[watch]] for \(path), or save the query there")
            }
            if isQuery { return match.dbId }
            folder = match
            walked.append(name)
        }
        preconditionFailure("a WorkspacePath has at least a root and a query")
    }

    private func folder(_ id: String) async throws -> WorkspaceItem {
        let endpoint = CompassEndpoint.folder(id: id)
        let response = try await send(endpoint, method: .get)
        try await expectSuccess(response, endpoint)
        return try decode(WorkspaceItem.self, from: response, endpoint)
    }

    /// For servers whose result set does not list its columns: the stored definition's display fields.
    private func savedQueryColumns(_ queryID: String) async throws -> [String] {
        let endpoint = CompassEndpoint.queryDefinition(id: queryID)
        let response = try await send(endpoint, method: .get)
        try await expectSuccess(response, endpoint)
        return try decode(SavedQueryColumns.self, from: response, endpoint).queryFieldDefs.map(\.fieldPathName)
    }
}
