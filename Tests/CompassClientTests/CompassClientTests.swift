import CompassClient
import Foundation
import Logging
import TrackerHTTP
import TrackwatchCore
import TestSupport
import XCTest

/// Answers requests from a script and records them: for fast, exact checks of the client's protocol logic.
/// The same logic runs against compass-sim over real HTTP in IntegrationTests.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    var handler: (HTTPRequest) throws -> HTTPResponse
    private(set) var requests: [HTTPRequest] = []

    init(_ handler: @escaping (HTTPRequest) throws -> HTTPResponse) { self.handler = handler }

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        requests.append(request)
        return try handler(request)
    }

    var routes: [String] {
        requests.map { "\($0.method.rawValue) \($0.url.replacingOccurrences(of: "http://sim/ccmweb/rest", with: ""))" }
    }
}

func json(_ status: Int, _ text: String) -> HTTPResponse {
    HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
}

func jwt(exp: Int, iat: Int? = nil) -> String {
    let issued = iat.map { #","iat":\#($0)"# } ?? ""
    let payload = Data(#"{"sub":"engineer","exp":\#(exp)\#(issued)}"#.utf8).base64EncodedString()
        .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    return "eyJhbGciOiJIUzUxMiJ9.\(payload).c2ln"
}

final class CompassClientTests: XCTestCase {
    private var now: Double = 1_000_000

    private func client(_ transport: ScriptedTransport, credential: Credential = .password(Secret("engineer")))
        throws -> CompassClient
    {
        CompassClient(
            server: try CompassServer(baseURL: "http://sim", repo: "2.0.0", database: "SAMPL", username: "engineer"),
            credential: credential, transport: transport, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            now: { [unowned self] in now })
    }

    private func run(_ client: CompassClient, pageSize: Int = 2) async throws -> [[String]] {
        try await client.run(WatchQueries.assignedToMe, storedAs: WatchQueries.assignedQueryName, lifetime: .reused, pageSize: pageSize)
    }

    func test_apiRoot_appendsCcmwebRestUnlessPresent() throws {
        XCTAssertEqual(try compassAPIRoot(fromBaseURL: "https://compass.example.com:8190"), "https://compass.example.com:8190/ccmweb/rest")
        XCTAssertEqual(try compassAPIRoot(fromBaseURL: "https://h/plan/ccmweb/rest/"), "https://h/plan/ccmweb/rest")
        XCTAssertThrowsError(try compassAPIRoot(fromBaseURL: "compass.example.com"))
    }

    func test_endpoints_percentEncodeSegments() {
        XCTAssertEqual(CompassEndpoint.adHocResultPage(resultSetID: "a b/c", page: 2).path(repo: "2.0.0", database: "SAMPL"),
                       "/repos/2.0.0/databases/SAMPL/query/a%20b%2Fc?pageNumber=2")
    }

    func test_jwtExpiry_isReadWithoutVerification() {
        XCTAssertEqual(AccessToken(jwt(exp: 1_573_661_945), receivedAt: 1_573_660_000).expiresAt, 1_573_661_945)
        XCTAssertNil(AccessToken("not-a-jwt", receivedAt: 0).expiresAt)
        XCTAssertEqual("\(AccessToken(jwt(exp: 1), receivedAt: 0))", "<token>")
    }

    func test_tokenExpiry_isCountedOnTheLocalClock_whateverTheServerClockSays() {
        // The server's clock is an hour behind ours: exp is "in the past" here, yet the token lives 30 minutes.
        let behind = AccessToken(jwt(exp: 1_000_000 - 3_600 + 1_800, iat: 1_000_000 - 3_600), receivedAt: 1_000_000)
        XCTAssertEqual(behind.expiresAt, 1_001_800)
        XCTAssertFalse(behind.needsRenewal(now: 1_000_060), "no login per request when the server's clock is behind")
        XCTAssertTrue(behind.needsRenewal(now: 1_001_800 - 170), "renewed within a tenth of the lifetime")
        // An hour ahead: the token must not be trusted for 90 minutes.
        let ahead = AccessToken(jwt(exp: 1_000_000 + 3_600 + 1_800, iat: 1_000_000 + 3_600), receivedAt: 1_000_000)
        XCTAssertEqual(ahead.expiresAt, 1_001_800)
        // Without iat and with an exp already past locally: unknown, so the server's 401 decides.
        XCTAssertNil(AccessToken(jwt(exp: 999_000), receivedAt: 1_000_000).expiresAt)
    }

    func test_retryAfter_isReadAsSecondsOrHTTPDate() async throws {
        let transport = ScriptedTransport { request in
            if request.url.hasSuffix("/authenticate") { return json(201, #"{"token":"\#(jwt(exp: 2_000_000))"}"#) }
            if request.url.hasSuffix("/query") {
                // 1,000,120 s after 1970 is Mon, 12 Jan 1970 13:48:40 GMT.
                return HTTPResponse(status: 503, headers: [("Retry-After", "Mon, 12 Jan 1970 13:48:40 GMT")])
            }
            return HTTPResponse(status: 429, headers: [("retry-after", " 7 ")])
        }
        await XCTAssertThrowsErrorAsync(try await run(try client(transport))) { error in
            XCTAssertEqual((error as? CompassError)?.retryAfter, 120)
        }
        transport.handler = { _ in HTTPResponse(status: 429, headers: [("retry-after", " 7 ")]) }
        await XCTAssertThrowsErrorAsync(try await run(try client(transport))) { error in
            XCTAssertEqual((error as? CompassError)?.retryAfter, 7)
            XCTAssertTrue("\(error)".contains("retry after 7 s"), "\(error)")
        }
        transport.handler = { _ in HTTPResponse(status: 503, headers: [("Retry-After", "soon")]) }
        await XCTAssertThrowsErrorAsync(try await run(try client(transport))) { XCTAssertNil(($0 as? CompassError)?.retryAfter) }
    }

    func test_adHocQuery_readsEveryPageUntilRecordCount() async throws {
        let transport = ScriptedTransport { request in
            switch (request.method, request.url) {
            case (.post, let url) where url.hasSuffix("/authenticate"): return json(201, #"{"token":"\#(jwt(exp: 2_000_000))"}"#)
            case (.post, let url) where url.hasSuffix("/query"): return json(201, #"{"result_set_id":"rs1","recordCount":3}"#)
            case (.get, let url) where url.hasSuffix("pageNumber=1"): return json(200, #"{"rows":[{"values":["a"]},{"values":["b"]}]}"#)
            case (.get, let url) where url.hasSuffix("pageNumber=2"): return json(200, #"{"rows":[{"values":["c"]}]}"#)
            default: return json(500, #"{"message":"unexpected \#(request.url)"}"#)
            }
        }
        let client = try client(transport)
        await XCTAssertEqualAsync(try await run(client), [["a"], ["b"], ["c"]])
        XCTAssertEqual(transport.routes, [
            "POST /authenticate", "POST /repos/2.0.0/databases/SAMPL/query",
            "GET /repos/2.0.0/databases/SAMPL/query/rs1?pageNumber=1", "GET /repos/2.0.0/databases/SAMPL/query/rs1?pageNumber=2",
        ])
        XCTAssertEqual(client.queryPath, .adHoc)
        XCTAssertTrue(transport.requests[1].headers.contains { $0.name == "Authorization" && $0.value.hasPrefix("Bearer ") })
    }

    func test_pagesEndingBeforeRecordCount_failTheQuery() async throws {
        let transport = ScriptedTransport { request in
            if request.url.hasSuffix("/authenticate") { return json(201, #"{"token":"t"}"#) }
            if request.url.hasSuffix("/query") { return json(201, #"{"result_set_id":"rs1","recordCount":5}"#) }
            if request.url.hasSuffix("pageNumber=1") { return json(200, #"{"rows":[{"values":["a"]},{"values":["b"]}]}"#) }
            return json(200, #"{"rows":[]}"#)
        }
        await XCTAssertThrowsErrorAsync(try await run(try client(transport))) { error in
            guard case CompassError.incompleteResult = error else { return XCTFail("\(error)") }
        }
    }

    func test_garbageInsteadOfJSON_isAnInvalidResponse() async throws {
        let transport = ScriptedTransport { request in
            if request.url.hasSuffix("/authenticate") { return json(201, #"{"token":"t"}"#) }
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/html")], body: Array("<html>proxy</html>".utf8))
        }
        await XCTAssertThrowsErrorAsync(try await run(try client(transport))) { error in
            guard case CompassError.invalidResponse = error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("text/html"), "\(error)")
        }
    }

    func test_401OnAQuery_logsInAgainOnceAndReplays() async throws {
        var queries = 0
        let transport = ScriptedTransport { request in
            if request.url.hasSuffix("/authenticate") { return json(201, #"{"token":"t"}"#) }
            if request.url.hasSuffix("/query") {
                queries += 1
                return queries == 1 ? json(401, #"{"message":"token expired"}"#) : json(201, #"{"result_set_id":"r","recordCount":0}"#)
            }
            return json(404, "{}")
        }
        let client = try client(transport)
        await XCTAssertEqualAsync(try await run(client), [])
        XCTAssertEqual(client.loginCount, 2)
        XCTAssertEqual(transport.routes.filter { $0.hasSuffix("/authenticate") }.count, 2)
    }

    func test_rejectedLogin_isACredentialsErrorAndNotRetried() async throws {
        let transport = ScriptedTransport { _ in json(401, #"{"status":401,"message":"Invalid username or password"}"#) }
        await XCTAssertThrowsErrorAsync(try await run(try client(transport))) { error in
            XCTAssertEqual(error as? CompassError, .loginRejected(status: 401, message: "Invalid username or password"))
            XCTAssertFalse("\(error)".contains("engineer\""))
        }
        XCTAssertEqual(transport.requests.count, 1)
    }

    func test_tokenIsRenewedShortlyBeforeItExpires() async throws {
        let transport = ScriptedTransport { request in
            if request.url.hasSuffix("/authenticate") { return json(201, #"{"token":"\#(jwt(exp: 1_003_600))"}"#) }
            return json(201, #"{"result_set_id":"r","recordCount":0}"#)
        }
        let client = try client(transport)
        _ = try await run(client)
        now += 3_000  // 600 s left of a one-hour token: still more than a tenth of its life
        _ = try await run(client)
        XCTAssertEqual(client.loginCount, 1)
        now += 300  // 300 s left: renew before use
        _ = try await run(client)
        XCTAssertEqual(client.loginCount, 2)
    }

    func test_personalAccessToken_isSentAsBasicWithoutLogin() async throws {
        let transport = ScriptedTransport { _ in json(201, #"{"result_set_id":"r","recordCount":0}"#) }
        _ = try await run(try client(transport, credential: .personalAccessToken(Secret("pat-123"))))
        XCTAssertEqual(transport.routes, ["POST /repos/2.0.0/databases/SAMPL/query"])
        XCTAssertTrue(transport.requests[0].headers.contains { $0.name == "Authorization" && $0.value == "Basic pat-123" })
    }

    func test_withoutAdHocQueries_fallsBackToAStoredQueryAndReusesIt() async throws {
        var created = 0
        let transport = ScriptedTransport { request in
            let url = request.url
            switch request.method {
            case .post where url.hasSuffix("/authenticate"): return json(201, #"{"token":"t"}"#)
            case .post where url.hasSuffix("/query"): return json(404, #"{"message":"No endpoint"}"#)
            case .get where url.hasSuffix("/workspace/folders"):
                return json(200, #"[{"name":"Personal Queries","dbId":"77"},{"name":"Public Queries","dbId":"1"}]"#)
            case .get where url.hasSuffix("/folders/77/queryDefs"): return json(200, "[]")
            case .post where url.hasSuffix("/workspace/queryDefs"):
                created += 1
                return json(201, #"{"dbId":"q\#(created)","name":"x"}"#)
            case .post where url.hasSuffix("/resultsets"): return json(201, #"{"result_set_id":"r","recordCount":1}"#)
            case .get where url.contains("/resultsets/r"): return json(200, #"{"rows":[{"values":["a"]}]}"#)
            default: return json(500, #"{"message":"unexpected \#(request.method) \#(url)"}"#)
            }
        }
        let client = try client(transport)
        await XCTAssertEqualAsync(try await run(client), [["a"]])
        await XCTAssertEqualAsync(try await run(client), [["a"]])
        XCTAssertEqual(client.queryPath, .stored)
        XCTAssertEqual(created, 1, "the fixed query is stored once and reused")
        XCTAssertEqual(transport.routes.filter { $0.hasSuffix("/query") }.count, 1, "the client remembers the path")
    }
}
