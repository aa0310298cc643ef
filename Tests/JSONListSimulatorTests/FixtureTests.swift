import JSONListSimulator
import XCTest

/// The seeded data follows the rules docs/json-sim.md states, which clients' tests rely on.
final class FixtureTests: XCTestCase {
    private var server: TestServer!

    override func setUp() { server = TestServer(items: 40) }

    func test_itemN_followsTheDocumentedRules() throws {
        let items = try XCTUnwrap(server.call("GET", "/list/bare").json?.array)
        XCTAssertEqual(items.count, 40)
        for (index, item) in items.enumerated() {
            let n = index + 1
            XCTAssertEqual(
                item.object?.keys,
                ["id", "title", "status", "assignee", "priority", "estimate", "updated_by", "meta"])
            XCTAssertEqual(item["id"], .int(n))
            XCTAssertEqual(item["status"]?.string, ["open", "in progress", "blocked", "closed"][(n - 1) % 4])
            XCTAssertEqual(item["assignee"]?.string, ["dana", "lee", "sam"][(n - 1) % 3])
            XCTAssertEqual(item["priority"], .int((n - 1) % 4 + 1))
            XCTAssertEqual(item["estimate"], .number("\(n % 4).5"))
            XCTAssertEqual(item["updated_by"]?.string, ["dana", "lee", "sam"][n % 3])
            XCTAssertEqual(item["meta"]?["color"]?.string, ["red", "green", "blue"][(n - 1) % 3])
            XCTAssertEqual(item["meta"]?["labels"], n % 2 == 0 ? ["backend"] : ["ui", "triage"])
            if n > 4 { XCTAssertEqual(item["title"]?.string, "Item \(n)") }
        }
        XCTAssertEqual(items[2]["title"]?.string, "東京 office printer offline")
    }

    func test_recipeIssues_followTheDocumentedTable() throws {
        let issues = try XCTUnwrap(server.call("GET", "/sim/issues/jira").json?.array)
        XCTAssertEqual(
            issues.compactMap { $0["assignee"]?.string == "dana" ? $0["number"]?.int : nil },
            [1, 2, 4, 5, 7, 8, 10])
        XCTAssertEqual(issues.compactMap { $0["state"]?.string == "closed" ? $0["number"]?.int : nil }, [8])
        XCTAssertEqual(issues.compactMap { $0["author"]?.string == "dana" ? $0["number"]?.int : nil }, [2, 6, 9])
        XCTAssertEqual(issues[5]["assignee"]?.string, "lee")
        server.call("PATCH", "/sim/issues/jira/WID-3", body: ["assignee": "dana", "state": "closed"])
        XCTAssertEqual(
            server.call("GET", "/sim/issues/github").json?.array?[2]["assignee"], .null,
            "each tracker has its own copy")
    }

    func test_hugeAnswer_byDefault_isOver50MB_andExactlyAsDocumented() {
        let huge = server.call("GET", "/fault/huge")
        XCTAssertEqual(huge.body.count, 52_428_301)
        XCTAssertEqual(huge.body.last, UInt8(ascii: "]"))
    }
}
