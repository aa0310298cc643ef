import XCTest

@testable import QaseSimulator

/// The seeded people and items follow the documented rules (docs/qase-sim.md), which clients' tests rely on.
final class FixtureTests: XCTestCase {
    private let sim = SimHarness()

    func test_users_haveEmailsNamesWithSpacesAndOneInactive() {
        let users = sim.get("/user?limit=100").entities
        XCTAssertEqual(
            users.map { $0["email"] as? String },
            [
                "lead@example.com", "engineer@example.com", "alice@example.com", "bob@example.com",
            ])
        XCTAssertTrue(users.allSatisfy { ($0["name"] as? String)?.contains(" ") == true })
        XCTAssertEqual(users.map { $0["status"] as? Int }, [1, 1, 1, 0])
        XCTAssertEqual(sim.get("/user/2").result["name"] as? String, "Eve Engineer")
        XCTAssertEqual(sim.get("/user/9").status, 404)
    }

    func test_authors_areAnotherNamespace_withUUIDsAndAnApp() {
        let authors = sim.get("/author?limit=100").entities
        XCTAssertEqual(authors.count, 5)
        for author in authors where author["entity_type"] as? String == "user" {
            XCTAssertNotEqual(author["id"] as? Int, author["entity_id"] as? Int, "author id ≠ user id")
            XCTAssertEqual(author["id"] as? Int, author["author_id"] as? Int)
        }
        let engineer = authors.first { $0["email"] as? String == "engineer@example.com" }
        XCTAssertEqual(engineer?["id"] as? Int, 3)
        XCTAssertEqual(engineer?["entity_id"] as? Int, 2)
        XCTAssertEqual(engineer?["uuid"] as? String, "5a5e0000-0000-4000-8000-000000000003")
        let app = authors.first { $0["entity_type"] as? String == "app" }
        XCTAssertEqual(app?["name"] as? String, "Jenkins")
        XCTAssertEqual(authors.first { $0["email"] as? String == "bob@example.com" }?["is_active"] as? Bool, false)
    }

    func test_authorLookups_byEmailSearch_uuid_andDeprecatedId() {
        XCTAssertEqual(sim.get("/author?type=user&search=ENGINEER@example.com").ids, [3])
        XCTAssertEqual(sim.get("/author?type=app").ids, [5])
        XCTAssertEqual(sim.get("/author/5a5e0000-0000-4000-8000-000000000003").result["entity_id"] as? Int, 2)
        XCTAssertEqual(sim.get("/author/3").result["email"] as? String, "engineer@example.com")
        XCTAssertEqual(sim.get("/author/77").status, 404)
        let byName = SimHarness { $0.switches.authorSearch = .name }
        XCTAssertEqual(byName.get("/author?search=engineer@example.com").ids, [], "names only")
        XCTAssertEqual(byName.get("/author?search=eve").ids, [3])
    }

    func test_tokens_defaultsOverridesAndRefusals() {
        XCTAssertEqual(sim.call("GET", "/project", token: "qase-sim-alice-token").status, 200)
        XCTAssertEqual(sim.call("GET", "/project", token: .some(nil)).status, 401)
        XCTAssertEqual(sim.call("GET", "/project", token: "Bearer qase-sim-alice-token").status, 401)
        let custom = SimHarness { $0.tokens = ["engineer": "s3cret", "bob": "bobs"] }
        XCTAssertEqual(custom.call("GET", "/project", token: "s3cret").status, 200)
        XCTAssertEqual(custom.call("GET", "/project", token: "qase-sim-engineer-token").status, 401, "replaced")
        let inactive = custom.call("GET", "/project", token: "bobs")
        XCTAssertEqual(inactive.status, 401)
        XCTAssertEqual(inactive.errorMessage, "User Bob Former is inactive")
        XCTAssertEqual(custom.stats["unauthorized"] as? Int, 2)
    }

    func test_projects_defaultsAndCounts() {
        let projects = sim.get("/project").entities
        XCTAssertEqual(projects.map { $0["code"] as? String }, ["DEMO", "WEB"])
        let counts = projects[0]["counts"] as? [String: Any]
        XCTAssertEqual(counts?["cases"] as? Int, 12)
        XCTAssertEqual((counts?["defects"] as? [String: Any])?["total"] as? Int, 16)
        XCTAssertEqual(sim.get("/project/demo").result["title"] as? String, "Demo Project", "codes in any case")
    }

