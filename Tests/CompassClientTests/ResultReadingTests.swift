@testable import CompassClient
import Foundation
import Logging
import TrackerHTTP
import TrackwatchCore
import TestSupport
import XCTest

/// How the client reads a result whose server limits it or ignores `pageNumber`, over a scripted server that
/// holds `records` and answers ad-hoc queries as compass-sim would (the same runs over real HTTP in
/// IntegrationTests.ServerVariantTests).
final class ResultReadingTests: XCTestCase {
    private final class Server: HTTPTransport, @unchecked Sendable {
        var records: [String]
        var limit: Int?
        var ignorePageNumber = false
        var countBeforeCut = false
        /// The most rows a page holds, whatever was asked for.
        var pageCap = Int.max
        var csv: String?
        private(set) var requests: [String] = []
        private var resultSets: [String: [String]] = [:]
        private var pageSizes: [String: Int] = [:]

        init(records: Int) { self.records = (1...records).map { String(format: "SAMPL%08d", $0) } }

        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            let path = String(request.url.dropFirst("http://sim/ccmweb/rest/repos/2.0.0/databases/SAMPL".count))
            requests.append("\(request.method.rawValue) \(path)")
            if request.url.hasSuffix("/authenticate") { return json(201, #"{"token":"t"}"#) }
            if request.method == .post, path == "/query" { return try create(request.body ?? []) }
            if path.hasSuffix("/file?fileType=csv") { return csv.map { HTTPResponse(status: 200, body: Array($0.utf8)) } ?? json(404, "{}") }
            let parts = path.split(separator: "?")
            let id = String(parts[0].split(separator: "/").last ?? "")
            var page = Int(parts.count > 1 ? parts[1].dropFirst("pageNumber=".count) : "1") ?? 1
            if ignorePageNumber { page = 1 }
            let rows = resultSets[id] ?? [], size = pageSizes[id] ?? 1
            let slice = rows.dropFirst((page - 1) * size).prefix(size)
            return json(200, #"{"rows":[\#(slice.map { #"{"values":["\#($0)","x","h","s","p","v","a","o"]}"# }.joined(separator: ","))]}"#)
        }

        /// Honours `id GT`, `id EQ`, `maxResultSetRows` and `pageSize`, and the row limit.
        private func create(_ body: [UInt8]) throws -> HTTPResponse {
            let request = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
            let options = request["resultSetOptions"] as? [String: Any] ?? [:]
            let filters = ((request["queryDef"] as? [String: Any])?["filterNode"] as? [String: Any])?["fieldFilters"] as? [[String: Any]] ?? []
            var rows = records
            for filter in filters where filter["fieldPath"] as? String == "id" {
                let value = (filter["values"] as? [String])?.first ?? ""
                rows = rows.filter { filter["compOp"] as? String == "COMP_OP_GT" ? $0 > value : $0 == value }
            }
            let matching = rows.count
            var limited = 0
            for cap in [options["maxResultSetRows"] as? Int, limit].compactMap({ $0 }) where rows.count > cap {
                rows = Array(rows.prefix(cap))
                limited = cap
            }
            let id = "rs\(resultSets.count)"
            resultSets[id] = rows
            pageSizes[id] = min(options["pageSize"] as? Int ?? 25, pageCap)
            let count = limited > 0 && countBeforeCut ? matching : rows.count
            return json(201, #"{"result_set_id":"\#(id)","recordCount":\#(count),"resultSetIsLimited":\#(limited)}"#)
        }
    }

    private static func json(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
    }

    private func client(_ server: Server) throws -> CompassClient {
        CompassClient(
            server: try CompassServer(baseURL: "http://sim", repo: "2.0.0", database: "SAMPL", username: "engineer"),
            credential: .password(Secret("engineer")), transport: server,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, now: { 1_000_000 })
    }

    private func ids(_ client: CompassClient, pageSize: Int = 4) async throws -> [String] {
        try await client.run(WatchQueries.assignedToMe, storedAs: WatchQueries.assignedQueryName, lifetime: .reused,
                       pageSize: pageSize).map { $0[0] }
    }

    func test_limitedResult_isReadWholeInIdOrderedBatches_whateverRecordCountCounts() async throws {
        for before in [false, true] {
            let server = Server(records: 11)
            server.limit = 5
            server.countBeforeCut = before
            let client = try client(server)
            await XCTAssertEqualAsync(try await ids(client, pageSize: 10), server.records, "count before the cut: \(before)")
            XCTAssertEqual(client.resultTraits.rowLimit, 5)
            XCTAssertEqual(client.resultTraits.lastRoute, .batches)
            // The limited query, then batches of 5: 5 + 5 + 1 rows.
            XCTAssertEqual(server.requests.filter { $0 == "POST /query" }.count, 4)
            // Later queries go straight to batches.
            await XCTAssertEqualAsync(try await ids(client, pageSize: 10), server.records)
            XCTAssertEqual(server.requests.filter { $0 == "POST /query" }.count, 7)
        }
    }

    /// A cut at or above the `maxResultSetRows` asked for is the client's own (`probe` reads one history row so):
    /// never taken for a server limit, whether `recordCount` counts before the cut or after it (issue 20, item 2).
    func test_cutAtTheRowsAskedFor_isTheClientsOwn_neverAServerLimit() async throws {
        for (serverLimit, before) in [(nil, false), (nil, true), (3, true), (1, false)] as [(Int?, Bool)] {
            let server = Server(records: 11)
            server.limit = serverLimit
            server.countBeforeCut = before
            let client = try client(server)
            let rows = try await client.run(WatchQueries.assignedToMe, storedAs: "one row", lifetime: .temporary,
                                      pageSize: 1, maxRows: 1)
            XCTAssertEqual(rows.map { $0[0] }, ["SAMPL00000001"], "limit \(serverLimit ?? 0), count before: \(before)")
            XCTAssertNil(client.resultTraits.rowLimit, "limit \(serverLimit ?? 0), count before: \(before)")
        }
        let limited = Server(records: 11)
        limited.limit = 2
        let client = try client(limited)
        await XCTAssertThrowsErrorAsync(try await client.run(WatchQueries.assignedToMe, storedAs: "six rows", lifetime: .temporary,
                                            pageSize: 2, maxRows: 6))
        XCTAssertEqual(client.resultTraits.rowLimit, 2, "a cut below what was asked for is the server's")
    }

    func test_repeatedPage_isDetected_andNeverCountedTwice() async throws {
        let server = Server(records: 8)  // two full pages of 4: a repeat would even add up to recordCount
        server.ignorePageNumber = true
        let client = try client(server)
        await XCTAssertEqualAsync(try await ids(client), server.records, "read on one page of 8")
        XCTAssertEqual(client.resultTraits.pagingIgnored, [.adHoc])
        XCTAssertEqual(client.resultTraits.onePageSizes[WatchQueries.assignedQueryName], 8)
        XCTAssertEqual(client.resultTraits.lastRoute, .pages)

        let capped = Server(records: 8)  // and where pages hold 4 at most, in batches of one page each
        capped.ignorePageNumber = true
        capped.pageCap = 4
        let batching = try self.client(capped)
        await XCTAssertEqualAsync(try await ids(batching), capped.records)
        XCTAssertEqual(batching.resultTraits.batchSizes[WatchQueries.assignedQueryName], 4)
        XCTAssertEqual(batching.resultTraits.lastRoute, .batches)
    }

    func test_numbersFromTheAnswer_areBoundedBeforeUse() async throws {
        for (count, limited) in [("-1", "0"), ("9223372036854775807", "0"), ("1", "-5"), ("1", "9223372036854775807"),
                                 ("1e400", "0"), ("18446744073709551616", "0")] {
            let transport = Server(records: 1)
            let scripted = ScriptedAnswer(transport) { _ in
                ResultReadingTests.json(201, #"{"result_set_id":"r","recordCount":\#(count),"resultSetIsLimited":\#(limited)}"#)
            }
            await XCTAssertThrowsErrorAsync(try await ids(try client(scripted))) { error in
                XCTAssertTrue(error is CompassError, "\(count) \(limited): \(error)")
            }
        }
    }

    /// Answers `POST /query` with `answer`, everything else as `server` does.
    private final class ScriptedAnswer: HTTPTransport, @unchecked Sendable {
        let server: Server
        let answer: (HTTPRequest) -> HTTPResponse
        init(_ server: Server, answer: @escaping (HTTPRequest) -> HTTPResponse) {
            self.server = server
            self.answer = answer
        }
        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            request.url.hasSuffix("/query") ? answer(request) : try server.send(request)
        }
    }

    private func client(_ transport: ScriptedAnswer) throws -> CompassClient {
        CompassClient(
            server: try CompassServer(baseURL: "http://sim", repo: "2.0.0", database: "SAMPL", username: "engineer"),
            credential: .password(Secret("engineer")), transport: transport,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, now: { 1_000_000 })
    }
}
