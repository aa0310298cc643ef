import Foundation
import XCTest

/// What the server does that a poller must survive: the sign-in page, throttling, faults, the Server flavour.
final class SwitchTests: XCTestCase {
    func testBadPATIsASignInPageUnlessRedirectsAreSuppressed() async throws {
        let sim = try LiveServer()
        let page = try await sim.call("GET", "/_apis/connectionData", as: "nobody", suppress: false)
        XCTAssertEqual(page.status, 203)
        XCTAssertTrue(page.header("Content-Type")?.hasPrefix("text/html") == true)
        XCTAssertTrue(page.text.contains("Sign In"))
        let refused = try await sim.call("GET", "/_apis/connectionData", as: "nobody")
        XCTAssertEqual(refused.status, 401)
        let anonymous = try await sim.call("GET", "/_apis/connectionData", as: nil)
        XCTAssertEqual(anonymous.status, 401)
        try await sim.sim("POST", "pat", ["username": "engineer", "valid": false])
        let revoked = try await sim.call("GET", "/_apis/connectionData")
        XCTAssertEqual(revoked.status, 401)
        try await sim.sim("POST", "pat", ["username": "engineer", "valid": true])
        let valid = try await sim.call("GET", "/_apis/connectionData")
        XCTAssertEqual(valid.status, 200)
        let stats = try await sim.sim("GET", "stats").json
        XCTAssertEqual(stats["unauthorized"] as? Int, 4)
    }

    func testThrottlingAnswers429WithRetryAfterAndHeadersOn200s() async throws {
        let sim = try LiveServer()
        try await sim.sim("POST", "faults", ["route": "POST wiql", "kind": "throttle", "count": 1, "retryAfter": 7])
        let throttled = try await sim.wiql("SELECT [System.Id] FROM WorkItems")
        XCTAssertEqual(throttled.status, 429)
        XCTAssertEqual(throttled.header("Retry-After"), "7")
        XCTAssertEqual(throttled.header("X-RateLimit-Resource"), "Core")
        XCTAssertNotNil(throttled.header("X-RateLimit-Reset").flatMap { Int($0) })
        XCTAssertTrue(throttled.message.hasPrefix("TF400733"))
        let next = try await sim.wiql("SELECT [System.Id] FROM WorkItems")
        XCTAssertEqual(next.status, 200)
        try await sim.sim("POST", "switches", ["rateLimitHeaders": true])
        let warned = try await sim.call("GET", "/_apis/connectionData")
        XCTAssertEqual(warned.status, 200)
        XCTAssertEqual(warned.header("X-RateLimit-Remaining"), "0")
        XCTAssertNotNil(warned.header("Retry-After"))
    }

    func testDelayHoldsTheAnswer() async throws {
        let sim = try LiveServer()
        try await sim.sim("POST", "switches", ["delay": 0.3])
        let start = Date()
        let held = try await sim.call("GET", "/_apis/connectionData")
        XCTAssertEqual(held.status, 200)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.3)
    }

    func testFaults() async throws {
        let sim = try LiveServer()
        try await sim.sim("POST", "faults", ["route": "GET projects", "kind": "status", "count": 1, "status": 503])
        let unavailable = try await sim.call("GET", "/_apis/projects")
        XCTAssertEqual(unavailable.status, 503)
        XCTAssertEqual(unavailable.typeKey, "VssServiceUnavailableException")
        try await sim.sim("POST", "faults", ["route": "GET projects", "kind": "html", "count": 1])
        let html = try await sim.call("GET", "/_apis/projects")
        XCTAssertEqual(html.status, 200)
        XCTAssertTrue(html.header("Content-Type")?.hasPrefix("text/html") == true)
        try await sim.sim("POST", "faults", ["route": "GET projects", "kind": "truncated", "count": 1])
        do {
            let cut = try await sim.call("GET", "/_apis/projects")
            XCTFail("a truncated body was read whole: \(cut.status) \(cut.text)")
        } catch {}
        try await sim.sim("POST", "faults", ["route": "GET projects", "kind": "hang", "count": 1])
        do {
            let hung = try await sim.call("GET", "/_apis/projects", timeout: 1)
            XCTFail("a hung answer came back: \(hung.status)")
        } catch {}
        let healed = try await sim.call("GET", "/_apis/projects")
        XCTAssertEqual(healed.status, 200)
        let stats = try await sim.sim("GET", "stats").json
        // At least one each (a client may retry a request whose connection closed).
        XCTAssertGreaterThanOrEqual((stats["requestsByRoute"] as? [String: Int])?["GET projects"] ?? 0, 5)
    }

    func testServerFlavourUnderACollection() async throws {
        let sim = try LiveServer { $0.switches.server = true }
        let me = try await sim.call("GET", "/_apis/connectionData", version: "7.0", base: "/tfs/DefaultCollection")
        XCTAssertEqual(me.status, 200, me.text)
        XCTAssertEqual(me.json["deploymentType"] as? String, "onPremises")
        XCTAssertEqual(me.json.at("authenticatedUser.uniqueName") as? String, "CONTOSO\\engineer")
        let mine = try await sim.call("POST", "/Web/_apis/wit/wiql", body: [
            "query": "SELECT [System.Id] FROM WorkItems WHERE [System.AssignedTo] = 'CONTOSO\\engineer'",
        ], base: "/tfs/DefaultCollection")
        XCTAssertEqual(sim.ids(mine), [1, 5, 9, 13, 17, 21])
        let item = try await sim.call("GET", "/_apis/wit/workitems/1", base: "/tfs/DefaultCollection")
        XCTAssertEqual((item.json.field("System.AssignedTo") as? [String: Any])?["uniqueName"] as? String,
            "CONTOSO\\engineer")
        XCTAssertTrue((item.json["url"] as? String)?.contains("/tfs/DefaultCollection/_apis/wit/workItems/1") == true)
        let withoutTFS = try await sim.call("GET", "/_apis/connectionData", base: "/DefaultCollection")
        XCTAssertEqual(withoutTFS.status, 200)
        let unknown = try await sim.call("GET", "/_apis/connectionData", base: "/tfs/Other")
        XCTAssertEqual(unknown.status, 404)
    }

    func testControlRoutesRefuseMistakes() async throws {
        let sim = try LiveServer()
        let misspelt = try await sim.control("POST", "switches", #"{"noCommentApi": true}"#)
        XCTAssertEqual(misspelt.status, 400)
        XCTAssertTrue(misspelt.text.contains("Unknown switch noCommentApi"), misspelt.text)
        let missing = try await sim.control("POST", "act",
            #"{"as": "alice", "verb": "assign", "workItem": 999, "user": "engineer"}"#)
        XCTAssertEqual(missing.status, 400)
        XCTAssertTrue(missing.text.contains("No work item 999"), missing.text)
        let noVote = try await sim.control("POST", "act", #"{"as": "alice", "verb": "vote", "pullRequest": 1}"#)
        XCTAssertEqual(noVote.status, 400)
        XCTAssertTrue(noVote.text.contains("This verb needs"), noVote.text)
    }
}
