import XCTest

@testable import GitHubSimulator

final class IssuesTests: XCTestCase {
    private let mine = [1, 4, 5, 8, 9, 12]

    func testAssignedIsTheDefaultFilterAndMixesPullRequests() {
        let answer = SimHarness().get("/issues?per_page=100")
        XCTAssertEqual(Set(answer.refs), Set(["web", "api"].flatMap { r in mine.map { "acme/\(r)#\($0)" } }))
        XCTAssertEqual(answer.array.filter { $0["pull_request"] != nil }.count, 4)
        XCTAssertEqual(answer.array.first?.at("repository.full_name") as? String, "acme/api")
        XCTAssertNil(answer.header("Link"))
    }

    func testFiltersAndStates() {
        let sim = SimHarness()
        XCTAssertEqual(sim.get("/issues?filter=created&per_page=100").refs.count, 10)
        XCTAssertEqual(Set(sim.get("/issues?filter=mentioned").refs), ["acme/web#5", "acme/api#5"])
        XCTAssertEqual(sim.get("/issues?filter=all&state=all&per_page=100").refs.count, 24)
        XCTAssertEqual(Set(sim.get("/issues?filter=all&state=closed").refs), ["acme/web#7", "acme/api#7"])
        XCTAssertEqual(sim.get("/issues?filter=nonsense").status, 422)
        let ascending = sim.get("/issues?sort=created&direction=asc&per_page=100").refs
        XCTAssertEqual(ascending.first, "acme/web#1")
        XCTAssertEqual(sim.get("/issues?labels=bug&per_page=100").refs.count, 6)
    }

    func testLinkPagingWithAbsoluteURLs() {
        let sim = SimHarness()
        let first = sim.get("/issues?per_page=5&state=open")
        XCTAssertEqual(first.refs.count, 5)
        XCTAssertEqual(first.links["next"], "http://github.test/issues?per_page=5&state=open&page=2")
        XCTAssertEqual(first.links["last"], "http://github.test/issues?per_page=5&state=open&page=3")
        XCTAssertNil(first.links["prev"])
        let last = sim.get("/issues?per_page=5&state=open&page=3")
        XCTAssertEqual(last.refs.count, 2)
        XCTAssertEqual(last.links["prev"], "http://github.test/issues?per_page=5&state=open&page=2")
        XCTAssertEqual(last.links["first"], "http://github.test/issues?per_page=5&state=open&page=1")
        XCTAssertNil(last.links["next"])
        let enterprise = SimHarness { $0.basePath = "/api/v3" }.get("/issues?per_page=5")
        XCTAssertEqual(enterprise.links["next"], "http://github.test/api/v3/issues?per_page=5&page=2")
        XCTAssertEqual(sim.get("/issues?per_page=500&filter=all&state=all").refs.count, 24)
    }

    func testETagAndFreeNotModified() throws {
        let sim = SimHarness()
        let first = sim.get("/issues")
        let tag = try XCTUnwrap(first.header("ETag"))
        XCTAssertTrue(tag.hasPrefix("W/\""))
        let again = sim.get("/issues", headers: ["If-None-Match": tag])
        XCTAssertEqual(again.status, 304)
        XCTAssertTrue(again.body.isEmpty)
        XCTAssertEqual(again.remaining, first.remaining)
        XCTAssertEqual(sim.stats["notModified"] as? Int, 1)
        XCTAssertEqual((sim.stats["coreQuotaUsed"] as? [String: Int])?["ghp_sim_engineer"], 1)

        sim.sim("POST", "clock", #"{"advance": 5}"#)
        sim.call("POST", "/repos/acme/web/issues/1/comments", token: "ghp_sim_alice", body: #"{"body":"Hi"}"#)
        let changed = sim.get("/issues", headers: ["If-None-Match": tag])
        XCTAssertEqual(changed.status, 200)
        XCTAssertNotEqual(changed.header("ETag"), tag)
    }

    func testAFrozenClock_putsTwoChangesInOneSecond_untilThawed() {
        let sim = SimHarness()
        sim.sim("POST", "clock", #"{"advance": 30, "freeze": 1}"#)
        let frozen = sim.sim("GET", "clock").json
        XCTAssertEqual(frozen["frozen"] as? Bool, true)
        sim.call("POST", "/repos/acme/web/issues/1/comments", token: "ghp_sim_alice", body: #"{"body":"First"}"#)
        let first = sim.get("/repos/acme/web/issues/1").json["updated_at"] as? String
        sim.call("POST", "/repos/acme/web/issues/1/comments", token: "ghp_sim_lead", body: #"{"body":"Second"}"#)
        XCTAssertEqual(sim.get("/repos/acme/web/issues/1").json["updated_at"] as? String, first)
        XCTAssertEqual(first, frozen["now"] as? String)
        sim.sim("POST", "clock", #"{"advance": 2}"#)
        XCTAssertNotEqual(sim.sim("GET", "clock").json["now"] as? String, first, "an advance moves a frozen clock")
        sim.sim("POST", "clock", #"{"freeze": 0}"#)
        XCTAssertEqual(sim.sim("GET", "clock").json["frozen"] as? Bool, false)
        XCTAssertEqual(sim.raw("POST", "/sim/clock", authorization: nil, body: #"{"stop": 1}"#).status, 400)
    }

    func testSince() {
        let sim = SimHarness()
        XCTAssertEqual(sim.get("/issues?since=2999-01-01T00:00:00Z").refs, [])
        let clock = sim.sim("GET", "clock").json["now"] as? String ?? ""
        sim.call("PATCH", "/repos/acme/web/issues/4", token: "ghp_sim_lead", body: #"{"title":"Renamed"}"#)
        XCTAssertEqual(sim.get("/issues?since=\(clock)").refs, ["acme/web#4"])
        XCTAssertEqual(sim.get("/issues?since=yesterday").status, 422)
    }

    func testScaleOf500PerRepository() {
        let sim = SimHarness { $0.issues = 500 }
        let start = Date()
        var url = "/issues?per_page=100&filter=all&state=all"
        var count = 0
        for _ in 0..<20 {
            let page = sim.get(url)
            count += page.refs.count
            guard let next = page.links["next"] else { break }
            url = String(next.dropFirst("http://github.test".count))
        }
        XCTAssertEqual(count, 1000)
        XCTAssertEqual(sim.timeline("acme/api#500").count, 5)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }
}
