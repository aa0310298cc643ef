import TrackerHTTP
import TrackwatchCore

/// What the client may check of a result's rows while reading them.
public struct ResultShape: Equatable, Sendable {
    /// The column names, in row-value order.
    public var columns: [String]
    /// The column holding the record's display id, if the query shows it.
    public var idColumn: Int?
    /// Each record appears once; false for history joins (one row per entry).
    public var onePerRecord: Bool
    /// Rows come sorted by id, ascending, before any other sort key.
    public var sortedByID: Bool

    public init(columns: [String], sortedByID: Bool = false) {
        self.columns = columns
        idColumn = columns.firstIndex(of: "id")
        onePerRecord = !columns.contains { $0.hasPrefix("history.") }
        self.sortedByID = sortedByID && idColumn != nil
    }

    /// The shape of `query`'s result: its columns, and whether `id` is its first sort key, ascending.
    public init(_ query: QueryDefinition) {
        let keys = query.queryFieldDefs.enumerated().filter { $0.element.sortType != .none }
            .sorted { ($0.element.sortOrder == 0 ? Int.max : $0.element.sortOrder, $0.offset)
                < ($1.element.sortOrder == 0 ? Int.max : $1.element.sortOrder, $1.offset) }
        let first = keys.first?.element
        self.init(columns: query.columns, sortedByID: first?.fieldPathName == "id" && first?.sortType == .ascending)
    }
}

/// How the rows of a result were read.
public enum ResultRoute: String, Sendable {
    /// `…?pageNumber=N`, page by page (or on one page large enough for all rows).
    case pages
    /// `…/resultsets/{id}/file?fileType=csv`: the whole result at once, for servers that ignore `pageNumber`.
    case csv
    /// Id-ordered queries (`id GT <last id>`), each under the server's row limit or within one page.
    case batches
}

/// What the client learned about how this server returns results, for `trackwatch probe` and the logs; the
/// client also uses it to go straight to what works on later queries (re-learned by a new process).
public struct ResultTraits: Equatable, Sendable {
    /// The last row limit the server reported (`resultSetIsLimited`).
    public var rowLimit: Int?
    /// The `recordCount` announced with that limit: above the limit when the server counts the rows before the cut.
    public var limitedRecordCount: Int?
    /// Query paths on which the server ignored `pageNumber` (page 2 repeated page 1, or ids went backwards).
    public var pagingIgnored: Set<QueryPath> = []
    /// Whether the CSV file route gave a usable result (`nil`: not tried).
    public var csvRoute: Bool?
    /// Batch sizes in use, by query name.
    public var batchSizes: [String: Int] = [:]
    /// Page sizes that hold a whole result, by query name, for a server that ignores `pageNumber`.
    public var onePageSizes: [String: Int] = [:]
    /// How the last query's rows were read.
    public var lastRoute: ResultRoute?

    public init() {}
}

/// The rows of a result cannot be read as they are; `runWhole` reads them another way.
enum ReadingFallback: Error {
    /// `resultSetIsLimited` reported this limit: read in id-ordered batches under it.
    case limited(Int)
    /// The server ignores `pageNumber`, the CSV route did not help, and pages hold what was asked for: ask for
    /// one page of all `rows`.
    case onePage(rows: Int)
    /// As above, but the server gives at most `pageSize` rows a page: read in batches that fit one page.
    case pagingIgnored(pageSize: Int)
}

/// A page repeated an earlier one, or its ids went backwards: the server does not page this result.
struct PagingIgnored: Error {
    /// Rows on the first page: how many the server puts on a page.
    let pageSize: Int
    let sign: String
}

/// What reading one result expects: its name (for messages and the stored query), the page size and row cap
/// asked for, and the rows' shape.
struct ResultExpectation {
    var name: String
    var pageSize: Int
    var maxRows: Int?
    var shape: ResultShape

    var options: ResultSetOptions { ResultSetOptions(pageSize: pageSize, maxResultSetRows: maxRows) }
}

