import XCTest

@testable import QaseSimulator

/// Colleagues act through the real write API with their own tokens, in the spec's shapes.
final class WriteTests: XCTestCase {
    func test_updateCase_setsUpdatedByAndUpdatedAt_andValidates() {
        let sim = SimHarness()
        sim.sim("POST", "clock", #"{"advance": 60}"#)
        let before = sim.get("/case/DEMO/1").result
        let answer = sim.call(
            "PATCH", "/case/DEMO/1", as: "lead", body: #"{"title": "Login works", "severity": 2, "tags": ["auth"]}"#)
        XCTAssertEqual(answer.json["result"] as? [String: Int], ["id": 1])
        let after = sim.get("/case/DEMO/1").result
        XCTAssertEqual(after["title"] as? String, "Login works")
        XCTAssertEqual(after["severity"] as? Int, 2)
        XCTAssertEqual((after["tags"] as? [[String: Any]])?.first?["title"] as? String, "auth")
        XCTAssertNotEqual(after["updated_at"] as? String, before["updated_at"] as? String)
        XCTAssertEqual(
            sim.search(#"entity = "case" and project = "DEMO" and id = 1"#).entities.first?["updated_by"] as? Int, 4)
        XCTAssertEqual(sim.call("PATCH", "/case/DEMO/1", body: #"{"severity": 9}"#).status, 400)
        XCTAssertEqual(sim.call("PATCH", "/case/DEMO/1", body: #"not json"#).status, 400)
        XCTAssertEqual(sim.call("PATCH", "/case/DEMO/99", body: "{}").status, 404)
    }

    func test_createAndDeleteCase_idsAreNeverReused_andPlansLoseTheCase() {
        let sim = SimHarness()
        XCTAssertEqual(
            sim.call("POST", "/case/DEMO", as: "alice", body: #"{"title": "New case"}"#).result["id"] as? Int, 13)
        XCTAssertEqual(sim.get("/case/DEMO/13").result["author_id"] as? Int, 2)
        XCTAssertEqual(sim.call("POST", "/case/DEMO", body: "{}").status, 400, "title is required")
        XCTAssertEqual(sim.call("DELETE", "/case/DEMO/13", as: "lead").status, 200)
        XCTAssertEqual(sim.call("POST", "/case/DEMO", body: #"{"title": "Another"}"#).result["id"] as? Int, 14)
        XCTAssertEqual(sim.call("DELETE", "/case/DEMO/4", as: "lead").status, 200)
        let plan = sim.get("/plan/DEMO/1").result
        XCTAssertEqual((plan["cases"] as? [[String: Any]])?.map { $0["case_id"] as? Int }, [1, 7, 10])
        XCTAssertEqual(sim.get("/case/DEMO/4").status, 404)
    }

    func test_defects_createUpdateResolveStatusDelete() {
        let sim = SimHarness()
        let created = sim.call(
            "POST", "/defect/DEMO", as: "lead", body: #"{"title": "Crash", "actual_result": "boom", "severity": 2}"#)
        XCTAssertEqual(created.result["id"] as? Int, 17)
        XCTAssertEqual(sim.get("/defect/DEMO/17").result["severity"] as? String, "critical", "an int in, a string out")
        XCTAssertEqual(sim.call("POST", "/defect/DEMO", body: #"{"title": "x"}"#).status, 400)
        XCTAssertEqual(
            sim.call("PATCH", "/defect/DEMO/1", as: "lead", body: #"{"title": "Crash on save"}"#).status, 200)
        XCTAssertEqual(sim.get("/defect/DEMO/1").result["title"] as? String, "Crash on save")
        XCTAssertEqual(sim.call("PATCH", "/defect/DEMO/resolve/1", as: "lead").status, 200)
        let resolved = sim.get("/defect/DEMO/1").result
        XCTAssertEqual(resolved["status"] as? String, "resolved")
        XCTAssertNotNil(resolved["resolved_at"] as? String)
        let status = sim.call("PATCH", "/defect/DEMO/status/1", as: "lead", body: #"{"status": "in_progress"}"#)
        XCTAssertEqual(String(decoding: status.body, as: UTF8.self), #"{"status":true}"#)
        XCTAssertTrue(sim.get("/defect/DEMO/1").result["resolved_at"] is NSNull)
        XCTAssertEqual(
            sim.call("PATCH", "/defect/DEMO/status/1", body: #"{"status": "open"}"#).status, 400,
            "not in the spec's enum")
        XCTAssertEqual(sim.call("DELETE", "/defect/DEMO/2", as: "lead").status, 200)
        XCTAssertEqual(sim.get("/defect/DEMO/2").status, 404)
    }

    func test_planUpdate_changesCases_keepsAssignees_bumpsUpdatedAt() {
        let sim = SimHarness()
        let before = sim.get("/plan/DEMO/1").result["updated_at"] as? String
        XCTAssertEqual(sim.call("PATCH", "/plan/DEMO/1", as: "lead", body: #"{"cases": [4, 1, 2]}"#).status, 200)
        let plan = sim.get("/plan/DEMO/1").result
        let cases = plan["cases"] as? [[String: Any]] ?? []
        XCTAssertEqual(cases.map { $0["case_id"] as? Int }, [4, 1, 2])
        XCTAssertEqual(cases.map { $0["assignee_id"] as? Int }, [3, 2, nil])
        XCTAssertNotEqual(plan["updated_at"] as? String, before)
        XCTAssertEqual(sim.call("PATCH", "/plan/DEMO/1", body: #"{"cases": [999]}"#).status, 400)
    }

    func test_reviewUpdate_replacesReviewers_keepingVerdicts_onlyWhileOpen() {
        let sim = SimHarness()
        let alice = "5a5e0000-0000-4000-8000-000000000002", lead = "5a5e0000-0000-4000-8000-000000000004"
        let answer = sim.call("PATCH", "/review/DEMO/5", body: #"{"reviewers": ["\#(alice)", "\#(lead)"]}"#)
        XCTAssertEqual(answer.status, 200)
        var reviewers = sim.get("/review/DEMO/5").result["reviewers"] as? [[String: Any]] ?? []
        XCTAssertEqual(
            reviewers.map { $0["status"] as? String }, ["approved", "unapproved"], "kept reviewers keep theirs")
        XCTAssertEqual(sim.call("PATCH", "/review/DEMO/5", body: #"{"reviewers": ["\#(lead)"]}"#).status, 200)
        reviewers = sim.get("/review/DEMO/5").result["reviewers"] as? [[String: Any]] ?? []
        XCTAssertEqual(reviewers.map { $0["author_uuid"] as? String }, [lead])
        XCTAssertEqual(sim.call("PATCH", "/review/DEMO/4", body: #"{"reviewers": []}"#).status, 422, "merged")
        XCTAssertEqual(sim.call("PATCH", "/review/DEMO/5", body: #"{"reviewers": ["nobody"]}"#).status, 400)
    }

    func test_appToken_actsAsTheApp() {
        let sim = SimHarness()
        XCTAssertEqual(sim.call("PATCH", "/case/DEMO/1", as: "jenkins", body: #"{"title": "From CI"}"#).status, 200)
        XCTAssertEqual(sim.search(#"entity = "case" and project = "DEMO" and updatedBy = "Jenkins-reporter""#).ids, [1])
        XCTAssertEqual((sim.stats["requestsByUser"] as? [String: Int])?["jenkins"], 1)
    }
}
