import JSONListSimulator
import SimulatorKit
import XCTest

final class ConditionalTests: XCTestCase {
    private var server: TestServer!

    /// A fresh server per test, made when it runs (XCTest creates every test case up front).
    override func setUp() { server = TestServer() }

    func test_etag_answers304WhileTheListHolds_andCountsThem() throws {
        let first = server.call("GET", "/conditional/etag")
        let etag = try XCTUnwrap(first.header("ETag"))
        XCTAssertTrue(etag.hasPrefix("\"") && etag.hasSuffix("\""), "strong")
        let again = server.call("GET", "/conditional/etag", headers: ["if-none-match": etag])
        XCTAssertEqual(again.status, 304)
        XCTAssertTrue(again.body.isEmpty)
        XCTAssertEqual(again.header("ETag"), etag)
        server.call("PATCH", "/sim/items/3", body: ["status": "closed"])
        let changed = server.call("GET", "/conditional/etag", headers: ["if-none-match": etag])
        XCTAssertEqual(changed.status, 200)
        XCTAssertNotEqual(changed.header("ETag"), etag)
        XCTAssertEqual(server.stats["notModified"]?.int, 1)
        XCTAssertEqual(server.stats["conditionalRequests"]?.int, 2)
    }

    func test_weakETag_matchesWeakly() throws {
        let etag = try XCTUnwrap(server.call("GET", "/conditional/weak-etag").header("ETag"))
        XCTAssertTrue(etag.hasPrefix("W/\""))
        XCTAssertEqual(server.call("GET", "/conditional/weak-etag", headers: ["if-none-match": etag]).status, 304)
        let strong = String(etag.dropFirst(2))
        XCTAssertEqual(
            server.call("GET", "/conditional/weak-etag", headers: ["if-none-match": "\"x\", " + strong])
                .status, 304)
    }

    func test_lastModified_movesOnEveryChange_evenWithinOneSecond() throws {
        let stamp = try XCTUnwrap(server.call("GET", "/conditional/last-modified").header("Last-Modified"))
        XCTAssertEqual(
            server.call("GET", "/conditional/last-modified", headers: ["if-modified-since": stamp]).status,
            304)
        let earlier = HTTPDate.format(server.clock.now - 10)
        XCTAssertEqual(
            server.call("GET", "/conditional/last-modified", headers: ["if-modified-since": earlier])
                .status, 200)
        server.call("POST", "/sim/items", body: ["title": "New"])  // the clock has not moved
        let changed = server.call("GET", "/conditional/last-modified", headers: ["if-modified-since": stamp])
        XCTAssertEqual(changed.status, 200)
        XCTAssertEqual(changed.ids.last, 13)
        XCTAssertGreaterThan(HTTPDate.parse(changed.header("Last-Modified") ?? "") ?? 0, HTTPDate.parse(stamp) ?? 0)
    }

    func test_both_ifNoneMatchDecidesAlone() throws {
        let first = server.call("GET", "/conditional/both")
        let stamp = try XCTUnwrap(first.header("Last-Modified"))
        XCTAssertNotNil(first.header("ETag"))
        let stale = server.call(
            "GET", "/conditional/both",
            headers: [
                "if-none-match": "\"old\"",
                "if-modified-since": stamp,
            ])
        XCTAssertEqual(stale.status, 200)
    }
}