    func test_caseRules_authorEditorAndTimes() {
        let cases = sim.get("/case/DEMO?limit=100").entities
        XCTAssertEqual(cases.count, 12)
        XCTAssertEqual(cases.prefix(3).map { $0["author_id"] as? Int }, [3, 2, 4], "engineer, alice, lead")
        let qql = sim.search(#"entity = "case" and project = "DEMO""#).entities
        XCTAssertEqual(
            qql.prefix(4).map { $0["updated_by"] as? Int }, [3, 3, 4, 4],
            "odd: the author; even: [lead, engineer, alice][(n-1) % 3]")
        XCTAssertEqual(cases[0]["description"] as? String, "Checks case 1.")
        XCTAssertTrue(cases[2]["description"] is NSNull)
        XCTAssertEqual(cases[0]["title"] as? String, "Login & logout <b>works</b>")
    }

    func test_defectRules_engineerHasOpenAssignedDefects() {
        let mine = sim.search(#"entity = "defect" and project = "DEMO" and assignee = currentUser()"#)
        XCTAssertEqual(mine.ids, [1, 5, 9, 13], "[engineer, lead, nobody, alice][(n-1) % 4]")
        XCTAssertEqual(mine.entities.map { $0["status"] as? String }, ["open", "in_progress", "resolved", "invalid"])
        let defects = sim.get("/defect/DEMO?limit=100").entities
        XCTAssertEqual(defects.prefix(3).map { $0["author_id"] as? Int }, [2, 3, 4], "alice, engineer, lead")
        XCTAssertEqual(defects[8]["resolved_at"] as? String, defects[8]["updated_at"] as? String)
        XCTAssertFalse(defects[0].keys.contains("assignee_id"), "the REST Defect has no assignee")
    }

    func test_planRules_assigneesAreUserIds() {
        let plan = sim.get("/plan/DEMO/1").result
        let cases = plan["cases"] as? [[String: Any]] ?? []
        XCTAssertEqual(cases.map { $0["case_id"] as? Int }, [1, 4, 7, 10])
        XCTAssertEqual(cases.map { $0["assignee_id"] as? Int }, [2, 3, nil, 1], "engineer, alice, nobody, lead")
        XCTAssertEqual(plan["cases_count"] as? Int, 4)
        XCTAssertEqual(sim.get("/plan/DEMO").entities.count, 3)
    }

    func test_reviewRules_waitingOnEngineerAndByEngineer() {
        let engineer = "5a5e0000-0000-4000-8000-000000000003"
        let waiting = sim.get("/review/DEMO?status=open&reviewer_uuid=\(engineer)")
        XCTAssertEqual(waiting.ids, [1, 3])
        XCTAssertEqual(sim.get("/review/DEMO?author_uuid=\(engineer)").ids, [2, 5])
        let review5 = sim.get("/review/DEMO/5").result
        XCTAssertEqual(
            (review5["reviewers"] as? [[String: Any]])?.map { $0["status"] as? String }, ["approved", "unapproved"])
        XCTAssertTrue(sim.get("/review/DEMO/1").result["updated_at"] is NSNull, "never updated")
        XCTAssertEqual(sim.get("/review/DEMO?status=merged").ids, [4])
    }

    func test_runsAndResults() {
        let runs = sim.get("/run/DEMO").entities
        XCTAssertEqual(runs.map { $0["status_text"] as? String }, ["failed", "failed", "in_progress"])
        XCTAssertTrue(runs[2]["end_time"] is NSNull)
        XCTAssertEqual((sim.get("/run/DEMO/1?include=cases").result["cases"] as? [Int]), [1, 4, 7, 10])
        let failed = sim.get("/result/DEMO?status=failed&limit=100").entities
        XCTAssertEqual(failed.map { $0["case_id"] as? Int }, [7, 2, 12], "results in run order, then case order")
        let hash = failed[0]["hash"] as? String ?? ""
        XCTAssertEqual(hash.count, 40)
        XCTAssertEqual(sim.get("/result/DEMO/\(hash)").result["case_id"] as? Int, 7)
        XCTAssertEqual(sim.get("/result/DEMO?case_id=1,2&run=1,2").ids.count, 0, "results have hashes, not ids")
        XCTAssertEqual(sim.get("/result/DEMO?case_id=1,2&run=1,2").entities.count, 2)
        XCTAssertEqual(sim.get("/result/DEMO?from_end_time=2001-01-01%2000:00:00&limit=100").entities.count, 12)
        XCTAssertEqual(sim.get("/result/DEMO?from_end_time=yesterday").status, 400)
    }

    func test_times_isoWithOffset_andDeprecatedForms() throws {
        let defect = sim.get("/defect/DEMO/1").result
        let iso = try XCTUnwrap(defect["created_at"] as? String)
        XCTAssertTrue(iso.hasSuffix("+00:00") && iso.count == 25, iso)
        let zoneless = try XCTUnwrap(defect["created"] as? String)
        XCTAssertEqual(zoneless, String(iso.prefix(19)).replacing("T", with: " "))
        XCTAssertEqual(
            sim.get("/case/DEMO/1").result["created"] as? String,
            String((sim.get("/case/DEMO/1").result["created_at"] as? String ?? "").prefix(19)) + ".000000Z")
        XCTAssertEqual(QaseClock.iso(0), "1970-01-01T00:00:00+00:00")
        XCTAssertEqual(QaseClock.parseZoneless("1970-01-02 00:00:01"), 86_401)
    }
}
