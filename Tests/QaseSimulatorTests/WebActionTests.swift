import XCTest

@testable import QaseSimulator

/// What only Qase's web UI can do, through the control routes; and projects a token cannot see.
final class WebActionTests: XCTestCase {
    private let assigned =
        #"entity = "defect" and project = "DEMO" and assignee = currentUser() and isResolved is false"#

    func test_assignAndUnassignADefect_showsInQQL_andMovesUpdatedAt() {
        let sim = SimHarness()
        sim.sim("POST", "clock", #"{"advance": 60}"#)
        let before = sim.get("/defect/DEMO/3").result["updated_at"] as? String
        sim.sim("PUT", "defect/DEMO/3/assignee/engineer")
        XCTAssertEqual(sim.search(assigned).ids, [1, 3, 5, 13])
        XCTAssertNotEqual(sim.get("/defect/DEMO/3").result["updated_at"] as? String, before)
        sim.sim("DELETE", "defect/DEMO/1/assignee")
        XCTAssertEqual(sim.search(assigned).ids, [3, 5, 13])
        sim.sim("POST", "defect/DEMO/9/reopen")
        XCTAssertEqual(sim.search(assigned).ids, [3, 5, 9, 13], "resolved 9 reopened")
        XCTAssertTrue(sim.get("/defect/DEMO/9").result["resolved_at"] is NSNull)
        XCTAssertEqual(sim.raw("PUT", "/sim/defect/DEMO/3/assignee/nobody", token: nil).status, 404)
        XCTAssertEqual(sim.raw("PUT", "/sim/defect/DEMO/99/assignee/alice", token: nil).status, 404)
    }

    func test_planAssignment_bumpsUpdatedAt_unlessSwitchedOff() {
        let sim = SimHarness()
        sim.sim("POST", "clock", #"{"advance": 60}"#)
        let before = sim.get("/plan/DEMO/1").result["updated_at"] as? String
        sim.sim("PUT", "plan/DEMO/1/case/7/assignee/engineer")
        let plan = sim.get("/plan/DEMO/1").result
        XCTAssertEqual((plan["cases"] as? [[String: Any]])?[2]["assignee_id"] as? Int, 2)
        XCTAssertNotEqual(plan["updated_at"] as? String, before)

        sim.sim("POST", "switches", #"{"planAssignmentBumpsUpdatedAt": false}"#)
        sim.sim("POST", "clock", #"{"advance": 60}"#)
        let unchanged = plan["updated_at"] as? String
        sim.sim("DELETE", "plan/DEMO/1/case/1/assignee")
        let after = sim.get("/plan/DEMO/1").result
        XCTAssertTrue((after["cases"] as? [[String: Any]])?[0]["assignee_id"] is NSNull)
        XCTAssertEqual(after["updated_at"] as? String, unchanged, "the list says nothing changed")
        XCTAssertEqual(
            sim.raw("PUT", "/sim/plan/DEMO/1/case/2/assignee/alice", token: nil).status, 404, "not in plan 1")
    }

    func test_reviewerVerdicts_addAndRemoveReviewers_reviewStatus() {
        let sim = SimHarness()
        sim.sim("POST", "review/DEMO/2/reviewer/alice", #"{"status": "changes_requested"}"#)
        var review = sim.get("/review/DEMO/2").result
        XCTAssertEqual((review["reviewers"] as? [[String: Any]])?.first?["status"] as? String, "changes_requested")
        XCTAssertNotNil(review["updated_at"] as? String)
        XCTAssertEqual(
            sim.raw("POST", "/sim/review/DEMO/2/reviewer/alice", token: nil, body: #"{"status": "meh"}"#).status, 400)
        XCTAssertEqual(
            sim.raw("POST", "/sim/review/DEMO/2/reviewer/engineer", token: nil, body: #"{"status": "approved"}"#)
                .status,
            404, "engineer is not a reviewer of review 2")
        sim.sim("PUT", "review/DEMO/2/reviewer/bob")
        sim.sim("DELETE", "review/DEMO/2/reviewer/lead")
        review = sim.get("/review/DEMO/2").result
        XCTAssertEqual(
            (review["reviewers"] as? [[String: Any]])?.map { $0["author_uuid"] as? String },
            ["5a5e0000-0000-4000-8000-000000000002", "5a5e0000-0000-4000-8000-000000000001"])
        sim.sim("POST", "review/DEMO/2/status", #"{"status": "merged"}"#)
        XCTAssertEqual(sim.get("/review/DEMO/2").result["status"] as? String, "merged")
        XCTAssertEqual(
            sim.raw("POST", "/sim/review/DEMO/2/reviewer/alice", token: nil, body: #"{"status": "approved"}"#).status,
            422, "no verdicts on a merged review")
    }

    func test_renameProject_keepsItemsAndIds_oldCodeIs404() {
        let sim = SimHarness()
        sim.sim("POST", "project/WEB/rename", #"{"code": "shop"}"#)
        XCTAssertEqual(sim.get("/project").entities.map { $0["code"] as? String }, ["DEMO", "SHOP"])
        XCTAssertEqual(sim.get("/defect/SHOP?limit=100").ids, Array(1...16))
        let gone = sim.get("/defect/WEB")
        XCTAssertEqual(gone.status, 404)
        XCTAssertEqual(gone.errorMessage, #"Project "WEB" not found"#)
        XCTAssertEqual(
            sim.search(#"entity = "defect" and project = "SHOP" and assignee = currentUser()"#).ids, [1, 5, 9, 13])
        XCTAssertEqual(sim.raw("POST", "/sim/project/SHOP/rename", token: nil, body: #"{"code": "DEMO"}"#).status, 422)
        XCTAssertEqual(sim.raw("POST", "/sim/project/SHOP/rename", token: nil, body: #"{"code": "a-b"}"#).status, 400)
    }

    func test_noAccess_is403NamingTheProject_andUnlisted_exceptForLead() {
        let sim = SimHarness { $0.noAccess = ["WEB"] }
        let refused = sim.get("/case/WEB")
        XCTAssertEqual(refused.status, 403)
        XCTAssertTrue(refused.errorMessage?.contains("WEB") == true)
        XCTAssertEqual(sim.get("/project").entities.map { $0["code"] as? String }, ["DEMO"])
        XCTAssertEqual(sim.get("/project").result["total"] as? Int, 1)
        XCTAssertEqual(sim.get("/case/WEB", as: "lead").status, 200)
        XCTAssertEqual(sim.search(#"entity = "defect" and id = 1"#).entities.count, 1, "QQL sees visible projects only")
        sim.sim("PUT", "access/WEB/engineer")
        XCTAssertEqual(sim.get("/case/WEB").status, 200)
        sim.sim("DELETE", "access/DEMO/engineer")
        XCTAssertEqual(sim.get("/plan/DEMO/1").status, 403)
        XCTAssertEqual(sim.get("/plan/NOPE/1").status, 404)
    }

    func test_reviewRefusals_402And404_onEveryReviewRoute() {
        for status in [402, 404] {
            let sim = SimHarness { $0.switches.reviewRefusal = status }
            XCTAssertEqual(sim.get("/review/DEMO").status, status)
            XCTAssertEqual(sim.get("/review/DEMO/1").status, status)
            XCTAssertEqual(sim.call("PATCH", "/review/DEMO/1", body: "{}").status, status)
            XCTAssertEqual(sim.get("/plan/DEMO").status, 200)
        }
        let sim = SimHarness()
        sim.sim("POST", "switches", #"{"reviewRefusal": 402}"#)
        XCTAssertEqual(sim.get("/review/DEMO").status, 402)
        sim.sim("POST", "switches", #"{"reviewRefusal": 0}"#)
        XCTAssertEqual(sim.get("/review/DEMO").status, 200)
        XCTAssertEqual(sim.raw("POST", "/sim/switches", token: nil, body: #"{"reviewRefusal": 500}"#).status, 400)
        let misspelt = sim.raw("POST", "/sim/switches", token: nil, body: #"{"reviewsRefusal": 402}"#)
        XCTAssertEqual(misspelt.status, 400)
        XCTAssertTrue(misspelt.errorMessage?.hasPrefix("Unknown switch reviewsRefusal") == true)
        XCTAssertEqual(sim.sim("GET", "switches").json["rateLimit"] as? Int, 600)
    }
}