/// One query run, as `runWhole` needs to run it again (in batches) if the first answer cannot be read whole.
struct ResultRequest {
    var query: QueryDefinition
    var lifetime: StoredQueryLifetime
    var expected: ResultExpectation
}

/// A created result set and how to reach its rows.
struct ResultSetHandle {
    let created: ResultSetCreated
    let path: QueryPath
    let page: (Int) -> CompassEndpoint
    /// The CSV route: stored queries only.
    let file: CompassEndpoint?
    /// `sessionRenewals` when the result set was made: after a new login its pages are gone.
    let session: Int
}

extension CompassClient {
    /// The most rows asked for on one page when the server ignores `pageNumber` (the largest `page_size`).
    static let largestOnePage = 100_000

    /// The login name: history entries by this user are my own.
    public var loginName: String { server.username }

    /// Runs `request` and returns every row, transformed: read as it comes, or in id-ordered batches when the
    /// server limits the result or ignores `pageNumber` without a CSV route. Complete or this throws.
    func runWhole<Element>(_ request: ResultRequest, _ transform: ([[String]]) throws -> [Element]) async throws -> [Element] {
        var expected = request.expected
        let name = expected.name
        let wholeSet = expected.maxRows == nil
        var batchSize = wholeSet ? resultTraits.batchSizes[name] : nil
        if wholeSet, let pageSize = resultTraits.onePageSizes[name] { expected.pageSize = max(expected.pageSize, pageSize) }
        while true {
            do {
                if let batchSize { return try await runInBatches(request, size: batchSize, transform) }
                return try await runOnce(request.query, name: name, lifetime: request.lifetime, options: expected.options) {
                    try await read($0, expected, transform)
                }
            } catch ReadingFallback.onePage(let rows) where wholeSet && rows > expected.pageSize {
                expected.pageSize = rows
                resultTraits.onePageSizes[name] = rows
                logger.notice("reading the query on one page", metadata: ["query": "\(name)", "page_size": "\(rows)"])
            } catch let fallback as ReadingFallback {
                let size: Int
                switch fallback {
                case .limited(let limit): size = min(limit, request.expected.pageSize)
                case .pagingIgnored(let pageSize), .onePage(let pageSize): size = min(pageSize, request.expected.pageSize)
                }
                guard wholeSet, expected.shape.idColumn != nil, size >= 1, size < (batchSize ?? Int.max) else {
                    throw unreadable(fallback, expected)
                }
                batchSize = size
                resultTraits.batchSizes[name] = size
                logger.notice("reading the query in id-ordered batches", metadata: [
                    "query": "\(name)", "batch_size": "\(size)", "reason": "\(Self.reason(fallback))",
                ])
            }
        }
    }

    /// The rows of a created result set. A limit below what was asked for, or paging the server ignores without
    /// a usable CSV route, throws `ReadingFallback`.
    func read<Element>(
        _ handle: ResultSetHandle, _ request: ResultExpectation, _ transform: ([[String]]) throws -> [Element]
    ) async throws -> [Element] {
        let endpoint = handle.page(1)
        var count = try bounded(handle.created.recordCount, "recordCount", endpoint)
        let limit = try bounded(handle.created.resultSetIsLimited, "resultSetIsLimited", endpoint) ?? 0
        // A limit at or above our own maxResultSetRows is the one we asked for.
        if limit > 0, request.maxRows.map({ limit < $0 }) ?? true {
            if resultTraits.rowLimit != limit {
                logger.notice("the server limits query results", metadata: [
                    "limit": "\(limit)", "query": "\(request.name)", "record_count": "\(count.map(String.init) ?? "none")",
                ])
            }
            resultTraits.rowLimit = limit
            resultTraits.limitedRecordCount = count
            throw ReadingFallback.limited(limit)
        }
        // Cut by our own maxResultSetRows: the count may be the one before the cut.
        if limit > 0 { count = count.map { min($0, limit) } ?? limit }
        if count == 0 { return try transform([]) }
        do {
            let elements = try await readPages(handle, count: count, request, transform)
            resultTraits.lastRoute = .pages
            return elements
        } catch let ignored as PagingIgnored {
            if !resultTraits.pagingIgnored.contains(handle.path) {
                resultTraits.pagingIgnored.insert(handle.path)
                logger.notice("the server ignores pageNumber", metadata: [
                    "path": "\(handle.path.rawValue)", "sign": "\(ignored.sign)", "page_size": "\(ignored.pageSize)",
                    "then": "\(handle.file != nil && resultTraits.csvRoute != false ? "reading rows as CSV" : "reading on one page or in id-ordered batches")",
                ])
            }
            if let file = handle.file, resultTraits.csvRoute != false, let rows = try await readCSV(file, handle, count: count, request) {
                resultTraits.lastRoute = .csv
                return try transform(rows)
            }
            // Pages as large as asked for may be larger still: one page of everything, where allowed and where
            // such a page is no larger than the largest page_size.
            if let count, ignored.pageSize == request.pageSize, count > request.pageSize, count <= Self.largestOnePage {
                throw ReadingFallback.onePage(rows: count)
            }
            throw ReadingFallback.pagingIgnored(pageSize: ignored.pageSize)
        }
    }

