import XCTest

@testable import GitHubSimulator

final class TimelineTests: XCTestCase {
    func testSeededShapes() throws {
        let items = SimHarness().timeline("acme/web#12")
        XCTAssertEqual(items.compactMap { $0["event"] as? String },
            ["committed", "assigned", "assigned", "review_requested", "labeled", "milestoned"])
        let commit = items[0]
        XCTAssertEqual((commit["sha"] as? String)?.count, 40)
        XCTAssertEqual(commit.at("author.name") as? String, "Alice Example")
        XCTAssertNotNil(commit.at("committer.date"))
        XCTAssertNil(commit["actor"])
        XCTAssertNil(commit["created_at"])
        let assigned = items[2]
        for key in ["id", "node_id", "url", "actor", "event", "created_at", "performed_via_github_app"] {
            XCTAssertTrue(assigned.keys.contains(key), key)
        }
        XCTAssertEqual(assigned.at("assignee.login") as? String, "engineer")
        XCTAssertEqual(assigned.at("assigner.login") as? String, "alice")
        XCTAssertEqual(assigned.at("actor.type") as? String, "User")
        XCTAssertEqual(items[3].at("requested_reviewer.login") as? String, "engineer")
        XCTAssertEqual(items[3].at("review_requester.login") as? String, "alice")
        XCTAssertEqual(items[4].at("label.name") as? String, "bug")
        XCTAssertEqual(items[5].at("milestone.title") as? String, "v1.0")
        let team = SimHarness().timeline("acme/web#6")[2]
        XCTAssertEqual(team.at("requested_team.slug") as? String, "reviewers")
        XCTAssertNil(team["requested_reviewer"])
        let merged = SimHarness { $0.issues = 21 }.timeline("acme/web#21")
        XCTAssertEqual(merged.suffix(2).compactMap { $0["event"] as? String }, ["merged", "closed"])
        XCTAssertEqual(merged.last?.at("actor.login") as? String, "lead")
        XCTAssertNotNil(merged.last?["commit_id"] as? String)
    }

