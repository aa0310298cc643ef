import JSONListSimulator
import SimulatorKit
import XCTest

final class AuthAndEncodingTests: XCTestCase {
    private var server: TestServer!

    /// A fresh server per test, made when it runs (XCTest creates every test case up front).
    override func setUp() { server = TestServer() }

    func test_basic_refusesNoneAndWrong_with401_andTheForbiddenUser_with403() {
        XCTAssertEqual(server.call("GET", "/auth/basic").header("WWW-Authenticate"), #"Basic realm="json-sim""#)
        XCTAssertEqual(server.call("GET", "/auth/basic", authorization: TestServer.basic("reader", "x")).status, 401)
        XCTAssertEqual(
            server.call("GET", "/auth/basic", authorization: TestServer.basic("outsider", "outsider-pw"))
                .status, 403)
        XCTAssertEqual(
            server.call("GET", "/auth/basic", authorization: TestServer.basic("reader", "reader-pw")).ids,
            Array(1...12))
    }

    func test_bearer_refusesNoneAndWrong_with401_andTheForbiddenToken_with403() {
        XCTAssertEqual(server.call("GET", "/auth/bearer").status, 401)
        let wrong = server.call("GET", "/auth/bearer", authorization: "Bearer nope")
        XCTAssertEqual(wrong.status, 401)
        XCTAssertTrue(wrong.header("WWW-Authenticate")?.contains("invalid_token") == true)
        XCTAssertEqual(server.call("GET", "/auth/bearer", authorization: "Bearer outsider-token").status, 403)
        XCTAssertEqual(server.call("GET", "/auth/bearer", authorization: "Basic bGlzdC10b2tlbg==").status, 401)
        XCTAssertEqual(server.call("GET", "/auth/bearer", authorization: "Bearer list-token").status, 200)
    }

    func test_apiKey_missingIs401_wrongIs403() {
        XCTAssertEqual(server.call("GET", "/auth/api-key").status, 401)
        XCTAssertEqual(server.call("GET", "/auth/api-key", headers: ["x-api-key": "nope"]).status, 403)
        XCTAssertEqual(server.call("GET", "/auth/api-key", headers: ["x-api-key": "outsider-key"]).status, 403)
        XCTAssertEqual(server.call("GET", "/auth/api-key", headers: ["x-api-key": "list-key"]).status, 200)
    }

    func test_gzip_onlyWhenAsked_unlessAlways() throws {
        let plain = server.call("GET", "/list/bare").body
        let unasked = server.call("GET", "/encoding/gzip")
        XCTAssertNil(unasked.header("Content-Encoding"))
        XCTAssertEqual(unasked.body, plain)
        XCTAssertNil(
            server.call("GET", "/encoding/gzip", headers: ["accept-encoding": "gzip;q=0"])
                .header("Content-Encoding"))
        for (target, asked) in [("/encoding/gzip", "deflate, gzip"), ("/encoding/gzip-always", "identity")] {
            let answer = server.call("GET", target, headers: ["accept-encoding": asked])
            XCTAssertEqual(answer.header("Content-Encoding"), "gzip")
            XCTAssertEqual(try gunzip(answer.body), plain)
        }
        XCTAssertEqual(server.stats["gzipped"]?.int, 2)
        XCTAssertEqual(server.stats["gzipAccepted"]?.int, 1)
    }

    func test_bom_charset_textPlain_andChunked() {
        let plain = server.call("GET", "/list/bare").body
        XCTAssertEqual(server.call("GET", "/encoding/bom").body, [0xEF, 0xBB, 0xBF] + plain)
        XCTAssertEqual(server.call("GET", "/encoding/charset").header("Content-Type"), "application/json;charset=UTF-8")
        let text = server.call("GET", "/encoding/text-plain")
        XCTAssertEqual(text.header("Content-Type"), "text/plain")
        XCTAssertTrue(text.text.contains("東京"), "UTF-8 without saying so")
        XCTAssertEqual(server.call("GET", "/encoding/chunked").response.delivery, .chunked)
    }

    func test_gzipBomb_inflatesToItsSize_intoWhitespaceAndAnEmptyList() throws {
        let bomb = server.call("GET", "/fault/gzip-bomb?size=20000000")
        XCTAssertEqual(bomb.header("Content-Encoding"), "gzip")
        XCTAssertLessThan(bomb.body.count, 100_000)
        let inflated = try gunzip(bomb.body)
        XCTAssertEqual(inflated.count, 20_000_000)
        XCTAssertEqual(Array(inflated.suffix(3)), Array(" []".utf8))
    }
}