    /// Reads pages 1, 2, … until `count` rows arrived (or, without a count, an empty page), each page at most
    /// `pageSize` rows of the query's columns, checking that no page repeats an earlier one.
    private func readPages<Element>(
        _ handle: ResultSetHandle, count: Int?, _ request: ResultExpectation, _ transform: ([[String]]) throws -> [Element]
    ) async throws -> [Element] {
        var elements: [Element] = []
        if let count { elements.reserveCapacity(count) }
        var rowCount = 0
        var check = PageCheck(shape: request.shape)
        for page in 1... {
            if page > 1, resultTraits.pagingIgnored.contains(handle.path) {
                throw PagingIgnored(pageSize: check.firstPageSize, sign: "known from an earlier query")
            }
            let endpoint = handle.page(page)
            let batch: [[String]]
            do {
                // The response body is released as soon as its rows are read.
                let response = try await send(endpoint, method: .get)
                try await expectSuccess(response, endpoint)
                batch = try pageRows(response, endpoint, columns: request.shape.columns.count, maxRows: request.pageSize)
            }
            try check.admit(batch, page: page)
            rowCount += batch.count
            if let count {
                if rowCount > count {
                    throw CompassError.incompleteResult("\(rowCount) rows arrived, \(count) announced")
                }
                if batch.isEmpty, rowCount < count {
                    throw CompassError.incompleteResult("page \(page) was empty after \(rowCount) of \(count) rows")
                }
            } else if rowCount > maxResultRows {
                throw tooManyRows(rowCount, endpoint)
            }
            elements.append(contentsOf: try transform(batch))
            if let count, rowCount == count { break }
            if count == nil, batch.isEmpty { break }
        }
        return elements
    }

    /// The whole result as CSV; `nil` when the server has no such route or its CSV is not the result (the caller
    /// then reads in batches).
    private func readCSV(_ endpoint: CompassEndpoint, _ handle: ResultSetHandle, count: Int?, _ request: ResultExpectation)
        async throws -> [[String]]?
    {
        let response = try await send(endpoint, method: .get)
        if response.status == 404, sessionRenewals != handle.session {
            try await expectSuccess(response, endpoint)  // the result set went with the old session: run the query again
        }
        if response.status >= 500 || response.status == 429 { try await expectSuccess(response, endpoint) }
        let why: String
        if (200..<300).contains(response.status) {
            do {
                let all = try CSVTable.rows(in: response.body, columns: request.shape.columns.count,
                                            maxRows: (count ?? maxResultRows) + 1)
                let rows = CSVTable.dropHeader(all, columns: request.shape.columns)
                if count == nil || rows.count == count {
                    resultTraits.csvRoute = true
                    return rows
                }
                why = "\(rows.count) rows in the file, \(count ?? 0) announced"
            } catch {
                why = "\(error)"
            }
        } else {
            why = "HTTP \(response.status)"
        }
        resultTraits.csvRoute = false
        logger.notice("the result file route is not usable",
                      metadata: ["route": "\(endpoint.name)", "error": "\(why)"])
        return nil
    }

