import SimulatorKit
import XCTest

@testable import JiraSimulator

/// The bulk changelog, the per-issue changelog, faults and the shape switches.
final class ChangelogAndFaultTests: XCTestCase {
    func test_bulkfetch_oldestFirst_paged_andStrictBody() {
        let sim = SimHarness()
        sim.call("PUT", "/issue/WEB-3/assignee", as: "alice", body: #"{"accountId":"acc-engineer"}"#)
        var body = #"{"issueIdsOrKeys":["WEB-3","10002","WEB-1"],"maxResults":2}"#
        var answer = sim.call("POST", "/changelog/bulkfetch", body: body)
        var ids = (answer.json["issueChangeLogs"] as? [[String: Any]] ?? []).compactMap { $0["issueId"] as? String }
        XCTAssertEqual(ids, ["10002", "10003"], "WEB-1 is To Do: no history")
        let token = answer.json["nextPageToken"] as? String
        XCTAssertNotNil(token)
        body = #"{"issueIdsOrKeys":["WEB-3","10002","WEB-1"],"maxResults":2,"nextPageToken":"\#(token ?? "")"}"#
        answer = sim.call("POST", "/changelog/bulkfetch", body: body)
        ids = (answer.json["issueChangeLogs"] as? [[String: Any]] ?? []).compactMap { $0["issueId"] as? String }
        XCTAssertEqual(ids, ["10003"])
        XCTAssertNil(answer.json["nextPageToken"])
        let filtered = sim.call("POST", "/changelog/bulkfetch", body: #"{"issueIdsOrKeys":["WEB-3"],"fieldIds":["assignee"]}"#)
        XCTAssertEqual(((filtered.json["issueChangeLogs"] as? [[String: Any]])?.first?["changeHistories"] as? [Any])?.count, 1)
        XCTAssertEqual(sim.call("POST", "/changelog/bulkfetch", body: #"{"issueIdsOrKeys":["WEB-3"],"x":1}"#).status, 400)
        XCTAssertEqual(sim.call("POST", "/changelog/bulkfetch", body: #"{"issueIdsOrKeys":[]}"#).status, 400)
        let many = "[" + (1...1001).map { "\"\($0)\"" }.joined(separator: ",") + "]"
        XCTAssertEqual(sim.call("POST", "/changelog/bulkfetch", body: #"{"issueIdsOrKeys":\#(many)}"#).status, 400)
    }

    func test_epochTimestamps_andEmbeddedLimit() {
        let sim = SimHarness { $0.switches.timestamps = .epoch; $0.switches.embeddedLimit = 1 }
        let logs = sim.call("POST", "/changelog/bulkfetch", body: #"{"issueIdsOrKeys":["WEB-2"]}"#).json
        let history = ((logs["issueChangeLogs"] as? [[String: Any]])?.first?["changeHistories"] as? [[String: Any]])?.first
        XCTAssertTrue(history?["created"] is Int)
        sim.call("PUT", "/issue/WEB-2/assignee", as: "alice", body: #"{"accountId":"acc-engineer"}"#)
        let issue = sim.get("/issue/WEB-2?expand=changelog").json
        XCTAssertEqual(issue.at("changelog.total") as? Int, 2)
        XCTAssertEqual((issue.at("changelog.histories") as? [Any])?.count, 1)
        XCTAssertEqual(sim.get("/issue/WEB-2/changelog?startAt=1").json["total"] as? Int, 2)
        sim.sim("POST", "switches", #"{"timestamps":"plain"}"#)
        XCTAssertEqual((sim.get("/issue/WEB-2").json.at("fields.created") as? String)?.contains("."), false)
        XCTAssertEqual(sim.raw("POST", "/sim/switches", authorization: nil, body: #"{"colour":1}"#).status, 400)
    }

    func test_faults() {
        let sim = SimHarness()
        sim.sim("POST", "faults", #"{"route":"GET /search/jql","kind":"rateLimit","count":1,"retryAfter":7}"#)
        let limited = sim.search("project = WEB")
        XCTAssertEqual(limited.status, 429)
        XCTAssertEqual(limited.header("Retry-After"), "7")
        XCTAssertNotNil(limited.header("X-RateLimit-Reset"))
        XCTAssertEqual(limited.header("RateLimit-Reason"), "jira-burst-based")
        XCTAssertEqual(sim.search("project = WEB").status, 200, "one use only")
        XCTAssertEqual(sim.stats["rateLimited"] as? Int, 1)
        sim.sim("POST", "faults", #"{"route":"GET /issue/{idOrKey}","kind":"unavailable","count":1}"#)
        let unavailable = sim.get("/issue/WEB-1")
        XCTAssertEqual(unavailable.status, 503)
        XCTAssertNotNil(unavailable.header("Retry-After"))
        sim.sim("POST", "faults", #"{"route":"","kind":"status","count":1,"status":502}"#)
        XCTAssertEqual(sim.get("/myself").status, 502)
        sim.sim("POST", "faults", #"{"route":"GET /myself","kind":"html","count":1}"#)
        XCTAssertEqual(sim.get("/myself").header("Content-Type"), "text/html;charset=UTF-8")
        for (kind, delivery) in [("truncated", Delivery.truncated), ("hang", .never), ("reset", .reset)] {
            sim.sim("POST", "faults", #"{"route":"GET /myself","kind":"\#(kind)","count":1}"#)
            XCTAssertEqual(sim.get("/myself").delivery, delivery)
        }
    }

    func test_scale_aThousandIssuesPerProject_pageQuickly() {
        let sim = SimHarness { $0.issues = 1000 }
        let start = ContinuousClock.now
        let page = sim.search("watcher = currentUser() OR assignee = currentUser() ORDER BY updated DESC",
            "&fields=summary,status,assignee,updated&maxResults=100")
        XCTAssertEqual(page.issues.count, 100)
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
        let keys = (1...1000).map { "WEB-\($0)" }.joined(separator: ",")
        XCTAssertEqual(sim.search("key in (\(keys))", "&maxResults=5000").issues.count, 1000)
    }
}
