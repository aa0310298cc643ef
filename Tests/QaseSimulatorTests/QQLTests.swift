import XCTest

@testable import QaseSimulator

/// The QQL subset: what parses, what is refused with "Query is invalid", and what matches.
final class QQLTests: XCTestCase {
    func test_parser_acceptsTheSubset() throws {
        let query = try QQLParser.parse(
            #"entity = "defect" AND project in ["DEMO", 'WEB'] and assignee != currentUser()"#
                + #" and updated >= now("-1d") and isResolved is false order by id DESC"#
        )
        XCTAssertEqual(query.conditions.count, 5)
        XCTAssertEqual(
            query.conditions[1], QQLCondition(field: "project", op: .isIn, values: [.string("DEMO"), .string("WEB")]))
        XCTAssertEqual(query.conditions[2].values, [.currentUser])
        XCTAssertEqual(query.conditions[3].values, [.now(offset: -86_400)])
        XCTAssertEqual(query.conditions[4], QQLCondition(field: "isResolved", op: .isValue, values: [.bool(false)]))
        XCTAssertTrue(query.descending)
        XCTAssertEqual(
            try QQLParser.parse(#"entity = "case" and created < 1569430502709"#).conditions[1].values,
            [.number(1_569_430_502_709)])
        XCTAssertEqual(
            try QQLParser.parse(#"entity = 'case' and author = "Eve \"E\" Engineer""#).conditions[1].values,
            [.string("Eve \"E\" Engineer")])
    }

    func test_unsupportedSyntax_isQueryIsInvalid() {
        let sim = SimHarness()
        let refused = [
            #"entity = "defect" or id = 1"#, #"(entity = "defect")"#, #"entity = "case" and title ~ "login""#,
            #"entity = "defect" and not id = 1"#, #"entity = "case" and updated >= now("-1h")"#,
            #"entity = "case" and author = activeUsers()"#, #"entity = "case" order by title"#,
            #"project = "DEMO""#, #"entity = "widget""#, #"entity = "case" and assignee = currentUser()"#,
            #"entity = "case" and isResolved is false"#, #"entity = "defect" and author >= currentUser()"#,
            #"SELECT (COUNT(id)) entity = "defect""#, #"entity = "case" and id = "#,
            #"entity = "case" and updated >= "yesterday""#,
            #"entity = "case" and cf["Team"] = "a""#, #"entity = "case" and milestone is empty"#,
            #"entity = "case" and updated >= now("-9999999999999d")"#,
        ]
        for query in refused {
            let answer = sim.search(query)
            XCTAssertEqual(answer.status, 400, query)
            XCTAssertEqual(
                String(decoding: answer.body, as: UTF8.self), #"{"status":false,"errorMessage":"Query is invalid"}"#,
                query)
            XCTAssertNotNil(answer.header("X-Qase-Sim-Reason"), query)
        }
        XCTAssertEqual(sim.get("/search").status, 400, "no query")
    }

    func test_searchEnvelope_hasTotalAndEntitiesOnly_withEntityIds() {
        let answer = SimHarness().search(#"entity = "plan" and project = "DEMO""#, extra: "limit=2")
        XCTAssertEqual(answer.result.keys.sorted(), ["entities", "total"])
        XCTAssertEqual(answer.result["total"] as? Int, 3)
        XCTAssertEqual(answer.entities.map { $0["plan_id"] as? Int }, [1, 2])
        let defect = SimHarness().search(#"entity = "defect" and id = 9"#).entities
        XCTAssertEqual(defect.count, 2, "both projects without a project clause")
        XCTAssertNotNil(defect[0]["resolved"] as? String)
        XCTAssertNil(defect[0]["resolved_at"])
    }

    func test_currentUser_isTheTokensUser_inBothNamespaces() {
        let sim = SimHarness()
        let q =
            #"entity = "defect" and project = "DEMO" and assignee = currentUser()"#
            + " and isResolved is false order by id asc"
        XCTAssertEqual(sim.search(q).ids, [1, 5, 13])
        XCTAssertEqual(sim.search(q, as: "lead").ids, [2, 6, 14], "lead: [2, 6, 10, 14] but 10 is resolved")
        XCTAssertEqual(
            sim.search(#"entity = "defect" and project = "DEMO" and author = currentUser()"#).ids, [2, 5, 8, 11, 14])
        XCTAssertEqual(
            sim.search(#"entity = "defect" and project = "DEMO" and author = "Eve Engineer""#, as: "alice").ids,
            [2, 5, 8, 11, 14], "users by display name")
        XCTAssertEqual(
            sim.search(#"entity = "defect" and project = "DEMO" and assignee in ["eve engineer", "Alice Example"]"#)
                .ids,
            [1, 4, 5, 8, 9, 12, 13, 16])
        XCTAssertEqual(
            sim.search(#"entity = "defect" and project = "DEMO" and assignee = currentUser()"#, as: "jenkins").ids, [],
            "an app is nobody's assignee")
    }

    func test_notEqual_includesUnassigned_andOrderDesc() {
        let sim = SimHarness()
        let ids = sim.search(#"entity = "defect" and project = "DEMO" and assignee != currentUser() order by id desc"#)
            .ids
        XCTAssertEqual(ids, [16, 15, 14, 12, 11, 10, 8, 7, 6, 4, 3, 2])
    }

    func test_myCasesChangedByOthers_afterAColleaguesEdit() {
        let sim = SimHarness()
        let q =
            #"entity = "case" and project = "DEMO" and author = currentUser() and updated >= now("-1d")"#
            + " and updatedBy != currentUser()"
        XCTAssertEqual(sim.search(q).ids, [], "seeded updates are weeks old")
        XCTAssertEqual(
            sim.call("PATCH", "/case/DEMO/4", as: "alice", body: #"{"title": "Checkout totals"}"#).status, 200)
        XCTAssertEqual(sim.call("PATCH", "/case/DEMO/7", body: #"{"severity": 2}"#).status, 200, "my own edit")
        let hits = sim.search(q)
        XCTAssertEqual(hits.ids, [4])
        XCTAssertEqual(hits.entities[0]["updated_by"] as? Int, 2, "alice's author id")
        XCTAssertEqual(
            sim.search(#"entity = "case" and updatedBy = "Alice Example" and updated >= now("-1d")"#).ids, [4])
        sim.sim("POST", "clock", #"{"advance": 90000}"#)
        XCTAssertEqual(sim.search(q).ids, [], "a day and more later")
        XCTAssertEqual(sim.search(q.replacing(#"now("-1d")"#, with: #"now("-2d")"#)).ids, [4])
    }

    func test_epochMilliseconds_compareWithTheServerClock() throws {
        let sim = SimHarness()
        let updated = try XCTUnwrap(sim.get("/defect/DEMO/3").result["updated_at"] as? String)
        let seconds = try XCTUnwrap(QaseClock.parseZoneless(String(updated.prefix(19)).replacing("T", with: " ")))
        let base = #"entity = "defect" and project = "DEMO" and id <= 4 and updated"#
        XCTAssertEqual(sim.search("\(base) >= \(seconds * 1_000)").ids, [3, 4])
        XCTAssertEqual(sim.search("\(base) > \(seconds * 1_000)").ids, [4])
        XCTAssertEqual(sim.search("\(base) < \(seconds * 1_000)").ids, [1, 2])
    }

    func test_switches_noQQL_andNoDefectAssignee() {
        let paid = SimHarness { $0.switches.searchRefusal = 402 }
        XCTAssertEqual(paid.search(#"entity = "case""#).status, 402)
        let forbidden = SimHarness { $0.switches.searchRefusal = 403 }
        XCTAssertEqual(forbidden.search(#"entity = "case""#).status, 403)
        XCTAssertEqual(forbidden.get("/defect/DEMO").status, 200, "REST still works")
        let older = SimHarness { $0.switches.qqlDefectAssignee = false }
        let answer = older.search(#"entity = "defect" and assignee = currentUser()"#)
        XCTAssertEqual(answer.status, 400)
        XCTAssertEqual(answer.errorMessage, "Query is invalid")
        XCTAssertEqual(older.search(#"entity = "defect" and author = currentUser()"#).status, 200)
    }

    func test_otherEntities_runsAndResults() {
        let sim = SimHarness()
        XCTAssertEqual(sim.search(#"entity = "run" and project = "DEMO" and status = "In progress""#).ids, [3])
        let failed = sim.search(
            #"entity = "result" and project = "DEMO" and status = "failed" and ended >= now("-7d")"#)
        XCTAssertEqual(failed.entities.map { $0["case_id"] as? Int }, [7, 2, 12], "by run, then case")
        XCTAssertNotNil(failed.entities.first?["result_hash"])
        XCTAssertEqual(sim.search(#"entity = "requirement""#).result["total"] as? Int, 0)
    }
}
