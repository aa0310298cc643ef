import Foundation
import XCTest

/// `trackwatch check` against forgejo-sim over real HTTP (issue 35): who did what on my issues and pull requests,
/// my own actions silent, each once; the 50-item cut; a deleted item; Gitea; a busy proxy.
///
/// Seeded in acme/web and acme/api: #1 and #5 issues assigned to me, #2 an issue I opened, #3 a pull request
/// assigned to me, #4 someone else's, #6 a pull request awaiting my review.
final class ForgejoCheckTests: XCTestCase {
    var sim: ForgejoSim!
    var workspace: Workspace!

    func start(_ arguments: [String] = []) throws {
        sim = try ForgejoSim(arguments)
        workspace = try Workspace(serverURL: sim.url)
        try workspace.useForgejo(sim)
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    func record(_ changes: [[String: Any]], _ key: String) -> [String: Any]? {
        changes.first { $0["record"] as? String == key }
    }

    func fields(_ change: [String: Any]?) -> [String] {
        (change?["changes"] as? [[String: Any]] ?? []).map { field in
            let name = field["field"] as? String ?? "?"
            let old = field["old"] as? String, new = field["new"] as? String
            return old == nil ? "\(name): \(new ?? "")" : "\(name): \(old ?? "") → \(new ?? "")"
        }
    }

    func test_firstCheck_isASilentBaseline() throws {
        try start()
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("Baseline: watching 8 Forgejo "), result.stdout)
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    func test_colleaguesActions_areEachReportedOnce_withWho_andMyOwnAreSilent() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.act("alice", "assign", "acme/web#2", "engineer")
        try sim.act("lead", "comment", "acme/web#1", "Can you look at this?\nDetails follow.")
        try sim.act("alice", "review", "acme/web#3", "APPROVED: Looks good")
        try sim.act("lead", "merge", "acme/api#3")
        try sim.act("alice", "force_push", "acme/web#6")
        try sim.act("engineer", "comment", "acme/web#5", "My own comment")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(
            Set(changeSummaries(changes)),
            [
                "acme/web#2 assigned", "acme/web#1 modified", "acme/web#3 modified", "acme/api#3 modified",
                "acme/web#6 modified",
            ], "\(changes)")
        XCTAssertEqual(record(changes, "acme/web#2")?["by"] as? String, "Alice Example")
        XCTAssertEqual(fields(record(changes, "acme/web#2")), ["Assignees: added engineer"])
        XCTAssertEqual(fields(record(changes, "acme/web#1")), ["Comment: Can you look at this?"])
        XCTAssertEqual(record(changes, "acme/web#1")?["by"] as? String, "lead", "an empty full_name shows the login")
        XCTAssertEqual(fields(record(changes, "acme/web#3")), ["Review: approved: Looks good"])
        XCTAssertEqual(fields(record(changes, "acme/api#3")), ["State: open → merged"], "one change, no close")
        XCTAssertEqual(fields(record(changes, "acme/web#6")), ["Push: force-pushed"])
        XCTAssertEqual(Set(changes.compactMap { $0["source"] as? String }), ["forgejo"])
        XCTAssertEqual(try workspace.checkChanges().count, 0, "each reported once")
    }

    func test_moreThanFiftyItems_everyCutPageIsFollowed() throws {
        try start()
        try sim.seed(60)
        let baseline = try workspace.trackwatch(["check"])
        XCTAssertTrue(baseline.stdout.hasPrefix("Baseline: watching 68 Forgejo "), baseline.stdout)
        try sim.act("lead", "comment", "acme/web#1", "On the last page")  // the oldest: last of a newest-first search
        try sim.resetStats()
        let full = try workspace.trackwatch(["check", "--full", "--json"])
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertEqual(changeSummaries(full.objects), ["acme/web#1 modified"])
        let routes = try sim.stats()["requestsByRoute"] as? [String: Int] ?? [:]
        XCTAssertEqual(
            routes["search"], 5,
            "66 assigned: 2 pages of 50; created, review requested, the review filter: 1 each; \(routes)")
        XCTAssertNil(routes["issue"], "found on its page, not asked for by reference: \(routes)")
    }

    func test_deletedItem_isDroppedSilently() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.act("lead", "delete", "acme/web#1")
        let full = try workspace.trackwatch(["check", "--full", "--json"])
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertEqual(full.objects.count, 0, "404: not unassigned, not anything")
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    func test_gitea_reportsAsForgejoDoes() throws {
        try start(["--gitea"])
        _ = try workspace.checkChanges()
        try sim.act("alice", "label", "acme/web#5", "urgent")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["acme/web#5 modified"])
        XCTAssertEqual(fields(record(changes, "acme/web#5")), ["Labels: added urgent"])
    }

    func test_serverWithoutTimeline_tellsTheDifferenceWithoutAName() throws {
        try start(["--no-timeline"])
        _ = try workspace.checkChanges()
        try sim.act("lead", "close", "acme/web#1")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["acme/web#1 modified"])
        XCTAssertEqual(fields(record(changes, "acme/web#1")), ["State: open → closed"])
        XCTAssertNil(record(changes, "acme/web#1")?["by"] as? String)
    }

    func test_htmlBusyAnswer_failsThePollWhole_andTheNextReportsOnce() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.act("lead", "comment", "acme/web#1", "While the proxy was busy")
        try sim.fault("html503", on: "timeline", retryAfter: 30)
        let failed = try workspace.trackwatch(["check", "--json"])
        XCTAssertNotEqual(failed.status, 0, failed.stdout)
        XCTAssertEqual(failed.status, 69, "a wait, not an outage: \(failed.stderr)")
        XCTAssertTrue(
            failed.stderr.contains("Forgejo is limiting requests (HTTP 503); it asked to wait 3"), failed.stderr)
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["acme/web#1 modified"])
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }
}
