import CompassClient
import Logging
import TrackwatchCore

/// The fuzz targets, by name: each takes one input and must not crash, hang or allocate without bound.
let targets: [String: @Sendable (UnsafeRawBufferPointer) -> Void] = [
    "config": fuzzConfig,
    "compass": fuzzCompass,
    "csv": fuzzCSV,
    "timestamp": fuzzTimestamp,
]

/// The CSV route's reader: bounded by its arguments (the first two bytes), strict, never a trap.
func fuzzCSV(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= 2 else { return }
    let columns = 1 + Int(bytes[0] % 16), maxRows = Int(bytes[1])
    do {
        let rows = try CSVTable.rows(in: Array(bytes.dropFirst(2)), columns: columns, maxRows: maxRows)
        guard rows.count <= maxRows, rows.allSatisfy({ $0.count == columns }) else { fatalError("a table beyond its bounds") }
    } catch is CSVTable.Failure {
    } catch {
        fatalError("unexpected error type \(type(of: error)): \(error)")
    }
}

/// History timestamps as servers print them: a value is refused, or becomes a normal form that reads back as
/// the same moment and parses to itself.
func fuzzTimestamp(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let (timestamp, _) = CompassTimestamp.parse(text) else { return }
    guard timestamp.secondsSinceEpoch != nil, CompassTimestamp.parse(timestamp.rawValue)?.timestamp == timestamp,
        timestamp.adding(seconds: -HistoryWindow.reach(overlap: 86_400)) != nil
    else { fatalError("\(text.debugDescription) → \(timestamp) is not a normal form") }
}

/// The configuration reader (TOML + schema). Every rejection must be a `ConfigError` whose line, if any, lies
/// within the input.
func fuzzConfig(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    do {
        _ = try Config.parse(text, file: "fuzz.toml")
    } catch {
        if let line = error.line, line < 1 || line > text.utf8.count + 1 { fatalError("line \(line) out of range") }
    }
}

/// Everything that reads Compass's answers: login, result sets and pages, folders and stored queries, error
/// bodies, JWT claims, and the rows' conversion into records and history. The input is the server: its
/// first byte picks the HTTP status (and the query mode and page size), the rest is the body of every
/// answer. A thrown error must be a `CompassError` or a row error, nothing else.
func fuzzCompass(_ bytes: UnsafeRawBufferPointer) {
    guard let first = bytes.first else { return }
    let statuses = [200, 201, 200, 201, 401, 404, 405, 429, 500]
    let server = FuzzedServer(status: statuses[Int(first) % statuses.count], body: Array(bytes.dropFirst()))
    let client = CompassClient(
        server: try! CompassServer(baseURL: "http://fuzz", repo: "2.0.0", database: "SAMPL", username: "engineer"),
        credential: .password(Secret("engineer")), transport: server,
        logger: Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }, now: { 1_800_000_000 })
    if first & 0x80 != 0 { client.assume(.stored) }
    client.maxResultRows = 10_000  // the limit's logic is the same at any size; keeps one input fast
    do {
        let rows = try client.run(WatchQueries.assignedToMe, storedAs: WatchQueries.assignedQueryName,
                                  lifetime: .reused, pageSize: 1 + Int(first % 7))
        _ = try WatchQueries.records(fromRows: rows)
        let history = try client.run(WatchQueries.historyOfMyRecords(since: nil), storedAs: WatchQueries.historyQueryName,
                                     lifetime: .temporary, pageSize: 10)
        _ = try client.run(savedQuery: WorkspacePath("Public Queries/All Defects")!, pageSize: 1 + Int(first % 5))
        _ = try WatchQueries.historyRows(history)
    } catch is CompassError {
    } catch is WatchQueries.RowError {
    } catch {
        fatalError("unexpected error type \(type(of: error)): \(error)")
    }
}

/// Answers every request with the same status and body.
struct FuzzedServer: HTTPTransport {
    let status: Int
    let body: [UInt8]

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json"), ("Retry-After", "1")], body: body)
    }
}
