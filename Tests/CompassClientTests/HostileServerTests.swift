@testable import CompassClient
import Foundation
import Logging
import TrackerHTTP
import TrackwatchCore
import TestSupport
import XCTest

/// The client's protocol logic against scripted hostile and unusual answers: numbers bounded before use,
/// server text cleaned at the source, refused tokens, refused ad-hoc queries, cookies, localized folders.
/// The same behaviour runs against compass-sim over real HTTP in IntegrationTests.
final class HostileServerTests: XCTestCase {
    private var now: Double = 1_000_000

    private func client(
        _ transport: ScriptedTransport, credential: Credential = .password(Secret("engineer")),
        url: String = "http://sim"
    ) throws -> CompassClient {
        CompassClient(
            server: try CompassServer(baseURL: url, repo: "2.0.0", database: "SAMPL", username: "engineer"),
            credential: credential, transport: transport,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            now: { [unowned self] in now })
    }

    private func run(_ client: CompassClient) async throws -> [[String]] {
        try await client.run(
            WatchQueries.assignedToMe, storedAs: WatchQueries.assignedQueryName, lifetime: .reused, pageSize: 10)
    }

    private static let login = json(201, #"{"token":"t"}"#)
    private static let emptyResult = json(201, #"{"result_set_id":"r","recordCount":0}"#)

    // MARK: - Numbers from the server

    func test_retryAfter_isBoundedToADay_andDatesOutsideYears1970To9999AreNoDates() {
        XCTAssertEqual(RetryAfter.seconds("9223372036854775807", now: 0), 86_400)
        XCTAssertEqual(RetryAfter.seconds(String(repeating: "9", count: 60), now: 0), 86_400)
        XCTAssertEqual(RetryAfter.seconds("000000000000000000000000007", now: 0), 7)
        XCTAssertEqual(RetryAfter.seconds(" 7 ", now: 0), 7)
        XCTAssertNil(RetryAfter.seconds("-1", now: 0))
        XCTAssertNil(RetryAfter.seconds("1e9", now: 0))
        XCTAssertNil(RetryAfter.seconds("Sun, 06 Nov 999999999999 08:49:37 GMT", now: 0))
        XCTAssertNil(RetryAfter.seconds("Sun, 06 Nov -999999999999 08:49:37 GMT", now: 0))
        XCTAssertNil(RetryAfter.seconds("Sun, 06 Nov 1969 08:49:37 GMT", now: 0))
        XCTAssertEqual(RetryAfter.seconds("Fri, 31 Dec 9999 23:59:59 GMT", now: 0), 86_400)
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: 1_000_000_000), 0, "past: now")
        XCTAssertEqual(RetryAfter.httpDate("Sun, 06-Nov-1994 08:49:37 GMT"), 784_111_777, "the cookie form")
        XCTAssertNil(
            RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT" + String(repeating: " ", count: 100) + "x", now: 0))
    }

    func test_errorText_neverTrapsOnAnAbsurdWait() {
        for wait in [Double.infinity, -Double.infinity, .nan, 1e300, -5] {
            _ = CompassError.server(status: 503, message: "", endpoint: "login", retryAfter: wait).description
        }
    }

    func test_jwtClaims_absurdNumbersAreBounded() {
        func token(_ claims: String) -> String {
            "eyJhbGciOiJIUzUxMiJ9." + Data(claims.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                + ".c2ln"
        }
        let huge = AccessToken(token(#"{"exp":1e300,"iat":0}"#), receivedAt: 1_000)
        XCTAssertEqual(huge.lifetime, AccessToken.longestLifetime)
        XCTAssertEqual(huge.expiresAt, 1_000 + AccessToken.longestLifetime)
        XCTAssertNil(AccessToken(token(#"{"exp":1e999}"#), receivedAt: 1_000).expiresAt)
        XCTAssertNil(
            AccessToken(token(#"{"exp":1e308,"iat":-1e308}"#), receivedAt: 1_000).expiresAt,
            "a lifetime past Double's range")
        XCTAssertNil(AccessToken(token(#"{"exp":"soon"}"#), receivedAt: 1_000).expiresAt)
        XCTAssertNil(
            AccessToken(
                token(#"{"exp":2000,"iat":1000,"pad":"\#(String(repeating: "x", count: 20_000))"}"#), receivedAt: 0
            ).expiresAt,
            "a token of that size is not decoded")
        XCTAssertEqual(AccessToken(token(#"{"exp":4600,"iat":1000}"#), receivedAt: 0).expiresAt, 3_600)
    }

    // MARK: - Server text

    func test_serverMessages_areOneLineWithoutControlOrBidiCharacters_andBounded() {
        func message(_ body: String, contentType: String = "application/json") -> String {
            CompassClient.message(
                in: HTTPResponse(status: 401, headers: [("Content-Type", contentType)], body: Array(body.utf8)))
        }
        XCTAssertEqual(
            message(#"{"message":"a\nWATCHDOG=trigger\r\u001b[31mred\u0085x\u202Ey\u2028z\u0000"}"#),
            "a WATCHDOG=trigger [31mred xy z", "NEL is a line break: a space")
        XCTAssertEqual(message(#"{"error":"Unauthorized\t\tnow"}"#), "Unauthorized now")
        XCTAssertEqual(
            message("<html>\n<b>Proxy</b>\u{1B}]0;t\u{07}</html>", contentType: "text/html"),
            "<html> <b>Proxy</b>]0;t</html>")
        let long = message(#"{"message":"\#(String(repeating: "é", count: 10_000))"}"#)
        XCTAssertEqual(long.count, CompassClient.maximumMessageLength)
        XCTAssertTrue(long.hasSuffix("…"))
    }

    // MARK: - Refused tokens

    func test_tokenRefusedWith403Or500_logsInAgainOnce_andAStatusTheLoginDidNotCureCostsNoMoreLogins() async throws {
        for status in [403, 500] {
            var answers = [json(status, #"{"message":"no session"}"#), Self.emptyResult]
            let transport = ScriptedTransport { request in
                request.url.hasSuffix("/authenticate") ? Self.login : answers.removeFirst()
            }
            let client = try client(transport)
            await XCTAssertEqualAsync(try await run(client), [])
            XCTAssertEqual(client.loginCount, 2, "\(status)")
            XCTAssertEqual(client.tokenRefusalStatuses, [status])

            answers = Array(repeating: json(status, #"{"message":"denied"}"#), count: 12)
            await XCTAssertThrowsErrorAsync(try await run(client))
            XCTAssertEqual(client.loginCount, 3, "\(status): one more login to rule out a lost token")
            await XCTAssertThrowsErrorAsync(try await run(client))
            XCTAssertEqual(client.loginCount, 3, "\(status): then the status is believed")
        }
    }

    func test_personalAccessToken_a403IsNotALogin() async throws {
        let transport = ScriptedTransport { _ in json(403, #"{"message":"no"}"#) }
        await XCTAssertThrowsErrorAsync(try await run(try client(transport, credential: .personalAccessToken(Secret("pat")))))
        XCTAssertFalse(transport.routes.contains { $0.hasSuffix("/authenticate") })
    }

    // MARK: - Requests

    func test_everyRequest_carriesJSONContentTypeAndAccept() async throws {
        let transport = ScriptedTransport { request in
            switch (request.method, request.url) {
            case (.post, let url) where url.hasSuffix("/authenticate"): return Self.login
            case (.post, let url) where url.hasSuffix("/query"):
                return json(201, #"{"result_set_id":"r","recordCount":1}"#)
            default: return json(200, #"{"rows":[{"values":["a"]}]}"#)
            }
        }
        let client = try client(transport)
        _ = try await run(client)
        await client.logoff()
        XCTAssertEqual(transport.requests.map(\.method), [.post, .post, .get, .post])
        for request in transport.requests {
            XCTAssertTrue(
                request.headers.contains { $0.name == "Content-Type" && $0.value == "application/json" }, request.url)
            XCTAssertTrue(
                request.headers.contains { $0.name == "Accept" && $0.value == "application/json" }, request.url)
        }
    }

    func test_cookiesTheServerSets_areSentBack_andNeverShown() async throws {
        let transport = ScriptedTransport { request in
            if request.url.hasSuffix("/authenticate") {
                return HTTPResponse(
                    status: 201,
                    headers: [
                        ("Set-Cookie", "ROUTE=replica-2; Path=/ccmweb; HttpOnly"),
                        ("set-cookie", "JSESSIONID=abc123secret; Path=/"),
                        ("Set-Cookie", "OTHER=x; Domain=example.com"),
                        ("Set-Cookie", "TLSONLY=y; Secure"),
                        ("Set-Cookie", "BAD=a\u{7}b"),
                    ], body: Array(#"{"token":"t"}"#.utf8))
            }
            return json(503, #"{"message":"busy"}"#)
        }
        let client = try client(transport)
        await XCTAssertThrowsErrorAsync(try await run(client)) { error in
            XCTAssertFalse("\(error)".contains("abc123secret"), "\(error)")
        }
        XCTAssertEqual(
            client.cookieNames.sorted(), ["JSESSIONID", "ROUTE"],
            "foreign-domain, secure-over-http and broken cookies are dropped")
        let cookie = transport.requests[1].headers.first { $0.name == "Cookie" }?.value
        XCTAssertEqual(cookie, "ROUTE=replica-2; JSESSIONID=abc123secret", "longer path first")
        XCTAssertNil(transport.requests[0].headers.first { $0.name == "Cookie" }, "none before the server set one")
        await client.logoff()
        XCTAssertEqual(client.cookieNames, [], "the session's cookies end with it")
    }

    // MARK: - Ad-hoc queries refused

    func test_adHocRefusals_areRecognised_andTheChoiceIsRevisited() {
        func refusal(_ status: Int, _ type: String = "application/json", _ body: String = "{}") -> AdHocRefusal? {
            AdHocRefusal(HTTPResponse(status: status, headers: [("Content-Type", type)], body: Array(body.utf8)))
        }
        XCTAssertEqual([400, 404, 405, 500, 501].map { refusal($0) }, [400, 404, 405, 500, 501].map { .status($0) })
        XCTAssertNil(refusal(503), "an outage is not a refusal: the poll fails and is retried")
        XCTAssertNil(refusal(401))
        XCTAssertNil(refusal(201, "application/json", #"{"result_set_id":"r"}"#))
        XCTAssertEqual(refusal(200, "text/html;charset=UTF-8", "<html>"), .htmlPage(status: 200))
        XCTAssertEqual(refusal(200, "application/octet-stream", "\u{FEFF}\n  <!DOCTYPE html>"), .htmlPage(status: 200))

        var memory = QueryPathMemory()
        memory.refused(.status(404), now: 0)
        XCTAssertFalse(memory.shouldTryAdHoc(now: 1e9), "no endpoint: believed until the process ends")
        memory = QueryPathMemory()
        memory.refused(.status(500), now: 0)
        XCTAssertFalse(memory.shouldTryAdHoc(now: 3_599))
        XCTAssertTrue(memory.shouldTryAdHoc(now: 3_600), "an ambiguous refusal is revisited after an hour")
        memory = QueryPathMemory()
        memory.adHocWorked = true
        memory.refused(.htmlPage(status: 200), now: 0)
        XCTAssertTrue(memory.shouldTryAdHoc(now: 0), "a server that ran ad-hoc queries is asked again at once")
    }

    func test_queryRefusedWithAnHTMLPage_runsOnTheStoredPath() async throws {
        let transport = ScriptedTransport { request in
            let url = request.url
            switch request.method {
            case .post where url.hasSuffix("/authenticate"): return Self.login
            case .post where url.hasSuffix("/query"):
                return HTTPResponse(
                    status: 200, headers: [("Content-Type", "text/html")], body: Array("<html>hi</html>".utf8))
            case .get where url.hasSuffix("/workspace/folders"):
                return json(
                    200,
                    #"[{"name":"Persönliche Abfragen","dbId":"77","isWritable":true},"#
                        + #"{"name":"Öffentliche Abfragen","dbId":"1","isWritable":false}]"#)
            case .get where url.hasSuffix("/folders/77/queryDefs"):
                return json(200, #"[{"name":"trackwatch: assigned to me","dbId":"old1"},{"name":"mine","dbId":"m"}]"#)
            case .delete where url.hasSuffix("/queryDefs/old1"): return HTTPResponse(status: 204)
            case .post where url.hasSuffix("/workspace/queryDefs"): return json(201, #"{"dbId":"q1"}"#)
            case .post where url.hasSuffix("/resultsets"): return Self.emptyResult
            default: return json(500, #"{"message":"unexpected \#(request.method) \#(url)"}"#)
            }
        }
        let client = try client(transport)
        await XCTAssertEqualAsync(try await run(client), [])
        XCTAssertEqual(client.queryPath, .stored)
        XCTAssertEqual(client.adHocRefusal, .htmlPage(status: 200))
        XCTAssertEqual(client.personalFolderName, "Persönliche Abfragen")
        XCTAssertTrue(
            transport.routes.contains("DELETE /repos/2.0.0/databases/SAMPL/workspace/queryDefs/old1"),
            "\(transport.routes)")
        let created = transport.requests.first { $0.method == .post && $0.url.hasSuffix("/workspace/queryDefs") }
        let body = created.flatMap { $0.body }.map { String(decoding: $0, as: UTF8.self) } ?? ""
        XCTAssertTrue(body.contains(#""name":"trackwatch assigned to me""#), body)
        XCTAssertTrue(body.contains(#""dbIdParent":"77""#), body)
    }

    // MARK: - Localized root folders

    func test_personalRoot_isFoundByWhatItIs() throws {
        func roots(_ json: String) throws -> WorkspaceRoots {
            try WorkspaceRoots(JSONDecoder().decode([WorkspaceItem].self, from: Data(json.utf8)))
        }
        let german = try roots(
            #"[{"name":"Öffentliche Abfragen","dbId":"1","isWritable":true},"#
                + #"{"name":"Persönliche Abfragen","dbId":"2","isWritable":true}]"#)
        XCTAssertEqual(german.personal.dbId, "2", "by its German name, even for an administrator who may write in both")
        XCTAssertEqual(german.root(named: "Public Queries")?.dbId, "1", "the English name finds the German folder")
        XCTAssertEqual(german.root(named: "Personal Queries")?.dbId, "2")
        XCTAssertEqual(german.root(named: "Öffentliche Abfragen")?.dbId, "1")
        XCTAssertNil(german.root(named: "Shared"))
        let unknown = try roots(
            #"[{"name":"個人","dbId":"5","isWritable":true},{"name":"公開","dbId":"6","isWritable":false}]"#)
        XCTAssertEqual(unknown.personal.dbId, "5", "a language not in the list: the writable root")
        XCTAssertEqual(unknown.publicFolder?.dbId, "6")
        XCTAssertThrowsError(
            try roots(#"[{"name":"A","dbId":"5","isWritable":true},{"name":"B","dbId":"6","isWritable":true}]"#)
        ) {
            XCTAssertTrue("\($0)".contains("cannot tell which root folder is Personal Queries"), "\($0)")
        }
    }
}

/// The cookie jar against the rules of RFC 6265 that matter here, and the bounds a hostile server meets.
final class CookieJarTests: XCTestCase {
    private let https = RequestURL("https://compass.example.com:8190/ccmweb/rest/repos/x")
    private let http = RequestURL("http://compass.example.com:8190/ccmweb/rest/repos/x")

    private func jar(_ lines: [String], from url: RequestURL, now: Double = 1_000) -> CookieJar {
        var jar = CookieJar()
        jar.store(lines.map { ("Set-Cookie", $0) }, from: url, now: now)
        return jar
    }

    func test_scope_domainPathAndSecure() {
        var cookies = jar(
            [
                "host=1", "sub=2; Domain=.example.com", "foreign=3; Domain=other.com", "tld=4; Domain=com",
                "deep=5; Path=/ccmweb/rest/repos/x", "elsewhere=6; Path=/cqweb", "tls=7; Secure",
            ], from: https)
        XCTAssertEqual(cookies.names, ["host", "sub", "deep", "elsewhere", "tls"])
        XCTAssertEqual(cookies.header(for: https, now: 1_000), "deep=5; host=1; sub=2; tls=7")
        XCTAssertEqual(cookies.header(for: http, now: 1_000), "deep=5; host=1; sub=2", "Secure only over https")
        XCTAssertEqual(
            cookies.header(for: RequestURL("https://replica.example.com/ccmweb/rest/repos/y"), now: 1_000), "sub=2",
            "a Domain cookie reaches subdomains, a host cookie does not")
        XCTAssertNil(cookies.header(for: RequestURL("https://example.org/ccmweb/rest"), now: 1_000))
        XCTAssertEqual(jar(["tls=7; Secure"], from: http).names, [], "a plain-HTTP answer cannot set a Secure cookie")
        XCTAssertEqual(
            jar(["ip=1; Domain=0.0.1"], from: RequestURL("http://127.0.0.1/ccmweb")).names, [], "no IP 'subdomains'")
    }

    func test_expiry_maxAgeExpiresAndDeletion() {
        var cookies = jar(
            ["a=1; Max-Age=60", "b=2; Expires=Wed, 21 Oct 2065 07:28:00 GMT", "c=3; Max-Age=9223372036854775807999"],
            from: https)
        XCTAssertEqual(cookies.header(for: https, now: 1_059), "a=1; b=2; c=3")
        XCTAssertEqual(cookies.header(for: https, now: 1_061), "b=2; c=3")
        var far = cookies
        XCTAssertNil(
            far.header(for: https, now: 1_000 + CookieJar.longestLifetime + 1), "no expiry further away than 400 days")
        cookies.store([("Set-Cookie", "b=gone; Max-Age=0")], from: https, now: 2_000)
        XCTAssertEqual(cookies.header(for: https, now: 2_000), "c=3", "Max-Age=0 deletes")
        cookies.store([("Set-Cookie", "c=old; Expires=Thu, 01 Jan 1970 00:00:01 GMT")], from: https, now: 2_000)
        XCTAssertNil(cookies.header(for: https, now: 2_000), "an Expires in the past deletes")
    }

    func test_hostileCookies_areBoundedAndCannotBreakAHeader() {
        XCTAssertEqual(
            jar(["a=b\r\nX-Injected: 1", "c=d\u{0}e", "é=1", "=noname", "novalue", "s=with space"], from: https).names,
            [])
        XCTAssertEqual(jar(["big=" + String(repeating: "x", count: 5_000)], from: https).names, [])
        var many = jar((0..<40).map { "c\($0)=v" }, from: https)
        XCTAssertEqual(many.names.count, CookieJar.maximumCount, "at most 32 from one answer, and in the jar")
        for round in 0..<10 {
            many.store((0..<32).map { ("Set-Cookie", "r\(round)x\($0)=v") }, from: https, now: 1_000)
        }
        XCTAssertEqual(many.names.count, CookieJar.maximumCount)
        XCTAssertEqual(many.names.first, "r9x0", "the oldest go first")
        var heavy = jar((0..<4).map { "h\($0)=" + String(repeating: "y", count: 4_000) }, from: https)
        XCTAssertLessThanOrEqual(heavy.header(for: https, now: 1_000)?.utf8.count ?? 0, CookieJar.maximumHeaderSize)
        XCTAssertFalse("\(heavy)".contains("yyy"), "the description names cookies, never values")
    }

    func test_replacesACookieOfTheSameNameDomainAndPath() {
        var cookies = jar(["route=1"], from: https)
        cookies.store([("Set-Cookie", "route=2")], from: https, now: 1_000)
        XCTAssertEqual(cookies.header(for: https, now: 1_000), "route=2")
    }
}