    /// Reads `request` as consecutive id-ordered queries of at most `size` rows (`QueryDefinition.inIDOrder`). A
    /// full batch of a history query may end inside one record's entries: those rows are read again with the
    /// next batch, which starts at that record.
    private func runInBatches<Element>(
        _ request: ResultRequest, size: Int, _ transform: ([[String]]) throws -> [Element]
    ) async throws -> [Element] {
        let shape = request.expected.shape
        let idColumn = shape.idColumn ?? 0
        var elements: [Element] = []
        var after: String?
        var total = 0
        while true {
            let query = request.query.inIDOrder(after: after)
            let batch = ResultExpectation(name: request.expected.name + " batch", pageSize: size, maxRows: size,
                                          shape: ResultShape(query))
            var rows = try await runOnce(query, name: batch.name, lifetime: .temporary, options: batch.options) {
                try await read($0, batch) { $0 }
            }
            try checkOrder(rows, after: after, idColumn: idColumn, strictly: shape.onePerRecord)
            let full = rows.count >= size
            if full, !shape.onePerRecord, let last = rows.last?[idColumn] {
                rows.removeLast(rows.reversed().prefix { $0[idColumn] == last }.count)
                // A batch of one record's rows only: read that record's rows on their own.
                if rows.isEmpty { rows = try await rowsOfOneRecord(last, request, size: size) }
            }
            total += rows.count
            guard total <= maxResultRows else { throw tooManyRows(total, .adHocQuery) }
            after = rows.last?[idColumn] ?? after
            elements.append(contentsOf: try transform(rows))
            if !full {
                resultTraits.lastRoute = .batches
                return elements
            }
        }
    }

    /// Every row of the record `id` in `request`'s result, for a history batch that held nothing else.
    private func rowsOfOneRecord(_ id: String, _ request: ResultRequest, size: Int) async throws -> [[String]] {
        var query = request.query
        query.filterNode = FilterNode(.and, [FieldFilter("id", .equal, [id])], children: [request.query.filterNode])
        var expected = ResultExpectation(name: request.expected.name + " batch", pageSize: request.expected.pageSize,
                                         maxRows: nil, shape: ResultShape(query))
        for attempt in 1...2 {
            do {
                let rows = try await runOnce(query, name: expected.name, lifetime: .temporary, options: expected.options) {
                    try await read($0, expected) { $0 }
                }
                guard rows.allSatisfy({ $0[request.expected.shape.idColumn ?? 0] == id }) else {
                    throw CompassError.invalidResponse(endpoint: "result page", detail: "rows of other records in a query for one")
                }
                return rows
            } catch ReadingFallback.onePage(let rows) where attempt == 1 {
                expected.pageSize = rows
            } catch is ReadingFallback {
                break
            }
        }
        throw CompassError.incompleteResult(
            "the record \(WatchQueries.RowError.quote(id)) alone has more than \(size) rows in the query, more than the "
                + "server returns at once; ask your Compass administrator to raise the query limit")
    }

    /// Batches must come in id order, each after the last: otherwise the server does not filter or sort by id as
    /// asked, and reading on could skip or repeat records.
    private func checkOrder(_ rows: [[String]], after: String?, idColumn: Int, strictly: Bool) throws {
        var previous = after
        for row in rows {
            let id = row[idColumn]
            if let previous, strictly ? id <= previous : id < previous {
                throw CompassError.invalidResponse(
                    endpoint: "result page",
                    detail: "id \(WatchQueries.RowError.quote(id)) came after \(WatchQueries.RowError.quote(previous)) in a "
                        + "query sorted by id; the server does not sort or filter by id as asked, so a limited result "
                        + "cannot be read whole")
            }
            if let after, id <= after {
                throw CompassError.invalidResponse(
                    endpoint: "result page", detail: "id \(WatchQueries.RowError.quote(id)) is not after \(WatchQueries.RowError.quote(after)) as filtered")
            }
            previous = id
        }
    }

