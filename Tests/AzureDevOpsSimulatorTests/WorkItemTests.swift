import Foundation
import XCTest

/// WIQL, the batch read, updates and comments over HTTP, against the seeded fixture (12 work items per project:
/// Web 1–12, Platform 13–24, Secret 25–36; engineer cannot read Secret).
final class WorkItemTests: XCTestCase {
    func testConnectionDataAndReadableProjects() async throws {
        let sim = try LiveServer()
        let me = try await sim.call("GET", "/_apis/connectionData")
        XCTAssertEqual(me.status, 200)
        XCTAssertEqual(me.json.at("authenticatedUser.id") as? String, Fixture.engineer)
        XCTAssertEqual(me.json.at("authenticatedUser.providerDisplayName") as? String, "Eve Engineer")
        XCTAssertEqual(me.json["deploymentType"] as? String, "hosted")
        XCTAssertEqual(me.header("Content-Type"), "application/json; charset=utf-8; api-version=7.1")
        let projects = try await sim.call("GET", "/_apis/projects")
        XCTAssertEqual(projects.values.compactMap { $0["name"] as? String }, ["Web", "Platform"])
        XCTAssertEqual(projects.json["count"] as? Int, 2)
        let alice = try await sim.call("GET", "/_apis/projects", as: "alice")
        XCTAssertEqual(alice.values.count, 3)
    }

    func testApiVersionIsRequiredAndBounded() async throws {
        let sim = try LiveServer()
        let missing = try await sim.call("GET", "/_apis/connectionData", version: nil)
        XCTAssertEqual(missing.status, 400)
        XCTAssertEqual(missing.typeKey, "VssVersionNotSpecifiedException")
        let inAccept = try await sim.call("GET", "/_apis/connectionData", version: nil,
            headers: ["Accept": "application/json;api-version=7.1-preview.1"])
        XCTAssertEqual(inAccept.status, 200)
        let tooNew = try await sim.call("GET", "/_apis/connectionData", version: "7.2")
        XCTAssertEqual(tooNew.status, 400)
        XCTAssertEqual(tooNew.typeKey, "VssVersionOutOfRangeException")
        XCTAssertTrue(tooNew.message.contains("The latest REST API version this server supports is 7.1"), tooNew.message)
        try await sim.sim("POST", "switches", ["maxApiVersion": "7.0"])
        let rtw = try await sim.call("GET", "/_apis/connectionData")
        XCTAssertEqual(rtw.typeKey, "VssVersionOutOfRangeException")
        let older = try await sim.call("GET", "/_apis/connectionData", version: "7.0")
        XCTAssertEqual(older.status, 200)
    }

