import XCTest

@testable import QaseSimulator

/// The envelope, paging, filter names, and the variants that change shapes (ids as strings, extra fields).
final class PagingAndVariantTests: XCTestCase {
    func test_listEnvelope_totalFilteredCount_andDefaultLimit() {
        let sim = SimHarness { $0.cases = 25 }
        let page = sim.get("/case/DEMO")
        XCTAssertEqual(page.json["status"] as? Bool, true)
        XCTAssertEqual(page.result["total"] as? Int, 25)
        XCTAssertEqual(page.result["filtered"] as? Int, 25)
        XCTAssertEqual(page.result["count"] as? Int, 10, "limit defaults to 10")
        XCTAssertEqual(page.ids, Array(1...10))
        let last = sim.get("/case/DEMO?limit=10&offset=20")
        XCTAssertEqual(last.ids, [21, 22, 23, 24, 25])
        XCTAssertEqual(sim.get("/case/DEMO?limit=10&offset=30").ids, [])
        let filtered = sim.get("/case/DEMO?status=draft&limit=2")
        XCTAssertEqual(filtered.result["total"] as? Int, 25)
        XCTAssertEqual(filtered.result["filtered"] as? Int, 5, "status [actual×3, draft, deprecated] by (n-1) % 5")
        XCTAssertEqual(filtered.ids, [4, 9])
    }

