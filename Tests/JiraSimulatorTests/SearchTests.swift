import XCTest

@testable import JiraSimulator

/// `search/jql` (Cloud), `search` (Data Center) and the JQL subset.
final class SearchTests: XCTestCase {
    func test_pollQuery_findsMineAndWatched_newestFirst() {
        let sim = SimHarness()
        let jql = "(assignee = currentUser() OR reporter = currentUser() OR watcher = currentUser() OR assignee "
            + "CHANGED FROM currentUser() AFTER -15m) AND updated >= -15d AND (project = WEB) ORDER BY updated DESC"
        let answer = sim.search(jql, "&fields=summary&maxResults=100")
        XCTAssertEqual(answer.keys, ["WEB-11", "WEB-10", "WEB-9", "WEB-8", "WEB-5", "WEB-2", "WEB-1"])
        XCTAssertEqual(answer.json["isLast"] as? Bool, true)
        XCTAssertNil(answer.json["total"])
        XCTAssertEqual(sim.search(jql.replacing("-15d", with: "-15m")).keys, [], "nothing changed lately")
    }

    func test_defaultFieldsAreIdOnly_andPagingByToken() {
        let sim = SimHarness()
        var page = sim.search("project = WEB ORDER BY key ASC", "&maxResults=5")
        XCTAssertEqual(page.issues.first?["fields"] as? [String: Int], [:])
        var keys = page.keys
        while let token = page.json["nextPageToken"] as? String {
            page = sim.search("project = WEB ORDER BY key ASC", "&maxResults=5&nextPageToken=\(token)")
            keys += page.keys
        }
        XCTAssertEqual(keys, (1...12).map { "WEB-\($0)" })
        XCTAssertEqual(sim.search("project = OPS", "&nextPageToken=Zm9v").status, 400)
    }

    func test_unboundedAndUnknown_areRefused_andOldSearchIsGone() {
        let sim = SimHarness()
        XCTAssertEqual(sim.search("").status, 400)
        XCTAssertEqual(sim.search("ORDER BY key DESC").errorMessages.first?.hasPrefix("Unbounded JQL"), true)
        XCTAssertEqual(sim.search("colour = red").errorMessages,
            ["Field 'colour' does not exist or you do not have permission to view it."])
        XCTAssertEqual(sim.search("project = NOPE").errorMessages,
            ["The value 'NOPE' does not exist for the field 'project'."])
        let gone = sim.get("/search?jql=project%3DWEB")
        XCTAssertEqual(gone.status, 410)
        XCTAssertEqual(gone.errorMessages.first?.contains("CHANGE-2046"), true)
        XCTAssertEqual(sim.call("POST", "/search", body: "{}").status, 410)
    }

    func test_jqlSubset() {
        let sim = SimHarness()
        XCTAssertEqual(sim.search("key in (WEB-1, web-2) ORDER BY key").keys, ["WEB-1", "WEB-2"])
        XCTAssertEqual(sim.search("id in (10003, 110001) ORDER BY id").keys, ["WEB-3", "OPS-1"])
        XCTAssertEqual(sim.search("project = WEB AND statusCategory != Done ORDER BY key").keys.count, 8)
        XCTAssertEqual(sim.search("project = WEB AND assignee != currentUser() ORDER BY key").keys,
            ["WEB-2", "WEB-4", "WEB-6", "WEB-8", "WEB-10", "WEB-12"], "!= leaves unassigned issues out")
        XCTAssertEqual(sim.search("project = WEB AND assignee is EMPTY ORDER BY key").keys, ["WEB-3", "WEB-7", "WEB-11"])
        XCTAssertEqual(sim.search("project = WEB AND resolution is EMPTY AND labels = backend ORDER BY key").keys,
            ["WEB-2", "WEB-4", "WEB-8", "WEB-10"])
        XCTAssertEqual(sim.search("project = WEB AND NOT (priority in (Medium, High)) ORDER BY key").keys.count, 6)
        XCTAssertEqual(sim.search("assignee = \"acc-alice\" AND project = OPS AND status = \"In Progress\"").keys,
            ["OPS-2"])
        XCTAssertEqual(sim.search("key = WEB-404").status, 400, "Jira refuses a key it cannot find")
        XCTAssertEqual(sim.search("project = WEB AND created >= \"2000-01-01 00:00\"").keys.count, 12)
    }

    func test_fieldsSelection_andMaxResultsClamping() {
        let sim = SimHarness { $0.issues = 300 }
        XCTAssertEqual(sim.search("project = WEB", "&fields=summary&maxResults=500").issues.count, 100)
        XCTAssertEqual(sim.search("project = WEB", "&maxResults=500").issues.count, 300, "id only: up to 5000")
        let fields = sim.search("key = WEB-3", "&fields=*navigable").issues.first?["fields"] as? [String: Any]
        XCTAssertNil(fields?["comment"])
        XCTAssertNotNil(fields?["summary"])
        let two = sim.search("key = WEB-3", "&fields=summary&fields=status").issues.first?["fields"] as? [String: Any]
        XCTAssertEqual(two?.keys.sorted(), ["status", "summary"])
        sim.sim("POST", "switches", #"{"maxResults": 7}"#)
        XCTAssertEqual(sim.search("project = WEB", "&maxResults=50").issues.count, 7)
    }

    func test_searchLag_hidesFreshChanges_untilReconciled() {
        let sim = SimHarness { $0.switches.searchLag = 60 }
        XCTAssertEqual(sim.call("PUT", "/issue/WEB-3/assignee", as: "alice", body: #"{"accountId":"acc-engineer"}"#)
            .status, 204)
        XCTAssertEqual(sim.search("assignee = currentUser() AND key = WEB-3").keys, [])
        XCTAssertEqual(sim.search("assignee = currentUser() AND key = WEB-3", "&reconcileIssues=10003").keys, ["WEB-3"])
        let post = sim.call("POST", "/search/jql",
            body: #"{"jql":"key = WEB-3","reconcileIssues":[10003],"fields":["assignee"]}"#)
        XCTAssertEqual(post.keys, ["WEB-3"])
        sim.sim("POST", "clock", #"{"advance": 61}"#)
        XCTAssertEqual(sim.search("assignee = currentUser() AND key = WEB-3").keys, ["WEB-3"])
    }

    func test_dataCenter_offsetPaging_expandChangelog_noCloudRoutes() {
        let sim = SimHarness { $0.flavor = .dc; $0.issues = 30 }
        let page = sim.search("project = OPS ORDER BY key", "&startAt=25&maxResults=10&expand=changelog")
        XCTAssertEqual(page.json["total"] as? Int, 30)
        XCTAssertEqual(page.keys, (26...30).map { "OPS-\($0)" })
        XCTAssertNotNil(page.issues.first?["changelog"])
        XCTAssertEqual(page.issues.first?.at("fields.assignee.name") as? String, "alice", "navigable by default")
        XCTAssertEqual(sim.search("project = OPS", "&startAt=10001").status, 500)
        XCTAssertEqual(sim.search("", "&maxResults=2000").json["maxResults"] as? Int, 1000)
        XCTAssertEqual(sim.get("/search/jql?jql=project%3DWEB", version: "2").status, 404)
        XCTAssertEqual(sim.call("POST", "/changelog/bulkfetch", version: "2", body: "{}").status, 404)
    }
}