    func testWiqlAnswersIdsOfMyWorkItemsInReadableProjects() async throws {
        let sim = try LiveServer()
        let mine = try await sim.wiql("SELECT [System.Id], [System.Title] FROM WorkItems WHERE [System.AssignedTo] = @Me "
            + "ORDER BY [System.Id]")
        XCTAssertEqual(mine.status, 200, mine.text)
        XCTAssertEqual(sim.ids(mine), [1, 5, 9, 13, 17, 21])
        let first = try XCTUnwrap((mine.json["workItems"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(first.keys), ["id", "url"])
        XCTAssertEqual((mine.json["columns"] as? [[String: Any]])?.compactMap { $0["referenceName"] as? String },
            ["System.Id", "System.Title"])
        XCTAssertNotNil(mine.json["asOf"] as? String)
        let inWeb = try await sim.wiql("SELECT [System.Id] FROM WorkItems WHERE [System.TeamProject] = @project "
            + "AND [System.AssignedTo] = @Me ORDER BY [System.Id] DESC", project: "Web")
        XCTAssertEqual(sim.ids(inWeb), [9, 5, 1])
        let unassigned = try await sim.wiql("SELECT [System.Id] FROM WorkItems WHERE [System.AssignedTo] = '' "
            + "AND [System.TeamProject] IN ('Web')")
        XCTAssertEqual(sim.ids(unassigned), [3, 7, 11])
        let bad = try await sim.wiql("SELECT [System.Id] FROM WorkItems WHERE [System.Nope] = 1")
        XCTAssertEqual(bad.status, 400)
        XCTAssertTrue(bad.message.hasPrefix("TF51005"), bad.message)
    }

    func testWiqlDatePrecisionAndChangedSince() async throws {
        let sim = try LiveServer()
        let start = try await sim.wiql("SELECT [System.Id] FROM WorkItems")
        let mark = try XCTUnwrap(start.json["asOf"] as? String)
        let since = "SELECT [System.Id] FROM WorkItems WHERE [System.ChangedDate] > '\(mark)'"
        let refused = try await sim.wiql(since)
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue(refused.message.contains("You cannot supply a time with the date"), refused.message)
        let none = try await sim.wiql(since, extra: "?timePrecision=true")
        XCTAssertEqual(sim.ids(none), [])
        try await sim.sim("POST", "clock", ["advance": 2])
        try await sim.act("alice", "set", ["workItem": 6, "field": "State", "value": "Active"])
        let changed = try await sim.wiql(since, extra: "?timePrecision=true")
        XCTAssertEqual(sim.ids(changed), [6])
        let today = try await sim.wiql("SELECT [System.Id] FROM WorkItems WHERE [System.ChangedDate] >= @Today - 1")
        XCTAssertEqual(sim.ids(today), [6])
    }

    func testWiqlLimitAndTop() async throws {
        let sim = try LiveServer()
        try await sim.sim("POST", "switches", ["wiqlLimit": 5])
        let refused = try await sim.wiql("SELECT [System.Id] FROM WorkItems")
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue(refused.message.hasPrefix("VS402337: The number of work items returned exceeds the size limit of 5"),
            refused.message)
        let top = try await sim.wiql("SELECT [System.Id] FROM WorkItems", extra: "?$top=3")
        XCTAssertEqual(sim.ids(top), [1, 2, 3])
    }

    func testWiqlEverAndFollows() async throws {
        let sim = try LiveServer()
        try await sim.act("alice", "unassign", ["workItem": 1])
        let now = try await sim.wiql("SELECT [System.Id] FROM WorkItems WHERE [System.AssignedTo] = @Me "
            + "AND [System.TeamProject] = 'Web'")
        XCTAssertEqual(sim.ids(now), [5, 9])
        let ever = try await sim.wiql("SELECT [System.Id] FROM WorkItems WHERE [System.AssignedTo] EVER @Me "
            + "AND [System.TeamProject] = 'Web'")
        XCTAssertEqual(sim.ids(ever), [1, 5, 9])
        let followed = try await sim.wiql("SELECT [System.Id] FROM WorkItems WHERE [System.Id] IN (@Follows)")
        XCTAssertEqual(sim.ids(followed), [3, 9, 15, 21])
        try await sim.act("engineer", "follow", ["workItem": 2])
        let both = try await sim.wiql("SELECT [System.Id] FROM WorkItems WHERE [System.Id] IN (@Follows) "
            + "AND ([System.CreatedBy] = @Me OR [System.Id] < 5)")
        XCTAssertEqual(sim.ids(both), [2, 3])
    }

    func testBatchLimitErrorPolicyAndFields() async throws {
        let sim = try LiveServer()
        let tooMany = try await sim.call("POST", "/_apis/wit/workitemsbatch", body: ["ids": Array(1...201)])
        XCTAssertEqual(tooMany.status, 400)
        XCTAssertTrue(tooMany.message.hasPrefix("VS403474: You requested 201 work items which exceeds the limit of 200"))
        try await sim.act("lead", "delete", ["workItem": 2])
        let failed = try await sim.call("POST", "/_apis/wit/workitemsbatch", body: ["ids": [1, 2]])
        XCTAssertEqual(failed.status, 404)
        XCTAssertTrue(failed.message.hasPrefix("TF401232: Work item 2 does not exist"), failed.message)
        let omitted = try await sim.call("POST", "/_apis/wit/workitemsbatch", body: [
            "ids": [1, 2, 3, 25], "errorPolicy": "Omit",
            "fields": ["System.Id", "System.AssignedTo", "System.State", "System.ChangedDate"],
        ])
        XCTAssertEqual(omitted.status, 200, omitted.text)
        let values = omitted.json["value"] as? [Any] ?? []
        XCTAssertEqual(values.count, 4)
        XCTAssertTrue(values[1] is NSNull)
        XCTAssertTrue(values[3] is NSNull, "Secret is not readable")
        let first = try XCTUnwrap(values[0] as? [String: Any])
        XCTAssertEqual((first.field("System.AssignedTo") as? [String: Any])?["id"] as? String, Fixture.engineer)
        XCTAssertEqual((first.field("System.AssignedTo") as? [String: Any])?["uniqueName"] as? String,
            "engineer@example.com")
        XCTAssertNil(first.field("System.Title"))
        let third = try XCTUnwrap(values[2] as? [String: Any])
        XCTAssertEqual((third["fields"] as? [String: Any])?.keys.sorted(), ["System.ChangedDate", "System.Id", "System.State"],
            "an unassigned work item has no System.AssignedTo")
    }

    func testUpdatesNameTheActorAndOldAndNewValues() async throws {
        let sim = try LiveServer()
        try await sim.act("alice", "assign", ["workItem": 2, "user": "engineer"])
        try await sim.act("alice", "set", ["workItem": 2, "field": "State", "value": "Active"])
        try await sim.act("lead", "comment", ["workItem": 2, "text": "Ship it <now>\nplease"])
        let updates = try await sim.call("GET", "/Web/_apis/wit/workItems/2/updates").values
        XCTAssertEqual(updates.count, 4)
        let assigned = updates[1]
        XCTAssertEqual(assigned.at("revisedBy.id") as? String, Fixture.alice)
        XCTAssertEqual(assigned.at("revisedBy.name") as? String, "Alice Example <alice@example.com>")
        let change = (assigned["fields"] as? [String: Any])?["System.AssignedTo"] as? [String: Any]
        XCTAssertEqual((change?["oldValue"] as? [String: Any])?["id"] as? String, Fixture.alice)
        XCTAssertEqual((change?["newValue"] as? [String: Any])?["id"] as? String, Fixture.engineer)
        let state = (updates[2]["fields"] as? [String: Any])?["System.State"] as? [String: Any]
        XCTAssertEqual(state?["oldValue"] as? String, "New")
        XCTAssertEqual(state?["newValue"] as? String, "Active")
        let comment = updates[3]["fields"] as? [String: Any]
        XCTAssertEqual((comment?["System.History"] as? [String: Any])?["newValue"] as? String,
            "<div>Ship it &lt;now&gt;</div><div>please</div>")
        XCTAssertEqual((comment?["System.CommentCount"] as? [String: Any])?["newValue"] as? Int, 1)
        XCTAssertEqual(updates[3].at("revisedBy.id") as? String, Fixture.lead)
        XCTAssertEqual(updates[3]["revisedDate"] as? String, "9999-01-01T00:00:00Z")
        XCTAssertEqual(updates[3]["rev"] as? Int, 4)
        let paged = try await sim.call("GET", "/_apis/wit/workItems/2/updates?$skip=1&$top=1").values
        XCTAssertEqual(paged.map { $0["rev"] as? Int }, [2])
    }

    func testCommentsAPIIsPreviewAndMissingOnOldServers() async throws {
        let sim = try LiveServer()
        try await sim.act("lead", "comment", ["workItem": 5, "text": "Second"])
        let path = "/Web/_apis/wit/workItems/5/comments"
        let comments = try await sim.call("GET", path, version: "7.1-preview.4")
        XCTAssertEqual(comments.status, 200, comments.text)
        XCTAssertEqual(comments.json["totalCount"] as? Int, 2)
        let list = comments.json["comments"] as? [[String: Any]] ?? []
        XCTAssertEqual(list.compactMap { $0["text"] as? String }, ["Second", "Looks good to me."])
        XCTAssertEqual(list.first?.at("createdBy.id") as? String, Fixture.lead)
        let released = try await sim.call("GET", path)
        XCTAssertEqual(released.typeKey, "VssInvalidPreviewVersionException")
        let noProject = try await sim.call("GET", "/_apis/wit/workItems/5/comments", version: "7.1-preview.4")
        XCTAssertEqual(noProject.status, 400)
        let added = try await sim.call("POST", path, version: "7.1-preview.4", body: ["text": "Mine"])
        XCTAssertEqual(added.json.at("createdBy.id") as? String, Fixture.engineer)
        try await sim.sim("POST", "switches", ["noCommentsAPI": true])
        let old = try await sim.call("GET", path, version: "7.1-preview.4")
        XCTAssertEqual(old.status, 404)
        let history = try await sim.call("GET", "/_apis/wit/workItems/5/updates").values.last
        XCTAssertEqual((history?.at("fields") as? [String: Any]).flatMap { ($0["System.History"] as? [String: Any])?["newValue"] as? String },
            "Mine", "the updates still carry the comment")
    }

    func testMoveKeepsTheIdAndResetsTheState() async throws {
        let sim = try LiveServer()
        try await sim.act("lead", "set", ["workItem": 5, "field": "State", "value": "Active"])
        try await sim.act("lead", "move", ["workItem": 5, "project": "Platform"])
        let moved = try await sim.call("GET", "/_apis/wit/workitems/5")
        XCTAssertEqual(moved.json.field("System.TeamProject") as? String, "Platform")
        XCTAssertEqual(moved.json.field("System.State") as? String, "New")
        let last = try await sim.call("GET", "/_apis/wit/workItems/5/updates").values.last
        let fields = last?["fields"] as? [String: Any] ?? [:]
        XCTAssertEqual((fields["System.State"] as? [String: Any])?["oldValue"] as? String, "Active")
        XCTAssertNotNil(fields["System.TeamProject"])
        try await sim.act("lead", "move", ["workItem": 5, "project": "Secret"])
        let gone = try await sim.call("GET", "/_apis/wit/workItems/5/updates")
        XCTAssertEqual(gone.status, 404)
        XCTAssertTrue(gone.message.hasPrefix("TF401232"))
        let secret = try await sim.call("GET", "/Secret/_apis/wit/workItems/30/updates")
        XCTAssertTrue(secret.message.hasPrefix("TF200016"), secret.message)
    }
}
