import JSONListSimulator
import SimulatorKit
import XCTest

final class FaultTests: XCTestCase {
    private var server: TestServer!

    /// A fresh server per test, made when it runs (XCTest creates every test case up front).
    override func setUp() { server = TestServer() }

    private func arm(_ fault: JSONValue) {
        XCTAssertEqual(server.call("POST", "/sim/faults", body: fault).status, 200)
    }

    func test_armedFault_hitsItsRouteOnly_afterTheGoodAnswers_forCountAnswers() {
        arm(["route": "GET /devices", "kind": "status", "status": 502, "count": 2, "after": 1])
        XCTAssertEqual(server.call("GET", "/list/bare").status, 200, "another route")
        XCTAssertEqual(server.call("GET", "/devices").status, 200, "after 1")
        XCTAssertEqual(server.call("GET", "/devices").status, 502)
        XCTAssertEqual(server.call("GET", "/devices").status, 502)
        XCTAssertEqual(server.call("GET", "/devices").status, 200, "count 2")
        XCTAssertEqual(server.stats["faultsApplied"]?.int, 2)
        XCTAssertEqual(server.call("GET", "/sim/faults").json, .array([]))
    }

    func test_retryAfter_inSecondsOrAsAnHTTPDate() {
        arm(["route": "GET /list/bare", "kind": "status", "status": 429, "retryAfter": 30])
        arm(["route": "GET /list/bare", "kind": "status", "status": 503, "retryAfterDate": 120])
        XCTAssertEqual(server.call("GET", "/list/bare").header("Retry-After"), "30")
        let unavailable = server.call("GET", "/list/bare")
        XCTAssertEqual(unavailable.status, 503)
        XCTAssertEqual(unavailable.header("Retry-After"), HTTPDate.format(server.clock.now + 120))
        XCTAssertEqual(server.call("GET", "/fault/429").header("Retry-After"), "2")
        XCTAssertEqual(
            server.call("GET", "/fault/503?retry_after_date=60").header("Retry-After"),
            HTTPDate.format(server.clock.now + 60))
    }

    func test_faultRoutes_answerEachKind() throws {
        let html = server.call("GET", "/fault/html")
        XCTAssertEqual(html.status, 200)
        XCTAssertEqual(html.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertEqual(server.call("GET", "/fault/500").status, 500)
        XCTAssertNil(server.call("GET", "/fault/garbage").json)
        XCTAssertEqual(server.call("GET", "/fault/empty").body, [])
        XCTAssertEqual(server.call("GET", "/fault/truncate").response.delivery, .truncated)
        XCTAssertEqual(server.call("GET", "/fault/reset").response.delivery, .reset)
        XCTAssertEqual(server.call("GET", "/fault/hang").response.delivery, .never)
        XCTAssertEqual(server.call("GET", "/fault/hang-body").response.delivery, .stallMidBody)
        XCTAssertEqual(server.call("GET", "/fault/huge-chunked?size=100000").response.delivery, .chunked)
        let deep = server.call("GET", "/fault/deep")
        XCTAssertEqual(deep.body.count, 200_000)
        XCTAssertEqual(deep.body.prefix(100_000).allSatisfy { $0 == UInt8(ascii: "[") }, true)
        let broken = server.call("GET", "/fault/bad-utf8").body
        XCTAssertNil(String(validating: broken, as: UTF8.self))
    }

    /// Issue 27, item 4: a server that answers, but slowly — each page just inside the client's timeout.
    func test_slow_isTheOrdinaryAnswer_late_asArmedOrAsAsked() {
        arm(["route": "GET /paging/endless-fresh", "kind": "slow", "delay": 700, "count": 2])
        let page = server.call("GET", "/paging/endless-fresh")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.response.delay, 0.7)
        XCTAssertNotNil(page.header("Link"), "still links the next page")
        XCTAssertEqual(server.call("GET", "/fault/slow").response.delay, 1, "a second unless told")
        XCTAssertEqual(server.call("GET", "/fault/slow?delay=250").response.delay, 0.25)
        XCTAssertEqual(server.call("GET", "/fault/slow").json?.array?.count, 12, "the list itself")
        XCTAssertEqual(
            server.call("POST", "/sim/faults", body: ["kind": "slow", "delay": 600_001]).status, 400, "ten minutes at most")
    }

    func test_huge_isAWellFormedListOfItsSize() throws {
        let huge = server.call("GET", "/fault/huge?size=3000000")
        XCTAssertGreaterThan(huge.body.count, 2_998_000)
        XCTAssertLessThanOrEqual(huge.body.count, 3_000_000)
        XCTAssertEqual(huge.json?.array?.first?["id"]?.int, 1)
    }

    func test_faultsNeverTouchTheControlRoutes() {
        arm(["kind": "status", "status": 500, "count": 5])
        XCTAssertEqual(server.call("GET", "/sim/stats").status, 200)
        XCTAssertEqual(server.call("GET", "/devices").status, 500)
        XCTAssertEqual(server.call("DELETE", "/sim/faults").status, 200)
        XCTAssertEqual(server.call("GET", "/devices").status, 200)
        XCTAssertEqual(server.call("POST", "/sim/faults", body: ["kind": "nope"]).status, 400)
    }
}
