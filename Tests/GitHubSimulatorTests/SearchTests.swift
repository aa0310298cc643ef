import XCTest

@testable import GitHubSimulator

final class SearchTests: XCTestCase {
    func testReviewRequestedDirectlyOrThroughATeam() {
        let sim = SimHarness()
        let all = sim.search("is:open is:pr review-requested:@me")
        XCTAssertEqual(all.json["total_count"] as? Int, 6)
        XCTAssertEqual(all.json["incomplete_results"] as? Bool, false)
        XCTAssertEqual(Set(all.refs), Set(["web", "api"].flatMap { r in [3, 6, 12].map { "acme/\(r)#\($0)" } }))
        XCTAssertEqual(Set(sim.search("is:pr user-review-requested:@me repo:acme/web").refs),
            ["acme/web#3", "acme/web#12"])
        XCTAssertEqual(all.header("X-RateLimit-Resource"), "search")
        XCTAssertEqual(all.header("X-RateLimit-Limit"), "30")
    }

    func testAReviewerDropsOutOnceTheyReviewed() {
        let sim = SimHarness()
        sim.call("POST", "/repos/acme/web/pulls/3/reviews", body: #"{"event":"APPROVE"}"#)
        sim.call("POST", "/repos/acme/web/pulls/6/reviews", body: #"{"event":"COMMENT","body":"Hm."}"#)
        XCTAssertEqual(sim.search("is:open is:pr review-requested:@me repo:acme/web").refs, ["acme/web#12"])
        let pull = sim.get("/repos/acme/web/pulls/3").json
        XCTAssertEqual((pull["requested_reviewers"] as? [Any])?.count, 0)
        XCTAssertFalse(sim.events("acme/web#3").contains("review_request_removed"))
        sim.call("POST", "/repos/acme/web/pulls/3/requested_reviewers", token: "ghp_sim_alice",
            body: #"{"reviewers":["engineer"]}"#)
        XCTAssertEqual(sim.search("review-requested:@me repo:acme/web").refs.count, 2)
    }

    func testQualifiers() {
        let sim = SimHarness()
        XCTAssertEqual(Set(sim.search("is:issue author:@me repo:acme/web").refs),
            Set([2, 5, 8, 11].map { "acme/web#\($0)" }))
        XCTAssertEqual(sim.search("is:closed repo:acme/api").refs, ["acme/api#7"])
        XCTAssertEqual(sim.search("assignee:@me is:open").refs.count, 12)
        XCTAssertEqual(sim.search("assignee:alice is:issue repo:acme/web").refs.count, 2)
        XCTAssertEqual(sim.search("author:dependabot[bot]").refs.count, 2)
        XCTAssertEqual(sim.search("is:pr -author:@me repo:acme/web").refs.count, 3)
        XCTAssertEqual(sim.search("Bump lodash").refs.count, 2)
        XCTAssertEqual(sim.search("repo:acme/nothing").status, 422)
        XCTAssertEqual(sim.call("GET", "/search/issues").status, 422)
    }

    func testOnlyTheFirstResultsAreReachable() {
        let sim = SimHarness { $0.switches.searchCap = 5 }
        let first = sim.search("repo:acme/web", "&per_page=3")
        XCTAssertEqual(first.json["total_count"] as? Int, 12)
        XCTAssertEqual(first.links["last"]?.hasSuffix("page=2"), true)
        XCTAssertEqual(sim.search("repo:acme/web", "&per_page=3&page=2").refs.count, 2)
        let beyond = sim.search("repo:acme/web", "&per_page=3&page=3")
        XCTAssertEqual(beyond.status, 422)
        XCTAssertEqual(beyond.message, "Only the first 5 search results are available")
    }

    func testIncompleteResults() {
        let sim = SimHarness()
        sim.sim("POST", "switches", #"{"incompleteSearch": true}"#)
        let answer = sim.search("repo:acme/web")
        XCTAssertEqual(answer.json["incomplete_results"] as? Bool, true)
        XCTAssertEqual(answer.refs.count, 10)
        XCTAssertFalse(answer.refs.contains("acme/web#5"))
    }

    func testSearchHasItsOwnRateLimit() {
        let sim = SimHarness { $0.switches.searchRate = 2 }
        XCTAssertEqual(sim.search("is:pr").header("X-RateLimit-Remaining"), "1")
        XCTAssertEqual(sim.search("is:pr").header("X-RateLimit-Remaining"), "0")
        let refused = sim.search("is:pr")
        XCTAssertEqual(refused.status, 403)
        XCTAssertEqual(refused.header("x-ratelimit-remaining"), "0")
        XCTAssertEqual(refused.header("X-RateLimit-Resource"), "search")
        XCTAssertNotNil(refused.header("x-ratelimit-reset").flatMap { Int($0) })
        XCTAssertTrue(refused.message?.hasPrefix("API rate limit exceeded") == true)
        XCTAssertEqual(sim.get("/user").header("X-RateLimit-Used"), "1")
        sim.sim("POST", "clock", #"{"advance": 61}"#)
        XCTAssertEqual(sim.search("is:pr").status, 200)
    }
}
