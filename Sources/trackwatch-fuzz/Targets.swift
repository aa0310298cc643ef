import CompassClient
import Logging
import TrackerHTTP
import TrackwatchApp
import TrackwatchCore

/// The fuzz targets, by name: each takes one input and must not crash, hang or allocate without bound.
let targets: [String: @Sendable (UnsafeRawBufferPointer) -> Void] = [
    "config": fuzzConfig,
    "compass": { bytes in _ = try? waitForTask { await fuzzCompass(bytes) } },
    "csv": fuzzCSV,
    "timestamp": fuzzTimestamp,
    "headers": { bytes in _ = try? waitForTask { await fuzzHeaders(bytes) } },
    "jwt": fuzzJWT,
    "json": fuzzJSONList,
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
    guard let (timestamp, _) = Timestamp.parse(text) else { return }
    guard timestamp.secondsSinceEpoch != nil, Timestamp.parse(timestamp.rawValue)?.timestamp == timestamp,
        timestamp.adding(seconds: -HistoryWindow.reach(overlap: 86_400)) != nil
    else { fatalError("\(text.debugDescription) → \(timestamp) is not a normal form") }
}

/// The configuration reader (TOML + schema). Every rejection must be a `ConfigError` whose line, if any, lies
/// within the input. What every command then derives from an accepted configuration (the clear-text rule, the
/// proxy) runs too: a full-width digit in a URL's host once trapped there, after the parse.
func fuzzConfig(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    do {
        let config = try Config.parse(text, file: "fuzz.toml", kinds: SourceRegistry.kinds)
        for server in config.servers {
            _ = ServerURL.isCleartextToAnotherHost(server.url)
            let environment = ["http_proxy": "http://p:1", "https_proxy": "http://p:1", "no_proxy": "10.0.0.0/8"]
            _ = try? server.connection.proxyChoice(environment: environment, table: "[server]", label: server.label)
        }
    } catch {
        if let line = error.line, line < 1 || line > text.utf8.count + 1 { fatalError("line \(line) out of range") }
    }
}

/// Everything that reads Compass's answers: login, result sets and pages, folders and stored queries, error
/// bodies, JWT claims, and the rows' conversion into records and history. The input is the server: its
/// first byte picks the HTTP status (and the query mode and page size), the rest is the body of every
/// answer. A thrown error must be a `CompassError` or a row error, nothing else.
func fuzzCompass(_ bytes: UnsafeRawBufferPointer) async {
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
        let rows = try await client.run(WatchQueries.assignedToMe, storedAs: WatchQueries.assignedQueryName,
                                  lifetime: .reused, pageSize: 1 + Int(first % 7))
        _ = try WatchQueries.records(fromRows: rows)
        let history = try await client.run(WatchQueries.historyOfMyRecords(since: nil), storedAs: WatchQueries.historyQueryName,
                                     lifetime: .temporary, pageSize: 10)
        _ = try await client.run(savedQuery: WorkspacePath("Public Queries/All Defects")!, pageSize: 1 + Int(first % 5))
        _ = try WatchQueries.historyRows(history)
    } catch is CompassError {
    } catch is WatchQueries.RowError {
    } catch {
        fatalError("unexpected error type \(type(of: error)): \(error)")
    }
}

