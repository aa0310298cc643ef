import XCTest

@testable import GitHubSimulator

final class StatusTests: XCTestCase {
    func testTransferredIssueRedirects() {
        let sim = SimHarness()
        sim.sim("POST", "transfer", #"{"repo":"acme/web","number":4,"to":"acme/api"}"#)
        let old = sim.get("/repos/acme/web/issues/4")
        XCTAssertEqual(old.status, 301)
        XCTAssertEqual(old.header("Location"), "http://github.test/repositories/700002/issues/13")
        XCTAssertEqual(old.message, "Moved Permanently")
        XCTAssertEqual(old.json["url"] as? String, old.header("Location"))
        let moved = sim.get("/repositories/700002/issues/13").json
        XCTAssertEqual(moved["id"] as? Int, 100_000_004)
        XCTAssertEqual(moved["repository_url"] as? String, "http://github.test/repos/acme/api")
        XCTAssertEqual(sim.get("/repos/acme/web/issues/4/timeline").status, 404)
        XCTAssertEqual(sim.events("acme/api#13").last, "transferred")
        XCTAssertTrue(sim.get("/issues").refs.contains("acme/api#13"))
        XCTAssertFalse(sim.get("/issues").refs.contains("acme/web#4"))
    }

    func testDeletedIssueIsGone() {
        let sim = SimHarness()
        sim.sim("POST", "delete", #"{"repo":"acme/web","number":1}"#)
        XCTAssertEqual(sim.get("/repos/acme/web/issues/1").status, 410)
        XCTAssertFalse(sim.get("/issues").refs.contains("acme/web#1"))
        XCTAssertEqual(sim.search("repo:acme/web").refs.count, 11)
    }

    func testLostAccessIsNotFound() {
        let sim = SimHarness()
        sim.sim("POST", "access", #"{"handle":"engineer","repo":"acme/api","allowed":false}"#)
        XCTAssertEqual(sim.get("/repos/acme/api/issues/1").status, 404)
        XCTAssertEqual(sim.get("/repos/acme/api/issues/1", as: "alice").status, 200)
        XCTAssertEqual(sim.get("/issues").refs.count, 6)
        XCTAssertEqual(sim.search("repo:acme/api").status, 422)
        sim.sim("POST", "access", #"{"handle":"engineer","repo":"acme/api","allowed":true}"#)
        XCTAssertEqual(sim.get("/repos/acme/api/issues/1").status, 200)
    }

    func testRenamedRepositoryRedirects() {
        let sim = SimHarness()
        sim.sim("POST", "rename-repo", #"{"repo":"acme/web","to":"shop"}"#)
        let old = sim.get("/repos/acme/web/issues/2/timeline?per_page=5")
        XCTAssertEqual(old.status, 301)
        XCTAssertEqual(old.header("Location"), "http://github.test/repositories/700001/issues/2/timeline")
        XCTAssertEqual(sim.get("/repos/acme/shop/issues/2").status, 200)
        XCTAssertEqual(sim.get("/issues").array.first?.at("repository.full_name") as? String, "acme/api")
    }

    func testFaults() {
        let sim = SimHarness()
        sim.sim("POST", "faults", #"{"route":"GET /issues","kind":"badGateway","count":1,"page":2}"#)
        XCTAssertEqual(sim.get("/issues?per_page=5").status, 200)
        let bad = sim.get("/issues?per_page=5&page=2")
        XCTAssertEqual(bad.status, 502)
        XCTAssertNil(bad.header("Link"))
        XCTAssertEqual(sim.get("/issues?per_page=5&page=2").status, 200)

        sim.sim("POST", "faults", #"{"route":"","kind":"secondary","count":1,"status":429,"retryAfter":30}"#)
        let secondary = sim.get("/user")
        XCTAssertEqual(secondary.status, 429)
        XCTAssertEqual(secondary.header("Retry-After"), "30")
        XCTAssertTrue(secondary.message?.contains("secondary rate limit") == true)
        sim.sim("POST", "faults", #"{"route":"","kind":"secondary","count":1}"#)
        let plain = sim.get("/user")
        XCTAssertEqual(plain.status, 403)
        XCTAssertNil(plain.header("Retry-After"))

        sim.sim("POST", "faults", #"{"route":"GET /user","kind":"rateLimit","count":1,"retryAfter":90}"#)
        let primary = sim.get("/user")
        XCTAssertEqual(primary.status, 403)
        XCTAssertEqual(primary.header("X-RateLimit-Remaining"), "0")
        XCTAssertNotNil(primary.header("X-RateLimit-Reset").flatMap { Int($0) })

        for kind in ["html", "truncated", "hang", "reset", "status"] {
            sim.sim("POST", "faults", #"{"route":"GET /user","kind":"\#(kind)","count":1}"#)
        }
        XCTAssertEqual(sim.get("/user").header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertEqual(sim.get("/user").delivery, .truncated)
        XCTAssertEqual(sim.get("/user").delivery, .never)
        XCTAssertEqual(sim.get("/user").delivery, .reset)
        XCTAssertEqual(sim.get("/user").status, 500)
        XCTAssertEqual(sim.get("/user").status, 200)
        XCTAssertEqual(sim.stats["rateLimited"] as? Int, 3)
    }

    func testSwitchesAndStats() {
        let sim = SimHarness()
        sim.sim("POST", "switches", #"{"pollInterval": 60, "coreLimit": 2}"#)
        XCTAssertEqual(sim.get("/user").header("X-Poll-Interval"), "60")
        sim.get("/user")
        let refused = sim.get("/user")
        XCTAssertEqual(refused.status, 403)
        XCTAssertEqual(refused.header("X-RateLimit-Remaining"), "0")
        XCTAssertEqual(sim.get("/user", as: "alice").status, 200)
        XCTAssertEqual(sim.raw("POST", "/sim/switches", authorization: nil, body: #"{"searchcap": 3}"#).status, 400)
        let stats = sim.stats
        XCTAssertEqual(stats["requests"] as? Int, 4)
        XCTAssertEqual((stats["requestsByRoute"] as? [String: Int])?["GET /user"], 4)
        XCTAssertEqual((stats["requestsByUser"] as? [String: Int])?["engineer"], 3)
        XCTAssertEqual((stats["coreQuotaUsed"] as? [String: Int])?["ghp_sim_engineer"], 2)
        sim.sim("DELETE", "stats")
        XCTAssertEqual(sim.stats["requests"] as? Int, 0)
    }

    func testRouteNamesInStats() {
        let sim = SimHarness()
        sim.timeline("acme/web#1")
        sim.search("is:pr")
        let routes = sim.stats["requestsByRoute"] as? [String: Int] ?? [:]
        XCTAssertEqual(routes["GET /repos/{owner}/{repo}/issues/{issue_number}/timeline"], 1)
        XCTAssertEqual(routes["GET /search/issues"], 1)
        XCTAssertEqual((sim.stats["searchQuotaUsed"] as? [String: Int])?["ghp_sim_engineer"], 1)
    }
}
