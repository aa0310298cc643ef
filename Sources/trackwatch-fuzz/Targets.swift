import CompassClient
import Logging
import TrackwatchCore

/// The fuzz targets, by name: each takes one input and must not crash, hang or allocate without bound.
let targets: [String: @Sendable (UnsafeRawBufferPointer) -> Void] = [
    "config": fuzzConfig,
    "compass": fuzzCompass,
]

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
        let history = try client.run(WatchQueries.modifiedByOthers(since: nil), storedAs: WatchQueries.historyQueryName,
                                     lifetime: .temporary, pageSize: 10)
        _ = try WatchQueries.historyEntries(fromRows: history)
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