/// The response headers a server controls — `Retry-After`, `Set-Cookie`, `Content-Type` — on every kind of answer,
/// through the public client as a poll drives it. The input's lines are the header values (first byte: the
/// status); the rest is the error body. Whatever arrives: no trap, a wait of at most a day, error text on one
/// line without control characters, and `Cookie` headers that cannot break a request line or grow unbounded.
func fuzzHeaders(_ bytes: UnsafeRawBufferPointer) async {
    guard let first = bytes.first else { return }
    let statuses = [503, 429, 500, 404, 201, 200, 401, 403]
    let lines = String(decoding: bytes.dropFirst(), as: UTF8.self)
        .split(separator: "\n", maxSplits: 64, omittingEmptySubsequences: false)
    var headers: [(name: String, value: String)] = [("Retry-After", lines.first.map(String.init) ?? "")]
    headers += lines.dropFirst().prefix(40).map { ("Set-Cookie", String($0)) }
    if let last = lines.last { headers.append(("Content-Type", String(last))) }
    let server = HeaderServer(status: statuses[Int(first) % statuses.count], headers: headers,
                              body: Array((lines.last ?? "").utf8))
    let client = CompassClient(
        server: try! CompassServer(baseURL: first & 0x40 != 0 ? "https://fuzz:8190" : "http://fuzz", repo: "2.0.0",
                                   database: "SAMPL", username: "engineer"),
        credential: .password(Secret("engineer")), transport: server,
        logger: Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }, now: { 1_800_000_000 })
    if first & 0x80 != 0 { client.assume(.stored) }
    for _ in 0..<2 {
        do {
            _ = try await client.run(
                WatchQueries.assignedToMe, storedAs: WatchQueries.assignedQueryName, lifetime: .reused, pageSize: 5)
        } catch let error as CompassError {
            if let wait = error.retryAfter, !(0...86_400).contains(wait) { fatalError("unbounded Retry-After \(wait)") }
            let controls = error.description.unicodeScalars.filter {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
            }
            if !controls.isEmpty {
                fatalError("control character in an error: \(error.description.debugDescription)")
            }
        } catch {
            fatalError("unexpected error type \(type(of: error)): \(error)")
        }
    }
    for cookie in server.cookiesSent.value {
        if cookie.utf8.count > 8_192 || cookie.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) {
            fatalError("a Cookie header that could break the request: \(cookie.debugDescription)")
        }
    }
    _ = client.cookieNames
}

/// JWT claims as the login answer carries them: the input as the claims JSON of a token, and as the whole
/// token. The token's lifetime must come out unknown or within a year, whatever `exp` and `iat` say.
func fuzzJWT(_ bytes: UnsafeRawBufferPointer) {
    let raw = String(decoding: bytes, as: UTF8.self)
    let claims = base64URL(Array(bytes))
    for token in ["eyJhbGciOiJIUzUxMiJ9.\(claims).c2ln", raw] {
        for receivedAt in [0, 1_800_000_000, -1e18, 1e300] as [Double] {
            let parsed = AccessToken(token, receivedAt: receivedAt)
            if let lifetime = parsed.lifetime, !(lifetime > 0 && lifetime <= 366 * 86_400) {
                fatalError("lifetime \(lifetime) from \(raw.debugDescription)")
            }
            for now in [receivedAt, receivedAt + 3_600, .infinity] { _ = parsed.needsRenewal(now: now) }
            _ = parsed.description
        }
    }
}

private func base64URL(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    var out = ""
    var index = 0
    while index < bytes.count {
        let chunk = bytes[index..<min(index + 3, bytes.count)]
        let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
        for position in 0...chunk.count { out.append(alphabet[(value >> (18 - 6 * position)) & 0x3F]) }
        index += 3
    }
    return out
}

/// Answers with the fuzzed headers: logins succeed (so that later requests carry the cookies), everything else
/// gets the fuzzed status; records the `Cookie` headers the client sends.
final class HeaderServer: HTTPTransport {
    let status: Int
    let headers: [(name: String, value: String)]
    let body: [UInt8]
    let cookiesSent = Box<[String]>([])

    init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        if let cookie = request.headers.first(where: { $0.name == "Cookie" }) { cookiesSent.value.append(cookie.value) }
        if request.url.hasSuffix("/authenticate") {
            return HTTPResponse(status: 201, headers: headers, body: Array(#"{"token":"a.e30.b"}"#.utf8))
        }
        return HTTPResponse(status: status, headers: headers, body: body)
    }
}

/// A mutable value a `Sendable` transport may hold: the fuzzer is single-threaded.
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Answers every request with the same status and body.
struct FuzzedServer: HTTPTransport {
    let status: Int
    let body: [UInt8]

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json"), ("Retry-After", "1")], body: body)
    }
}