    func test_limitAndOffsetOutOfRange_are400WithErrorFields() {
        let sim = SimHarness()
        for query in ["limit=0", "limit=101", "limit=ten", "offset=100001", "offset=-1"] {
            let answer = sim.get("/defect/DEMO?\(query)")
            XCTAssertEqual(answer.status, 400, query)
            XCTAssertEqual(answer.json["status"] as? Bool, false)
            XCTAssertEqual(answer.errorMessage, "Data is invalid.")
            let field = (answer.json["errorFields"] as? [[String: Any]])?.first?["field"] as? String
            XCTAssertEqual(field, String(query.prefix { $0 != "=" }), query)
        }
        XCTAssertEqual(sim.get("/defect/DEMO?offset=100000").status, 200)
        XCTAssertEqual(sim.search(#"entity = "case""#, extra: "limit=500").status, 400, "search pages alike")
    }

    func test_clampLimit_servesAtMost100() {
        let sim = SimHarness {
            $0.cases = 150
            $0.switches.clampLimit = true
        }
        XCTAssertEqual(sim.get("/case/DEMO?limit=500").entities.count, 100)
        XCTAssertEqual(sim.get("/case/DEMO?limit=0").entities.count, 1)
        XCTAssertEqual(sim.get("/case/DEMO?offset=100001").status, 400, "offset is still checked")
    }

    /// `endlessLists`: a lying total with one new item a page, or pages A, B, A, B, never the page before.
    func test_endlessLists_lyingTotalAndAlternatingPages() {
        let lying = SimHarness { $0.switches.endlessLists = .lyingTotal }
        let first = lying.get("/case/DEMO?limit=100&offset=0"), far = lying.get("/case/DEMO?limit=100&offset=5000")
        XCTAssertEqual(first.result["total"] as? Int, 2_000_000)
        XCTAssertEqual(first.result["filtered"] as? Int, 2_000_000)
        XCTAssertEqual(first.ids, [1])
        XCTAssertEqual(far.ids, [5001], "a new id on every page")
        let alternating = SimHarness { $0.switches.endlessLists = .alternating }
        let pages = [0, 10, 20, 30].map { alternating.get("/case/DEMO?limit=10&offset=\($0)").ids }
        XCTAssertEqual(pages[0], Array(1...10))
        XCTAssertEqual(pages[1], Array(1_000_001...1_000_010))
        XCTAssertEqual(pages[2], pages[0])
        XCTAssertEqual(pages[3], pages[1])
        XCTAssertEqual(alternating.get("/case/DEMO?limit=10").result["total"] as? Int, 2_000_000)
    }

    func test_filterNames_flatBracketedAndEither() {
        let both = SimHarness()
        XCTAssertEqual(both.get("/defect/DEMO?status=resolved&limit=100").ids, [9, 10, 11, 12])
        XCTAssertEqual(both.get("/defect/DEMO?filters%5Bstatus%5D=resolved&limit=100").ids, [9, 10, 11, 12])
        XCTAssertEqual(both.get("/defect/DEMO?filters[status]=resolved&limit=100").ids, [9, 10, 11, 12])
        let bracketed = SimHarness { $0.switches.filterNames = .bracketed }
        XCTAssertEqual(bracketed.get("/defect/DEMO?status=resolved&limit=100").ids.count, 16, "flat names ignored")
        XCTAssertEqual(bracketed.get("/defect/DEMO?filters[status]=resolved&limit=100").ids, [9, 10, 11, 12])
        let flat = SimHarness { $0.switches.filterNames = .flat }
        XCTAssertEqual(flat.get("/defect/DEMO?filters[status]=resolved&limit=100").ids.count, 16)
        XCTAssertEqual(both.get("/defect/DEMO?status=closed").status, 400)
    }

    func test_numbersAsStrings_idsAndEnums_notCounts() {
        let sim = SimHarness { $0.switches.numbers = .string }
        let page = sim.get("/case/DEMO?limit=2")
        XCTAssertEqual(page.result["total"] as? Int, 12, "counts stay integers")
        let first = page.entities[0]
        for key in ["id", "author_id", "severity", "priority", "status", "suite_id"] {
            XCTAssertTrue(first[key] is String, key)
        }
        XCTAssertTrue(first["milestone_id"] is NSNull)
        let plan = sim.get("/plan/DEMO/1").result
        XCTAssertEqual((plan["cases"] as? [[String: Any]])?.first?["assignee_id"] as? String, "2")
        XCTAssertEqual(plan["cases_count"] as? Int, 4)
        XCTAssertEqual(sim.get("/user/2").result["status"] as? String, "1")
    }

    func test_numbersMixed_oddIdsStrings_evenIntegers_andSwitchBack() {
        let sim = SimHarness { $0.switches.numbers = .mixed }
        let defects = sim.get("/defect/DEMO?limit=2").entities
        XCTAssertEqual(defects[0]["id"] as? String, "1")
        XCTAssertEqual(defects[0]["author_id"] as? String, "2")
        XCTAssertEqual(defects[1]["id"] as? Int, 2)
        XCTAssertEqual(defects[1]["author_id"] as? Int, 3)
        sim.sim("POST", "switches", #"{"numbers": "int"}"#)
        XCTAssertEqual(sim.get("/defect/DEMO?limit=1").entities[0]["id"] as? Int, 1)
    }

    func test_defectEnumsAsInts_anIntWhereTheSpecHasAString() {
        let sim = SimHarness { $0.switches.defectEnumsAsInts = true }
        let defect = sim.get("/defect/DEMO/6").result
        XCTAssertEqual(defect["severity"] as? Int, 6, "trivial")
        XCTAssertEqual(defect["status"] as? Int, 1, "in_progress")
        let found = sim.search(#"entity = "defect" and project = "DEMO" and id = 9"#).entities.first
        XCTAssertEqual(found?["status"] as? Int, 2, "resolved")
        XCTAssertEqual(
            sim.get("/defect/DEMO?status=resolved&limit=100").ids, [9, 10, 11, 12], "filters still take names")
    }

    func test_extraFields_inEveryObject_butNotInMaps() {
        let sim = SimHarness { $0.switches.extraFields = true }
        let answer = sim.get("/run/DEMO?limit=1")
        XCTAssertNotNil(answer.json["sim_future_flag"])
        XCTAssertNotNil(answer.result["sim_future_object"])
        let run = answer.entities[0]
        XCTAssertNotNil(run["sim_future_text"])
        let stats = run["stats"] as? [String: Any]
        XCTAssertNotNil(stats?["sim_future_flag"])
        XCTAssertNil((stats?["statuses"] as? [String: Any])?["sim_future_flag"], "a map of counts stays a map")
        XCTAssertNotNil((sim.get("/review/DEMO/1").result["reviewers"] as? [[String: Any]])?.first?["sim_future_text"])
    }

    func test_basePath_dedicatedHost() {
        let sim = SimHarness { $0.basePath = "/api/v1" }
        XCTAssertEqual(sim.get("/project").status, 200)
        XCTAssertEqual(sim.raw("GET", "/v1/project", token: "qase-sim-engineer-token").status, 404)
        XCTAssertEqual(sim.stats["requests"] as? Int, 2)
    }

    func test_unknownRoutesAndMethods() {
        let sim = SimHarness()
        XCTAssertEqual(sim.get("/milestone/DEMO").status, 404)
        XCTAssertEqual(sim.call("PUT", "/case/DEMO/1").status, 405)
        XCTAssertEqual(sim.get("/case/DEMO/abc").status, 400)
        XCTAssertEqual(sim.get("/case/DEMO/99").errorMessage, "Test case not found")
    }
}
