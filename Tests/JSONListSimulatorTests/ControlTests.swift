import JSONListSimulator
import SimulatorKit
import XCTest

final class ControlTests: XCTestCase {
    private var server: TestServer!

    /// A fresh server per test, made when it runs (XCTest creates every test case up front).
    override func setUp() { server = TestServer() }

    func test_items_canBeAddedChangedRemovedAndReplaced() {
        XCTAssertEqual(server.call("POST", "/sim/items", body: ["title": "Thirteen"]).json?["id"]?.int, 13)
        XCTAssertEqual(server.call("PATCH", "/sim/items/2", body: ["status": "closed", "assignee": .null]).status, 200)
        XCTAssertEqual(server.call("DELETE", "/sim/items/1").status, 204)
        let list = server.call("GET", "/list/bare").json?.array ?? []
        XCTAssertEqual(list.compactMap { $0["id"]?.int }, Array(2...13))
        XCTAssertEqual(list.first?["assignee"], .null)
        let keyless: JSONValue = [["id": 1], ["title": "no key"], ["id": 1]]
        XCTAssertEqual(server.call("PUT", "/sim/items", body: keyless).status, 200)
        XCTAssertEqual(server.call("GET", "/list/bare").json, keyless)
        XCTAssertEqual(server.call("POST", "/sim/items/reset", body: ["count": 10_000]).json?["count"]?.int, 10_000)
        XCTAssertEqual(server.call("GET", "/paging/page?per_page=100&page=100").ids.last, 10_000)
    }

    func test_stats_nameTheCredentialsKind_neverTheSecret() throws {
        server.call("GET", "/auth/bearer", authorization: "Bearer list-token")
        server.call("GET", "/auth/api-key", headers: ["x-api-key": "list-key"])
        server.call("GET", "/gitlab/api/v4/issues?private_token=glpat-secret")
        let stats = server.stats
        XCTAssertEqual(stats["credentialsByRoute"]?["GET /auth/bearer"]?["bearer"]?.int, 1)
        XCTAssertEqual(stats["credentialsByRoute"]?["GET /auth/api-key"]?["x-api-key"]?.int, 1)
        let requests = server.call("GET", "/sim/requests")
        XCTAssertEqual(requests.json?["requests"]?.array?.count, 4)
        for secret in ["list-token", "list-key", "glpat-secret"] {
            XCTAssertFalse(requests.text.contains(secret), secret)
            XCTAssertFalse(String(decoding: stats.bytes, as: UTF8.self).contains(secret), secret)
        }
        XCTAssertTrue(requests.text.contains("private_token=REDACTED"))
    }

    func test_reset_bringsBackTheSeed_andClearsFaultsAndCounters() {
        server.call("DELETE", "/devices/1")
        server.call("POST", "/sim/faults", body: ["kind": "hang"])
        XCTAssertEqual(server.call("POST", "/sim/reset").status, 200)
        XCTAssertEqual(server.call("GET", "/devices").json?.array?.count, 6)
        XCTAssertEqual(server.stats["requests"]?.int, 2, "counted anew from the reset itself")
        XCTAssertEqual(server.stats["faultsApplied"]?.int, 0, "the hang was disarmed")
    }

    func test_everyAnswerHasADate_andUnknownRoutesAre404() {
        XCTAssertNotNil(server.call("GET", "/list/bare").header("Date"))
        XCTAssertEqual(server.call("GET", "/nope").status, 404)
        XCTAssertEqual(server.call("GET", "/list/nope").status, 404)
        XCTAssertEqual(server.call("POST", "/list/bare").status, 405)
        XCTAssertNotNil(server.call("GET", "/").json?["paging"])
    }
}
