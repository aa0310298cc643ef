import XCTest

@testable import GitLabSimulator

final class WriteTests: XCTestCase {
    func testAssigneesAndReviewersAreSystemNotes() {
        let sim = SimHarness()
        let before = sim.get("/projects/11/issues/1").json["updated_at"] as? String ?? ""
        let answer = sim.call("PUT", "/projects/11/issues/1", as: "alice", body: #"{"assignee_ids":[102]}"#)
        XCTAssertEqual(answer.status, 200)
        XCTAssertGreaterThan(answer.json["updated_at"] as? String ?? "", before)
        XCTAssertEqual(sim.notes("platform/web#1").last, "assigned to @alice and unassigned @engineer")
        XCTAssertEqual(sim.get("/projects/11/issues/1/notes").array.first?.at("author.username") as? String, "alice")
        sim.call("PUT", "/projects/11/merge_requests/3", as: "lead", body: #"{"reviewer_ids":[101,103]}"#)
        XCTAssertEqual(sim.notes("platform/web!3").last,
            "requested review from @engineer and @lead and removed review request for @alice")
        sim.call("PUT", "/projects/11/merge_requests/3", as: "lead", body: #"{"reviewer_ids":[]}"#)
        XCTAssertEqual(sim.notes("platform/web!3").last, "removed review request for @engineer and @lead")
    }

    func testTitleDescriptionLabelsMilestoneState() {
        let sim = SimHarness()
        let body = #"{"title":"Faster","description":"Now with numbers","add_labels":"perf","milestone_id":1102,"#
            + #""state_event":"close"}"#
        XCTAssertEqual(sim.call("PUT", "/projects/11/issues/1", as: "lead", body: body).status, 200)
        XCTAssertEqual(Array(sim.notes("platform/web#1").suffix(2)),
            ["changed title from **{-Issue 1 of platform/web-}** to **{+Faster+}**", "changed the description"])
        let labels = sim.get("/projects/11/issues/1/resource_label_events").array
        XCTAssertEqual(labels.last?.at("label.name") as? String, "perf")
        XCTAssertEqual(labels.last?.at("user.username") as? String, "lead")
        let milestone = sim.get("/projects/11/issues/1/resource_milestone_events").array.last
        XCTAssertEqual(milestone?.at("milestone.title") as? String, "v2.0")
        XCTAssertEqual(milestone?["action"] as? String, "add")
        let issue = sim.get("/projects/11/issues/1").json
        XCTAssertEqual(issue["state"] as? String, "closed")
        XCTAssertEqual(issue.at("closed_by.username") as? String, "lead")
        XCTAssertEqual(sim.get("/projects/11/issues/1/resource_state_events").array.last?["state"] as? String,
            "closed")
        sim.call("PUT", "/projects/11/issues/1", as: "lead", body: #"{"remove_labels":"perf","milestone_id":0}"#)
        XCTAssertEqual(sim.get("/projects/11/issues/1/resource_label_events").array.last?["action"] as? String,
            "remove")
        XCTAssertEqual(sim.call("PUT", "/projects/11/issues/1", body: "{}").status, 400)
        XCTAssertEqual(sim.call("PUT", "/projects/11/issues/1", body: #"{"state_event":"shut"}"#).status, 400)
    }

    func testNotesCreateAndMove() {
        let sim = SimHarness()
        let note = sim.call("POST", "/projects/platform%2Fweb/issues/2/notes", as: "alice", body: #"{"body":"Hi"}"#)
        XCTAssertEqual(note.status, 201)
        XCTAssertEqual(note.json["system"] as? Bool, false)
        XCTAssertEqual(sim.call("POST", "/projects/11/issues/2/notes", body: "{}").json["error"] as? String,
            "body is missing")
        let created = sim.call("POST", "/projects/12/issues", as: "alice",
            body: #"{"title":"New","assignee_ids":[101]}"#)
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(created.json.at("references.full") as? String, "platform/api#13")
        XCTAssertEqual(sim.notes("platform/api#13"), ["assigned to @engineer"])
        let moved = sim.call("POST", "/projects/11/issues/2/move", as: "lead", body: #"{"to_project_id":13}"#)
        XCTAssertEqual(moved.status, 201)
        XCTAssertEqual(moved.json.at("references.full") as? String, "platform/ops#13")
        let old = sim.get("/projects/11/issues/2").json
        XCTAssertEqual(old["moved_to_id"] as? Int, moved.json["id"] as? Int)
        XCTAssertEqual(old["state"] as? String, "closed")
        XCTAssertEqual(sim.notes("platform/web#2").last, "moved to platform/ops#13")
        XCTAssertEqual(sim.notes("platform/ops#13").last, "moved from platform/web#2")
        XCTAssertEqual(sim.notes("platform/ops#13").first, "assigned to @alice")
        XCTAssertEqual(sim.call("POST", "/projects/11/issues/2/move", body: #"{"to_project_id":11}"#).status, 400)
    }

    func testApproveMergeAndPush() {
        let sim = SimHarness()
        XCTAssertEqual(sim.call("POST", "/projects/11/merge_requests/1/approve", as: "lead").status, 201)
        XCTAssertEqual(sim.call("POST", "/projects/11/merge_requests/1/approve", as: "lead").status, 401)
        XCTAssertEqual(sim.notes("platform/web!1").last, "approved this merge request")
        XCTAssertEqual(sim.call("POST", "/projects/11/merge_requests/1/unapprove", as: "lead").status, 201)
        XCTAssertEqual(sim.call("POST", "/projects/11/merge_requests/1/unapprove", as: "lead").status, 404)
        XCTAssertEqual(sim.notes("platform/web!1").last, "unapproved this merge request")
        sim.sim("POST", "push", #"{"project":"platform/web","iid":1,"author":"alice","pusher":"lead","message":"Fix"}"#)
        let notes = sim.get("/projects/11/merge_requests/1/notes").array
        XCTAssertTrue((notes.first?["body"] as? String)?.hasPrefix("added 1 commit\n\n<ul><li>") == true)
        XCTAssertEqual(notes.first?.at("author.username") as? String, "lead")
        let commits = sim.get("/projects/11/merge_requests/1/commits").array
        XCTAssertEqual(commits.first?["title"] as? String, "Fix")
        XCTAssertEqual(commits.first?["author_name"] as? String, "Alice Example")
        let merged = sim.call("PUT", "/projects/11/merge_requests/1/merge", as: "lead")
        XCTAssertEqual(merged.json["state"] as? String, "merged")
        XCTAssertEqual(merged.json.at("merged_by.username") as? String, "lead")
        XCTAssertEqual(sim.call("PUT", "/projects/11/merge_requests/1/merge").status, 405)
        XCTAssertEqual(sim.call("PUT", "/projects/11/merge_requests/5/merge").status, 405)
        XCTAssertEqual(sim.get("/projects/11/merge_requests/1/resource_state_events").array.last?["state"] as? String,
            "merged")
    }

    func testMentions() {
        let sim = SimHarness()
        let body = #"{"body":"See #3, !4 and platform/api#1."}"#
        sim.call("POST", "/projects/11/issues/2/notes", as: "alice", body: body)
        XCTAssertEqual(sim.notes("platform/web#3").last, "mentioned in issue #2")
        XCTAssertEqual(sim.notes("platform/web!4").last, "mentioned in issue #2")
        XCTAssertEqual(sim.notes("platform/api#1").last, "mentioned in issue platform/web#2")
        XCTAssertEqual(sim.get("/projects/12/issues/1/notes").array.first?.at("author.username") as? String, "alice")
    }

    func testLazyUpdatedAt() {
        let sim = SimHarness { $0.switches.lazyUpdatedAt = true }
        let first = sim.call("PUT", "/projects/11/issues/1", as: "alice", body: #"{"add_labels":"a"}"#)
        let stamp = first.json["updated_at"] as? String
        sim.call("PUT", "/projects/11/issues/1", as: "alice", body: #"{"add_labels":"b"}"#)
        XCTAssertEqual(sim.get("/projects/11/issues/1").json["updated_at"] as? String, stamp)
        XCTAssertEqual(sim.get("/projects/11/issues/1").json["labels"] as? [String], ["a", "b"])
        sim.sim("POST", "clock", #"{"advance": 61}"#)
        sim.call("PUT", "/projects/11/issues/1", as: "alice", body: #"{"add_labels":"c"}"#)
        XCTAssertNotEqual(sim.get("/projects/11/issues/1").json["updated_at"] as? String, stamp)
    }

    func testFormBodies() {
        let sim = SimHarness()
        let answer = sim.raw("PUT", "/api/v4/projects/11/issues/3", headers: ["private-token": "glpat-sim-alice",
            "content-type": "application/x-www-form-urlencoded"], body: "assignee_ids[]=101&assignee_ids[]=103")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(sim.notes("platform/web#3").last, "assigned to @engineer and @lead")
    }
}
