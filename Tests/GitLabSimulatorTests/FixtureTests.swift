import XCTest

@testable import GitLabSimulator

final class FixtureTests: XCTestCase {
    func testUserAndTokens() {
        let sim = SimHarness()
        let me = sim.get("/user").json
        XCTAssertEqual(me["id"] as? Int, 101)
        XCTAssertEqual(me["username"] as? String, "engineer")
        XCTAssertEqual(me["bot"] as? Bool, false)
        XCTAssertEqual(me["web_url"] as? String, "http://gitlab.test/engineer")
        XCTAssertEqual(sim.get("/user", as: "project_42_bot_1a2b").json["bot"] as? Bool, true)
        let bearer = sim.raw("GET", "/api/v4/user", authorization: "Bearer glpat-sim-alice")
        XCTAssertEqual(bearer.json["username"] as? String, "alice")
        let anonymous = sim.raw("GET", "/api/v4/user")
        XCTAssertEqual(anonymous.status, 401)
        XCTAssertEqual(anonymous.text, #"{"message":"401 Unauthorized"}"#)
        XCTAssertEqual(sim.raw("GET", "/api/v4/user", headers: ["private-token": "glpat-wrong"]).status, 401)
        XCTAssertEqual(sim.stats["unauthorized"] as? Int, 2)
    }

    func testDefaultScopeIsCreatedByMe() {
        let sim = SimHarness()
        let mine = sim.get("/issues?per_page=100")
        XCTAssertEqual(mine.array.count, 12)
        XCTAssertTrue(mine.array.allSatisfy { $0.at("author.username") as? String == "engineer" })
        let assigned = sim.get("/issues?scope=assigned_to_me&state=opened&per_page=100").refs
        let expected = ["web", "api", "ops"].flatMap { p in [1, 4, 5, 8, 9, 12].map { "platform/\(p)#\($0)" } }
        XCTAssertEqual(Set(assigned), Set(expected))
        XCTAssertEqual(sim.get("/issues?scope=everything").status, 400)
        XCTAssertEqual(sim.get("/issues?scope=everything").json["error"] as? String,
            "scope does not have a valid value")
    }

    func testMergeRequestsByReviewer() {
        let sim = SimHarness()
        let reviews = sim.get("/merge_requests?reviewer_id=101&state=opened&scope=all&per_page=100")
        XCTAssertEqual(Set(reviews.refs), Set(["web", "api", "ops"].flatMap { p in
            [1, 4, 10].map { "platform/\(p)!\($0)" }
        }))
        let item = reviews.array[0]
        XCTAssertEqual((item["reviewers"] as? [[String: Any]])?.first?["username"] as? String, "engineer")
        XCTAssertEqual(item.at("references.full") as? String, "platform/ops!10")
        XCTAssertEqual(sim.get("/merge_requests?reviewer_username=engineer&scope=all").array.count, 12)
        let merged = sim.get("/projects/11/merge_requests/7").json
        XCTAssertEqual(merged["state"] as? String, "merged")
        XCTAssertEqual(merged.at("merged_by.username") as? String, "lead")
        XCTAssertEqual(sim.get("/projects/11/merge_requests/5").json["draft"] as? Bool, true)
    }

    func testPagingHeaders() {
        let sim = SimHarness()
        let page = sim.get("/issues?scope=assigned_to_me&per_page=5&page=2")
        XCTAssertEqual(page.array.count, 5)
        XCTAssertEqual(page.header("X-Page"), "2")
        XCTAssertEqual(page.header("X-Per-Page"), "5")
        XCTAssertEqual(page.header("X-Next-Page"), "3")
        XCTAssertEqual(page.header("X-Prev-Page"), "1")
        XCTAssertEqual(page.header("X-Total"), "18")
        XCTAssertEqual(page.header("X-Total-Pages"), "4")
        XCTAssertEqual(page.links["next"], "http://gitlab.test/api/v4/issues?page=3&per_page=5&scope=assigned_to_me")
        XCTAssertEqual(page.links["last"], "http://gitlab.test/api/v4/issues?page=4&per_page=5&scope=assigned_to_me")
        let last = sim.get("/issues?scope=assigned_to_me&per_page=5&page=4")
        XCTAssertEqual(last.array.count, 3)
        XCTAssertEqual(last.header("X-Next-Page"), "")
        XCTAssertNil(last.links["next"])
        XCTAssertEqual(sim.get("/issues?scope=all").header("X-Per-Page"), "20")
        XCTAssertEqual(sim.get("/issues?scope=all&per_page=500").header("X-Per-Page"), "100")
        let encoded = sim.get("/projects/platform%2Fweb/issues?per_page=2")
        XCTAssertEqual(encoded.links["next"],
            "http://gitlab.test/api/v4/projects/platform%2Fweb/issues?page=2&per_page=2")
    }

    func testOrderAndUpdatedAfter() {
        let sim = SimHarness()
        let all = sim.get("/issues?scope=all&order_by=updated_at&sort=asc&per_page=100").array
        let times = all.compactMap { $0["updated_at"] as? String }
        XCTAssertEqual(times, times.sorted())
        XCTAssertTrue(times[0].hasSuffix("Z") && times[0].count == 24, times[0])
        let cut = times[20]
        let after = sim.get("/issues?scope=all&updated_after=\(cut)&per_page=100").array
        XCTAssertEqual(after.count, times.count { $0 >= cut })
    }

    func testIssueShape() {
        let sim = SimHarness()
        let issue = sim.get("/projects/platform%2Fweb/issues/4").json
        XCTAssertEqual(issue["id"] as? Int, 11_000_004)
        XCTAssertEqual(issue["project_id"] as? Int, 11)
        XCTAssertEqual(issue["labels"] as? [String], ["bug"])
        XCTAssertEqual(issue.at("milestone.title") as? String, "v1.0")
        XCTAssertEqual((issue["assignees"] as? [[String: Any]])?.compactMap { $0["username"] as? String },
            ["lead", "engineer"])
        XCTAssertEqual(issue.at("assignee.username") as? String, "lead")
        XCTAssertEqual(issue.at("references.full") as? String, "platform/web#4")
        XCTAssertEqual(issue["web_url"] as? String, "http://gitlab.test/platform/web/-/issues/4")
        XCTAssertTrue(issue.keys.contains("moved_to_id"))
        XCTAssertEqual(sim.get("/projects/11/issues/5").json["user_notes_count"] as? Int, 1)
        XCTAssertEqual(sim.get("/projects/11/issues/99").message, "404 Issue Not Found")
        XCTAssertEqual(sim.get("/projects/99").message, "404 Project Not Found")
        XCTAssertEqual(sim.get("/nothing").json["error"] as? String, "404 Not Found")
    }

    func testNotesAndEvents() {
        let sim = SimHarness()
        XCTAssertEqual(sim.notes("platform/web#5"), ["assigned to @engineer", "Looks good to me."])
        let newest = sim.get("/projects/11/issues/5/notes").array.first
        XCTAssertEqual(newest?["body"] as? String, "Looks good to me.")
        XCTAssertEqual(newest?["system"] as? Bool, false)
        XCTAssertEqual(newest?["noteable_type"] as? String, "Issue")
        XCTAssertEqual(sim.notes("platform/web!2"), ["assigned to @alice", "requested review from @alice",
            "approved this merge request"])
        let labels = sim.get("/projects/11/issues/4/resource_label_events").array
        XCTAssertEqual(labels.first?.at("label.name") as? String, "bug")
        XCTAssertEqual(labels.first?["action"] as? String, "add")
        let milestones = sim.get("/projects/11/issues/4/resource_milestone_events").array
        XCTAssertEqual(milestones.first?.at("user.username") as? String, "lead")
        let states = sim.get("/projects/11/issues/7/resource_state_events").array
        XCTAssertEqual(states.first?["state"] as? String, "closed")
        XCTAssertEqual(states.first?["resource_type"] as? String, "Issue")
        let commits = sim.get("/projects/11/merge_requests/3/commits").array
        XCTAssertEqual(commits.first?["author_name"] as? String, "Eve Engineer")
        XCTAssertEqual((commits.first?["short_id"] as? String)?.count, 8)
        let approvals = sim.get("/projects/11/merge_requests/2/approvals").json
        XCTAssertEqual((approvals["approved_by"] as? [[String: Any]])?.first?.at("user.username") as? String, "alice")
    }
}