    func testWritesAddEventsAndBumpUpdatedAt() throws {
        let sim = SimHarness()
        let before = sim.get("/repos/acme/web/issues/1").json["updated_at"] as? String
        sim.sim("POST", "clock", #"{"advance": 3600}"#)
        let edit = #"{"title":"New title","labels":["bug"],"milestone":2,"state":"closed","#
            + #""state_reason":"not_planned"}"#
        XCTAssertEqual(sim.call("PATCH", "/repos/acme/web/issues/1", token: "ghp_sim_alice", body: edit).status, 200)
        sim.call("POST", "/repos/acme/web/issues/1/comments", token: "ghp_sim_lead", body: #"{"body":"Why?"}"#)
        sim.call("PATCH", "/repos/acme/web/issues/1", token: "ghp_sim_lead", body: #"{"state":"open","labels":[]}"#)
        sim.call("DELETE", "/repos/acme/web/issues/1/assignees", token: "ghp_sim_lead",
            body: #"{"assignees":["engineer"]}"#)
        let items = sim.timeline("acme/web#1")
        XCTAssertEqual(items.dropFirst().compactMap { $0["event"] as? String },
            ["renamed", "labeled", "milestoned", "closed", "commented", "unlabeled", "reopened", "unassigned"])
        let renamed = items[1]
        XCTAssertEqual(renamed.at("rename.from") as? String, "Issue 1 of acme/web")
        XCTAssertEqual(renamed.at("rename.to") as? String, "New title")
        XCTAssertEqual(renamed.at("actor.login") as? String, "alice")
        XCTAssertEqual(items[4]["state_reason"] as? String, "not_planned")
        let comment = items[5]
        XCTAssertEqual(comment.at("user.login") as? String, "lead")
        XCTAssertEqual(comment["body"] as? String, "Why?")
        XCTAssertNotNil(comment["html_url"] as? String)
        XCTAssertNotNil(comment["updated_at"] as? String)
        XCTAssertEqual(items[8].at("assigner.login") as? String, "lead")
        let issue = sim.get("/repos/acme/web/issues/1").json
        XCTAssertNotEqual(issue["updated_at"] as? String, before)
        XCTAssertEqual(issue["comments"] as? Int, 1)
        XCTAssertEqual(issue["state_reason"] as? String, "reopened")
    }

    func testPullRequestWrites() {
        let sim = SimHarness()
        let request = sim.call("POST", "/repos/acme/web/pulls/3/requested_reviewers", token: "ghp_sim_alice",
            body: #"{"reviewers":["lead"],"team_reviewers":["reviewers"]}"#)
        XCTAssertEqual(request.status, 201)
        XCTAssertEqual(sim.call("POST", "/repos/acme/web/pulls/3/requested_reviewers", token: "ghp_sim_lead",
            body: #"{"reviewers":["alice"]}"#).status, 422)
        sim.call("DELETE", "/repos/acme/web/pulls/3/requested_reviewers", token: "ghp_sim_alice",
            body: #"{"reviewers":["engineer"]}"#)
        let review = sim.call("POST", "/repos/acme/web/pulls/3/reviews", token: "ghp_sim_lead",
            body: #"{"event":"REQUEST_CHANGES","body":"Not yet."}"#)
        XCTAssertEqual(review.json["state"] as? String, "CHANGES_REQUESTED")
        XCTAssertEqual(sim.call("POST", "/repos/acme/web/pulls/3/reviews", token: "ghp_sim_alice",
            body: #"{"event":"APPROVE"}"#).status, 422)
        sim.sim("POST", "push", #"{"repo":"acme/web","number":3,"author":"lead","message":"Fix it"}"#)
        XCTAssertEqual(sim.call("PUT", "/repos/acme/web/pulls/3/merge", token: "ghp_sim_lead").json["merged"]
            as? Bool, true)
        XCTAssertEqual(sim.call("PUT", "/repos/acme/web/pulls/3/merge", token: "ghp_sim_lead").status, 405)
        let items = sim.timeline("acme/web#3")
        XCTAssertEqual(items.compactMap { $0["event"] as? String }.suffix(8),
            ["review_requested", "review_requested", "review_requested", "review_request_removed", "reviewed",
             "committed", "merged", "closed"])
        let reviewed = items.first { $0["event"] as? String == "reviewed" } ?? [:]
        XCTAssertEqual(reviewed["state"] as? String, "changes_requested")
        XCTAssertEqual(reviewed.at("user.login") as? String, "lead")
        XCTAssertNotNil(reviewed["submitted_at"] as? String)
        XCTAssertEqual(items.last { $0["event"] as? String == "committed" }?["message"] as? String, "Fix it")
        let pull = sim.get("/repos/acme/web/issues/3").json
        XCTAssertNotNil(pull.at("pull_request.merged_at") as? String)
    }

    func testCreateAndAssign() {
        let sim = SimHarness()
        let created = sim.call("POST", "/repos/acme/api/issues", token: "ghp_sim_lead",
            body: #"{"title":"New work","assignees":["engineer"]}"#)
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(created.json["number"] as? Int, 13)
        XCTAssertEqual(sim.events("acme/api#13"), ["assigned"])
        XCTAssertEqual(sim.timeline("acme/api#13").first?.at("assigner.login") as? String, "lead")
        XCTAssertTrue(sim.get("/issues").refs.contains("acme/api#13"))
        XCTAssertEqual(sim.call("POST", "/repos/acme/web/issues/2/assignees", token: "ghp_sim_alice",
            body: #"{"assignees":["engineer"]}"#).status, 201)
        XCTAssertEqual(sim.events("acme/web#2").last, "assigned")
    }

    func testTimelinePaging() {
        let sim = SimHarness()
        let page = sim.get("/repos/acme/web/issues/12/timeline?per_page=4")
        XCTAssertEqual(page.array.count, 4)
        XCTAssertEqual(page.links["next"], "http://github.test/repos/acme/web/issues/12/timeline?per_page=4&page=2")
        XCTAssertEqual(sim.get("/repos/acme/web/issues/12/timeline?per_page=4&page=2").array.count, 2)
    }
}
