import XCTest

@testable import GitLabSimulator

final class SwitchTests: XCTestCase {
    func testTotalCapOmitsTotalsAndLast() {
        let sim = SimHarness()
        sim.sim("POST", "switches", #"{"totalCap": 30}"#)
        let page = sim.get("/issues?scope=all&per_page=10")
        XCTAssertNil(page.header("X-Total"))
        XCTAssertNil(page.header("X-Total-Pages"))
        XCTAssertNil(page.links["last"])
        XCTAssertEqual(page.header("X-Next-Page"), "2")
        XCTAssertEqual(sim.get("/issues?scope=all&per_page=10&page=4").header("X-Next-Page"), "")
        XCTAssertEqual(sim.get("/issues?per_page=10").header("X-Total"), "12")
    }

    func testRepeatPages() {
        let sim = SimHarness { $0.switches.repeatPages = true }
        let first = sim.get("/issues?scope=all&per_page=5").refs
        let second = sim.get("/issues?scope=all&per_page=5&page=2")
        XCTAssertEqual(second.refs, first)
        XCTAssertEqual(second.header("X-Next-Page"), "3")
    }

    func testNoReviewers() {
        let sim = SimHarness { $0.switches.noReviewers = true }
        let all = sim.get("/merge_requests?scope=all&per_page=100")
        let filtered = sim.get("/merge_requests?scope=all&reviewer_id=101&per_page=100")
        XCTAssertEqual(filtered.refs, all.refs)
        XCTAssertNil(filtered.array.first?["reviewers"])
        sim.call("PUT", "/projects/11/merge_requests/3", as: "lead", body: #"{"reviewer_ids":[101]}"#)
        XCTAssertFalse(sim.notes("platform/web!3").last?.contains("review") == true)
    }

    func testNoResourceEvents() {
        let sim = SimHarness { $0.switches.noResourceEvents = true }
        let missing = sim.get("/projects/11/issues/4/resource_label_events")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.json["error"] as? String, "404 Not Found")
        XCTAssertEqual(sim.notes("platform/web#4"),
            ["assigned to @lead and @engineer", "added ~bug label", "changed milestone to %\"v1.0\""])
        XCTAssertEqual(sim.notes("platform/web#7").last, "closed")
        sim.call("PUT", "/projects/11/issues/4", as: "alice", body: #"{"state_event":"close"}"#)
        XCTAssertEqual(sim.notes("platform/web#4").last, "closed")
    }

    func testAccessAndRename() {
        let sim = SimHarness()
        sim.sim("POST", "access", #"{"username":"engineer","project":"platform/api","level":"none"}"#)
        sim.sim("POST", "access", #"{"username":"engineer","project":"platform/ops","level":"forbidden"}"#)
        XCTAssertEqual(sim.get("/projects/12/issues/1").message, "404 Project Not Found")
        XCTAssertEqual(sim.get("/projects/13/issues/1").message, "403 Forbidden")
        XCTAssertEqual(sim.get("/projects/13").status, 200)
        XCTAssertEqual(sim.get("/projects/12/issues/1", as: "alice").status, 200)
        XCTAssertEqual(Set(sim.get("/issues?scope=assigned_to_me").refs.map { $0.prefix(12) }), ["platform/web"])
        sim.sim("POST", "rename-project", #"{"project":"platform/web","to":"shop"}"#)
        let issue = sim.get("/projects/11/issues/1").json
        XCTAssertEqual(issue.at("references.full") as? String, "platform/shop#1")
        XCTAssertEqual(issue["id"] as? Int, 11_000_001)
        XCTAssertEqual(sim.get("/projects/platform%2Fweb/issues/1").status, 200)
        XCTAssertEqual(sim.call("PUT", "/projects/platform%2Fweb/issues/1", body: #"{"title":"x"}"#).status, 404)
    }

    func testFaults() {
        let sim = SimHarness()
        sim.sim("POST", "faults", #"{"route":"GET /issues","kind":"status","count":1,"status":502,"page":2}"#)
        XCTAssertEqual(sim.get("/issues?per_page=5").status, 200)
        let bad = sim.get("/issues?per_page=5&page=2")
        XCTAssertEqual(bad.status, 502)
        XCTAssertEqual(bad.message, "502 Bad Gateway")
        XCTAssertNil(bad.header("X-Next-Page"))
        sim.sim("POST", "faults", #"{"route":"","kind":"rateLimit","count":1,"retryAfter":30}"#)
        let limited = sim.get("/user")
        XCTAssertEqual(limited.status, 429)
        XCTAssertEqual(limited.header("Retry-After"), "30")
        XCTAssertEqual(limited.text, "Retry later\n")
        sim.sim("POST", "faults", #"{"route":"GET /user","kind":"retryLater","count":1}"#)
        let plain = sim.get("/user")
        XCTAssertEqual(plain.status, 429)
        XCTAssertNil(plain.header("Retry-After"))
        for kind in ["html", "truncated", "hang", "reset"] {
            sim.sim("POST", "faults", #"{"route":"GET /user","kind":"\#(kind)","count":1}"#)
        }
        XCTAssertEqual(sim.get("/user").header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertEqual(sim.get("/user").delivery, .truncated)
        XCTAssertEqual(sim.get("/user").delivery, .never)
        XCTAssertEqual(sim.get("/user").delivery, .reset)
        XCTAssertEqual(sim.get("/user").status, 200)
        XCTAssertEqual(sim.stats["rateLimited"] as? Int, 2)
    }

    func testSwitchesAndStats() {
        let sim = SimHarness()
        sim.get("/user")
        sim.get("/projects/platform%2Fweb/issues/1/notes", as: "alice")
        XCTAssertEqual(sim.raw("POST", "/sim/switches", body: #"{"totalcap": 3}"#).status, 400)
        XCTAssertEqual(sim.raw("POST", "/sim/switches", body: #"{"totalCap": -1}"#).status, 400)
        let stats = sim.stats
        XCTAssertEqual(stats["requests"] as? Int, 2)
        XCTAssertEqual((stats["requestsByRoute"] as? [String: Int])?["GET /projects/:id/issues/:issue_iid/notes"], 1)
        XCTAssertEqual((stats["requestsByUser"] as? [String: Int])?["alice"], 1)
        sim.sim("DELETE", "stats")
        XCTAssertEqual(sim.stats["requests"] as? Int, 0)
        XCTAssertEqual(sim.raw("GET", "/sim/switches").json["lazyUpdatedAt"] as? Bool, false)
    }
}
