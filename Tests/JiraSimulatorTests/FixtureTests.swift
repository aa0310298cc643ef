import XCTest

@testable import JiraSimulator

/// The seeded issues follow docs/jira-sim.md's rules, in both flavours' shapes.
final class FixtureTests: XCTestCase {
    func test_issueRules_cloud() {
        let sim = SimHarness()
        let issue = sim.get("/issue/WEB-4?expand=changelog").json
        XCTAssertEqual(issue["id"] as? String, "10004")
        XCTAssertEqual(issue.at("fields.summary") as? String, "Issue 4 of WEB & <b>\"Grüße\"</b> — naïve café")
        XCTAssertEqual(issue.at("fields.assignee.accountId") as? String, "acc-lead")
        XCTAssertEqual(issue.at("fields.reporter.accountId") as? String, "acc-alice")
        XCTAssertEqual(issue.at("fields.status.name") as? String, "To Do")
        XCTAssertEqual(issue.at("fields.status.statusCategory.key") as? String, "new")
        XCTAssertEqual(issue.at("fields.priority.name") as? String, "Highest")
        XCTAssertEqual(issue.at("fields.labels") as? [String], ["backend"])
        XCTAssertEqual(issue.at("changelog.total") as? Int, 0, "To Do has no history")
        XCTAssertEqual(issue.at("fields.description.type") as? String, "doc", "ADF under /3")
        let ops = sim.get("/issue/OPS-3?expand=changelog", version: "2").json
        XCTAssertEqual(ops["id"] as? String, "110003")
        XCTAssertTrue(ops.at("fields.assignee") is NSNull)
        XCTAssertEqual(ops.at("fields.description") as? String, "What issue 3 of OPS is about.", "a string under /2")
        let history = (ops.at("changelog.histories") as? [[String: Any]])?.first
        XCTAssertEqual(history?.at("author.accountId") as? String, "acc-lead")
        let item = (history?["items"] as? [[String: Any]])?.first
        XCTAssertEqual(item?["fromString"] as? String, "To Do")
        XCTAssertEqual(item?["toString"] as? String, "Done")
        XCTAssertEqual((ops.at("fields.comment.comments") as? [[String: Any]])?.first?.at("body") as? String,
            "Looks good to me.")
        XCTAssertEqual(ops.at("fields.watches.watchCount") as? Int, 1, "lead reports it, nobody is assigned")
        XCTAssertEqual(sim.get("/issue/WEB-5").json.at("fields.watches.isWatching") as? Bool, true, "n % 5 = 0")
        XCTAssertEqual(sim.get("/issue/WEB-99").errorMessages,
            ["Issue does not exist or you do not have permission to see it."])
    }

    func test_people_andAuthentication() {
        let cloud = SimHarness()
        let automation = cloud.get("/myself", as: "automation").json
        XCTAssertEqual(automation["accountType"] as? String, "app")
        XCTAssertNil(automation["emailAddress"])
        XCTAssertEqual(cloud.get("/myself").json["timeZone"] as? String, "Europe/Berlin")
        let refused = cloud.raw("GET", "/rest/api/3/myself", authorization: "Basic ZW5naW5lZXJAZXhhbXBsZS5jb206eA==")
        XCTAssertEqual(refused.status, 401)
        XCTAssertEqual(refused.errorMessages.first?.hasPrefix("You are not authenticated."), true)
        XCTAssertEqual(cloud.raw("GET", "/rest/api/2/serverInfo", authorization: nil).json["deploymentType"] as? String,
            "Cloud")
        let dc = SimHarness { $0.flavor = .dc; $0.contextPath = "/jira" }
        let me = dc.get("/myself", version: "2").json
        XCTAssertEqual(me["key"] as? String, "JIRAUSER10001")
        XCTAssertEqual(me["name"] as? String, "engineer")
        let basic = "Basic " + Data("alice:alice-password".utf8).base64EncodedString()
        XCTAssertEqual(dc.raw("GET", "/jira/rest/api/2/myself", authorization: basic).json["name"] as? String, "alice")
        XCTAssertEqual(dc.get("/myself", version: "3").status, 404, "Data Center has no API 3")
        XCTAssertEqual(dc.raw("GET", "/rest/api/2/myself", authorization: dc.authorization("engineer")).status, 404)
        XCTAssertEqual(
            dc.raw("GET", "/jira/rest/api/2/serverInfo", authorization: nil).json["deploymentType"] as? String, "Server")
    }

    func test_expiredToken_answers401_andStatsCountByUser() {
        let sim = SimHarness { $0.switches.expiredToken = "alice" }
        XCTAssertEqual(sim.get("/myself", as: "alice").status, 401)
        XCTAssertEqual(sim.get("/myself").status, 200)
        XCTAssertEqual(sim.stats.at("requestsByUser.engineer") as? Int, 1)
        XCTAssertEqual(sim.stats.at("requestsByRoute") as? [String: Int], ["GET /myself": 2])
        XCTAssertEqual(sim.stats["unauthorized"] as? Int, 1)
    }
}