    private func unreadable(_ fallback: ReadingFallback, _ request: ResultExpectation) -> CompassError {
        switch fallback {
        case .limited(let limit):
            return .incompleteResult(
                "the server returns at most \(limit) rows for \(request.name) and trackwatch cannot read the rest in "
                    + "batches; ask your Compass administrator to raise the query limit")
        case .onePage(let pageSize), .pagingIgnored(let pageSize):
            return .incompleteResult(
                "the server ignores pageNumber, has no usable CSV route and gives \(pageSize) rows a page; "
                    + "set page_size in [poll] above the number of records the query returns")
        }
    }

    private static func reason(_ fallback: ReadingFallback) -> String {
        switch fallback {
        case .limited(let limit): return "the server limits results to \(limit) rows"
        case .onePage, .pagingIgnored: return "the server ignores pageNumber and has no usable CSV route"
        }
    }

    /// A number from the answer, checked before use: none, or 0 … `maxResultRows`.
    private func bounded(_ value: Int?, _ name: String, _ endpoint: CompassEndpoint) throws -> Int? {
        guard let value else { return nil }
        guard value >= 0 else {
            throw CompassError.invalidResponse(endpoint: endpoint.name, detail: "\(name) is \(value)")
        }
        guard value <= maxResultRows else { throw tooManyRows(value, endpoint) }
        return value
    }

    func pageRows(_ response: HTTPResponse, _ endpoint: CompassEndpoint, columns: Int, maxRows: Int) throws -> [[String]] {
        do {
            return try ResultPageParser.rows(in: response.body, columns: columns, maxRows: maxRows)
        } catch {
            throw CompassError.invalidResponse(
                endpoint: endpoint.name,
                detail: "not the expected JSON\(Self.contentTypeNote(response)): \(Self.describe(error))")
        }
    }

    func tooManyRows(_ count: Int, _ endpoint: CompassEndpoint) -> CompassError {
        .invalidResponse(endpoint: endpoint.name,
                         detail: "the query matches \(count) records, more than the \(maxResultRows) trackwatch reads; narrow the query")
    }
}

/// Recognises a server that does not page: a page equal to the first or the previous one, or (in a result
/// sorted by id) a page whose first id is not after the last id of the page before.
struct PageCheck {
    let shape: ResultShape
    private(set) var firstPageSize = 0
    private var firstHash: UInt64?
    private var previousHash: UInt64?
    private var lastID: String?

    init(shape: ResultShape) { self.shape = shape }

    mutating func admit(_ rows: [[String]], page: Int) throws {
        guard !rows.isEmpty else { return }
        let hash = Self.hash(rows)
        if page == 1 {
            firstPageSize = rows.count
            firstHash = hash
        } else {
            if hash == firstHash || hash == previousHash {
                throw PagingIgnored(pageSize: firstPageSize, sign: "page \(page) repeated an earlier page")
            }
            if shape.sortedByID, let column = shape.idColumn, let lastID, rows[0][column] <= lastID {
                throw PagingIgnored(pageSize: firstPageSize, sign: "ids went backwards on page \(page)")
            }
        }
        previousHash = hash
        if let column = shape.idColumn { lastID = rows[rows.count - 1][column] }
    }

    /// FNV-1a over the page's row count and its first, middle and last rows, with separators: equal pages, equal
    /// hashes. A repeated page is equal byte for byte, so these rows tell it; pages of one result that share all
    /// three are no paging either. Hashing every byte of every page was 3 % of a steady poll's CPU.
    static func hash(_ rows: [[String]]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        for byte in String(rows.count).utf8 { mix(byte) }
        for row in rows.isEmpty ? [] : [rows[0], rows[rows.count / 2], rows[rows.count - 1]] {
            for value in row {
                for byte in value.utf8 { mix(byte) }
                mix(0x1F)
            }
            mix(0x1E)
        }
        return hash
    }
}
