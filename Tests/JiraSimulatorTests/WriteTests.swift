import XCTest

@testable import JiraSimulator

/// Colleagues' writes record histories by the acting user; moves, deletes and access through `/sim/`.
final class WriteTests: XCTestCase {
    private func lastHistory(_ sim: SimHarness, _ key: String) -> [String: Any]? {
        (sim.get("/issue/\(key)?expand=changelog").json.at("changelog.histories") as? [[String: Any]])?.last
    }

    func test_assign_recordsAccountIds_andWatching() {
        let sim = SimHarness()
        XCTAssertEqual(sim.call("PUT", "/issue/WEB-2/assignee", as: "alice", body: #"{"accountId":"acc-engineer"}"#)
            .status, 204)
        let history = lastHistory(sim, "WEB-2")
        XCTAssertEqual(history?.at("author.accountId") as? String, "acc-alice")
        let item = (history?["items"] as? [[String: Any]])?.first
        XCTAssertEqual(item?["field"] as? String, "assignee")
        XCTAssertEqual(item?["from"] as? String, "acc-alice")
        XCTAssertEqual(item?["to"] as? String, "acc-engineer")
        XCTAssertEqual(item?["toString"] as? String, "Eve Engineer")
        XCTAssertEqual(sim.search("watcher = currentUser() AND key = WEB-2").keys, ["WEB-2"], "autowatch")
        XCTAssertEqual(sim.search("assignee CHANGED TO currentUser() BY \"acc-alice\" AFTER -5m").keys, ["WEB-2"])
        XCTAssertEqual(sim.call("PUT", "/issue/WEB-2/assignee", body: #"{"accountId":null}"#).status, 204)
        XCTAssertEqual(sim.search("assignee CHANGED FROM currentUser() AFTER -5m").keys, ["WEB-2"])
        XCTAssertTrue(sim.get("/issue/WEB-2").json.at("fields.assignee") is NSNull)
        XCTAssertEqual(sim.call("PUT", "/issue/WEB-2/assignee", body: #"{"accountId":"acc-nobody"}"#).status, 400)
    }

    func test_dataCenterAssign_usesNames() {
        let sim = SimHarness { $0.flavor = .dc }
        XCTAssertEqual(
            sim.call("PUT", "/issue/WEB-2/assignee", as: "lead", version: "2", body: #"{"name":"engineer"}"#).status, 204)
        let histories = sim.get("/issue/WEB-2?expand=changelog", version: "2").json.at("changelog.histories")
        let item = ((histories as? [[String: Any]])?.last?["items"] as? [[String: Any]])?.first
        XCTAssertEqual(item?["from"] as? String, "alice")
        XCTAssertEqual(item?["to"] as? String, "engineer")
        XCTAssertEqual((histories as? [[String: Any]])?.last?.at("author.key") as? String, "JIRAUSER10003")
    }

    func test_transitionEditCommentCreate() {
        let sim = SimHarness()
        let before = sim.get("/issue/WEB-1").json.at("fields.updated") as? String
        XCTAssertEqual(sim.call("POST", "/issue/WEB-1/transitions", as: "lead",
            body: #"{"transition":{"id":"31"}}"#).status, 204)
        XCTAssertEqual(sim.get("/issue/WEB-1").json.at("fields.status.name") as? String, "Done")
        XCTAssertNotEqual(sim.get("/issue/WEB-1").json.at("fields.updated") as? String, before)
        XCTAssertEqual(sim.call("POST", "/issue/WEB-1/transitions", body: #"{"transition":{"id":"31"}}"#).status, 400)
        XCTAssertEqual(sim.call("PUT", "/issue/WEB-1", as: "alice",
            body: #"{"fields":{"summary":"Renamed","priority":{"name":"Low"},"labels":["ui"]}}"#).status, 204)
        let fields = ((lastHistory(sim, "WEB-1")?["items"] as? [[String: Any]]) ?? []).compactMap { $0["field"] as? String }
        XCTAssertEqual(fields, ["summary", "priority", "labels"])
        XCTAssertEqual(sim.call("PUT", "/issue/WEB-1", body: #"{"fields":{"colour":"red"}}"#).status, 400)
        let comment = sim.call("POST", "/issue/WEB-1/comment", as: "alice",
            body: #"{"body":{"type":"doc","version":1,"content":[{"type":"paragraph","content":[{"type":"text","text":"Hi"}]}]}}"#)
        XCTAssertEqual(comment.status, 201)
        XCTAssertEqual(sim.get("/issue/WEB-1/comment?orderBy=-created", version: "2").json
            .at("comments") as? [[String: Any]] == nil, false)
        let created = sim.call("POST", "/issue", as: "alice",
            body: #"{"fields":{"project":{"key":"OPS"},"summary":"New","issuetype":{"name":"Bug"},"assignee":{"accountId":"acc-engineer"}}}"#)
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(created.json["key"] as? String, "OPS-13")
        XCTAssertEqual(sim.search("watcher = currentUser() AND key = OPS-13").keys, ["OPS-13"])
    }

    func test_move_keepsId_oldKeyResolves_recordsKeyAndProject() {
        let sim = SimHarness()
        XCTAssertEqual(sim.sim("POST", "move", #"{"issue":"WEB-3","project":"OPS","as":"alice"}"#).json["key"] as? String,
            "OPS-13")
        let moved = sim.get("/issue/WEB-3").json
        XCTAssertEqual(moved["key"] as? String, "OPS-13")
        XCTAssertEqual(moved["id"] as? String, "10003")
        let items = (lastHistory(sim, "OPS-13")?["items"] as? [[String: Any]]) ?? []
        XCTAssertEqual(items.compactMap { $0["field"] as? String }, ["Key", "project"])
        XCTAssertEqual(items.first?["fromString"] as? String, "WEB-3")
        XCTAssertEqual(sim.search("key = WEB-3").keys, ["OPS-13"])
        sim.sim("POST", "delete", #"{"issue":"OPS-13"}"#)
        XCTAssertEqual(sim.get("/issue/10003").status, 404)
        XCTAssertEqual(sim.get("/issue/WEB-3").status, 404)
    }

    func test_access_hidesAProject() {
        let sim = SimHarness()
        sim.sim("POST", "access", #"{"handle":"engineer","project":"OPS","allowed":false}"#)
        XCTAssertEqual(sim.get("/issue/OPS-1").status, 404)
        XCTAssertEqual(sim.search("project = OPS").status, 400)
        XCTAssertEqual(sim.search("assignee = currentUser()").keys.allSatisfy { $0.hasPrefix("WEB-") }, true)
        sim.sim("POST", "access", #"{"handle":"engineer","project":"OPS","allowed":true}"#)
        XCTAssertEqual(sim.get("/issue/OPS-1").status, 200)
    }
}
