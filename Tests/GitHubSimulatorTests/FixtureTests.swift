import XCTest

@testable import GitHubSimulator

final class FixtureTests: XCTestCase {
    func testTheAuthenticatedUser() {
        let user = SimHarness().get("/user").json
        XCTAssertEqual(user["login"] as? String, "engineer")
        XCTAssertEqual(user["id"] as? Int, 1001)
        XCTAssertEqual(user["node_id"] as? String, "MDQ6VXNlcjEwMDE=")
        XCTAssertEqual(user["type"] as? String, "User")
        XCTAssertEqual(user["name"] as? String, "Eve Engineer")
        XCTAssertEqual(SimHarness().get("/user", as: "dependabot[bot]").json["type"] as? String, "Bot")
    }

    func testCredentials() {
        let sim = SimHarness()
        let none = sim.call("GET", "/user", token: nil)
        XCTAssertEqual(none.status, 401)
        XCTAssertEqual(none.message, "Requires authentication")
        let wrong = sim.call("GET", "/user", token: "ghp_nope")
        XCTAssertEqual(wrong.status, 401)
        XCTAssertEqual(wrong.message, "Bad credentials")
        XCTAssertNotNil(wrong.json["documentation_url"])
        let tokenScheme = sim.raw("GET", "/user", authorization: "token ghp_sim_alice")
        XCTAssertEqual(tokenScheme.json["login"] as? String, "alice")
        XCTAssertEqual(sim.stats["unauthorized"] as? Int, 2)
    }

    func testScopesOnClassicTokensOnly() {
        let sim = SimHarness()
        XCTAssertEqual(sim.get("/user").header("X-OAuth-Scopes"), "repo, read:org")
        XCTAssertNil(sim.call("GET", "/user", token: "github_pat_sim_engineer").header("X-OAuth-Scopes"))
        let noScope = sim.call("GET", "/user", token: "ghp_sim_engineer_noscope")
        XCTAssertEqual(noScope.header("X-OAuth-Scopes"), "read:user")
    }

    func testATokenWithoutRepoScopeCannotSeePrivateRepositories() {
        let sim = SimHarness()
        let token = "ghp_sim_engineer_noscope"
        XCTAssertEqual(sim.call("GET", "/repos/acme/api/issues/1", token: token).status, 404)
        XCTAssertEqual(sim.call("GET", "/repos/acme/web/issues/1", token: token).status, 200)
        let refs = sim.call("GET", "/issues?per_page=100", token: token).refs
        XCTAssertEqual(Set(refs), Set([1, 4, 5, 8, 9, 12].map { "acme/web#\($0)" }))
        XCTAssertTrue(sim.search("assignee:@me", token: token).refs.allSatisfy { $0.hasPrefix("acme/web#") })
        XCTAssertEqual(sim.call("POST", "/repos/acme/web/issues/1/comments", token: token, body: #"{"body":"x"}"#)
            .status, 404)
    }

    func testEveryAnswerCarriesRateLimitVersionAndDate() {
        let sim = SimHarness()
        sim.get("/user")
        let answer = sim.get("/issues")
        XCTAssertEqual(answer.header("X-RateLimit-Limit"), "5000")
        XCTAssertEqual(answer.header("X-RateLimit-Used"), "2")
        XCTAssertEqual(answer.header("X-RateLimit-Remaining"), "4998")
        XCTAssertEqual(answer.header("X-RateLimit-Resource"), "core")
        XCTAssertNotNil(answer.header("X-RateLimit-Reset").flatMap { Int($0) })
        XCTAssertEqual(answer.header("X-GitHub-Api-Version-Selected"), "2022-11-28")
        XCTAssertNotNil(answer.header("Date"))
        XCTAssertNil(answer.header("X-Poll-Interval"))
    }

    func testAPIVersions() throws {
        let sim = SimHarness()
        let old = sim.get("/repos/acme/web/issues/1").json
        XCTAssertEqual(old.at("assignee.login") as? String, "engineer")
        let new = sim.get("/repos/acme/web/issues/1", headers: ["X-GitHub-Api-Version": "2026-03-10"])
        XCTAssertEqual(new.header("X-GitHub-Api-Version-Selected"), "2026-03-10")
        XCTAssertFalse(new.json.keys.contains("assignee"))
        XCTAssertEqual((new.json["assignees"] as? [[String: Any]])?.count, 1)
        let unknown = sim.get("/user", headers: ["X-GitHub-Api-Version": "2099-01-01"])
        XCTAssertEqual(unknown.status, 400)
        XCTAssertTrue(try XCTUnwrap(unknown.message).contains("2099-01-01"))

        sim.sim("POST", "switches", #"{"retire20221128": true}"#)
        XCTAssertEqual(sim.get("/user").status, 400)
        XCTAssertEqual(sim.get("/user", headers: ["X-GitHub-Api-Version": "2022-11-28"]).status, 400)
        XCTAssertEqual(sim.get("/user", headers: ["X-GitHub-Api-Version": "2026-03-10"]).status, 200)
    }

    func testEnterpriseServerBasePath() {
        let sim = SimHarness { $0.basePath = "/api/v3" }
        XCTAssertEqual(sim.get("/user").status, 200)
        XCTAssertEqual(sim.raw("GET", "/user", authorization: "Bearer ghp_sim_engineer").status, 404)
        let issue = sim.get("/repos/acme/web/issues/1").json
        XCTAssertEqual(issue["url"] as? String, "http://github.test/api/v3/repos/acme/web/issues/1")
        XCTAssertEqual(issue["html_url"] as? String, "http://github.test/acme/web/issues/1")
    }

    func testSeededIssueShape() {
        let pull = SimHarness().get("/repos/acme/web/issues/12").json
        XCTAssertEqual(pull["id"] as? Int, 100_000_012)
        XCTAssertEqual(pull["title"] as? String, "Pull request 12 of acme/web")
        XCTAssertEqual(pull.at("user.login") as? String, "alice")
        XCTAssertEqual((pull["assignees"] as? [[String: Any]])?.compactMap { $0["login"] as? String },
            ["lead", "engineer"])
        XCTAssertEqual((pull["labels"] as? [[String: Any]])?.first?["name"] as? String, "bug")
        XCTAssertEqual(pull.at("milestone.title") as? String, "v1.0")
        XCTAssertEqual(pull["draft"] as? Bool, false)
        XCTAssertNotNil(pull.at("pull_request.merged_at"))
        XCTAssertEqual(pull["state"] as? String, "open")
        let closed = SimHarness().get("/repos/acme/api/issues/7").json
        XCTAssertEqual(closed["state_reason"] as? String, "completed")
        XCTAssertNotNil(closed["closed_at"] as? String)
        XCTAssertNil(closed["pull_request"])
        XCTAssertEqual(SimHarness().get("/repos/acme/web").json["id"] as? Int, 700_001)
    }
}
