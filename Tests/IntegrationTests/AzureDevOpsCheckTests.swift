import Foundation
import XCTest

/// `trackwatch check` against ado-sim over real HTTP (issue 34): who did what on my work items and pull requests,
/// my own actions silent, each once; moves, deletions, a refused token, throttling, Server 2022, what a poll costs.
///
/// Seeded per project (Web: work items 1–12, pull requests 1–6; Platform: 13–24 and 7–12; Secret, which engineer
/// cannot read): work items n assigned to engineer when n % 4 = 1, created by engineer when n % 3 = 2, followed
/// when n % 6 = 3; pull requests opened by engineer when n % 3 = 1, engineer a reviewer of n = 2 and 6.
final class AzureDevOpsCheckTests: XCTestCase {
    var sim: AzureDevOpsSim!
    var workspace: Workspace!

    func start(_ arguments: [String] = [], _ lines: [String] = []) throws {
        sim = try AzureDevOpsSim(arguments)
        workspace = try Workspace(serverURL: sim.url)
        try workspace.useAzureDevOps(sim, lines)
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
        XCTAssertTrue(result.stdout.hasPrefix("Baseline: watching 10 Azure DevOps "), result.stdout)
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    func test_colleaguesActions_areEachReportedOnce_withWho_andMyOwnAreSilent() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.later()
        try sim.act("alice", "assign", workItem: 4, ["user": "engineer"])
        try sim.act("lead", "comment", workItem: 1, ["text": "Can you look at this?\nDetails follow."])
        try sim.act("alice", "set", workItem: 5, ["field": "State", "value": "Active"])
        try sim.act("lead", "set", workItem: 2, ["field": "Priority", "value": "3"])
        try sim.act("engineer", "comment", workItem: 9, ["text": "My own comment"])
        try sim.act("alice", "vote", pullRequest: 1, ["vote": -5])
        try sim.act("lead", "comment", pullRequest: 4, ["text": "Please rebase."])
        try sim.act("lead", "request-review", pullRequest: 3, ["user": "engineer"])
        try sim.act("lead", "complete", pullRequest: 2)
        try sim.act("alice", "push", pullRequest: 6, ["text": "Round totals half up"])
        try sim.later()
        let changes = try workspace.checkChanges()
        XCTAssertEqual(
            Set(changeSummaries(changes)),
            [
                "Web#4 assigned", "Web#1 modified", "Web#5 modified", "Web#2 modified", "Web/Web!1 modified",
                "Web/Web!4 modified", "Web/Web!3 assigned", "Web/Web!2 modified", "Web/Web!6 modified",
            ], "\(changes)")
        XCTAssertEqual(record(changes, "Web#4")?["by"] as? String, "Alice Example")
        XCTAssertEqual(fields(record(changes, "Web#4")), ["Assigned To: Lena Lead → Eve Engineer"])
        XCTAssertEqual(fields(record(changes, "Web#1")), ["Comment: Can you look at this?"])
        XCTAssertEqual(record(changes, "Web#1")?["by"] as? String, "Lena Lead")
        XCTAssertEqual(fields(record(changes, "Web#5")), ["State: New → Active"])
        XCTAssertEqual(fields(record(changes, "Web#2")), ["Priority: 1 → 3"], "on a work item I created")
        XCTAssertEqual(fields(record(changes, "Web/Web!1")), ["Review: waiting for author"])
        XCTAssertEqual(record(changes, "Web/Web!1")?["by"] as? String, "Alice Example", "the voter, never the service")
        XCTAssertEqual(fields(record(changes, "Web/Web!4")), ["Comment: Please rebase."])
        XCTAssertEqual(fields(record(changes, "Web/Web!3")), ["Review request: added Eve Engineer"])
        XCTAssertEqual(record(changes, "Web/Web!3")?["by"] as? String, "Lena Lead")
        XCTAssertEqual(fields(record(changes, "Web/Web!2")), ["State: completed"])
        XCTAssertEqual(record(changes, "Web/Web!2")?["by"] as? String, "Lena Lead")
        XCTAssertEqual(
            fields(record(changes, "Web/Web!6")), ["Push: pushed 1 commit"], "a pull request I review: its list moved")
        XCTAssertEqual(record(changes, "Web/Web!6")?["by"] as? String, "Alice Example")
        XCTAssertEqual(Set(changes.compactMap { $0["source"] as? String }), ["azure_devops"])
        XCTAssertEqual(try workspace.checkChanges().count, 0, "each reported once")
    }

    func test_unassigned_moved_andDeleted() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.later()
        try sim.act("lead", "assign", workItem: 1, ["user": "alice"])
        try sim.act("lead", "move", workItem: 5, ["project": "Platform"])
        try sim.act("lead", "remove-review", pullRequest: 2, ["user": "engineer"])
        try sim.later()
        let changes = try workspace.checkChanges()
        XCTAssertEqual(
            Set(changeSummaries(changes)), ["Web#1 unassigned", "Platform#5 modified", "Web/Web!2 unassigned"],
            "\(changes)")
        XCTAssertEqual(fields(record(changes, "Web/Web!2")), ["Review request: removed Eve Engineer"])
        XCTAssertEqual(record(changes, "Web/Web!2")?["by"] as? String, "Lena Lead")
        XCTAssertEqual(fields(record(changes, "Web#1")), ["Assigned To: Eve Engineer → Alice Example"])
        XCTAssertEqual(record(changes, "Web#1")?["by"] as? String, "Lena Lead")
        XCTAssertTrue(fields(record(changes, "Platform#5")).contains("Project: Web → Platform"), "\(changes)")
        try sim.act("lead", "delete", workItem: 9)
        let full = try workspace.trackwatch(["check", "--full", "--json"])
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertEqual(full.objects.count, 0, "TF401232: dropped silently, never unassigned")
    }

    func test_aWorkItemIFollow_isToldToo_askedWithOneMoreWIQL() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.later()
        try sim.act("alice", "set", workItem: 3, ["field": "Title", "value": "Login fails on Safari"])
        try sim.resetStats()
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["Web#3 modified"])
        XCTAssertEqual(fields(record(changes, "Web#3")), ["Title: Fix bug 3 of Web → Login fails on Safari"])
        XCTAssertEqual(try sim.requestsByRoute()["POST wiql"], 2, "what changed, then which of it I follow")
    }

    func test_refusedToken_saysSo_andA203SignInPageIsNoEmptyList() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.fault("html", on: "POST wiql", status: 203)
        let page = try workspace.trackwatch(["check"])
        XCTAssertEqual(page.status, 77, page.stderr)
        XCTAssertTrue(page.stderr.contains("sign-in page (HTTP 203)"), page.stderr)
        try sim.control(.post, "pat", ["username": "engineer", "valid": false])
        let refused = try workspace.trackwatch(["check"])
        XCTAssertEqual(refused.status, 77, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("rejected the token (HTTP 401"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("[[azure_devops]]"), refused.stderr)
    }

    func test_throttled_isAQuietWait_andTheNextPollReportsOnce() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.later()
        try sim.act("lead", "comment", workItem: 1, ["text": "While throttled"])
        try sim.fault("throttle", on: "GET updates", retryAfter: 5)
        let throttled = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(throttled.status, 69, throttled.stderr)
        XCTAssertTrue(throttled.stderr.contains("Azure DevOps is limiting"), throttled.stderr)
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["Web#1 modified"])
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    func test_rateLimitHeadersOnGoodAnswers_areUsedAsAnswers_neverAFailure() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.switches(["rateLimitHeaders": true])
        try sim.later()
        try sim.act("alice", "set", workItem: 5, ["field": "State", "value": "Active"])
        let result = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(result.status, 0, "Retry-After and X-RateLimit-Delay on a 200: \(result.stderr)")
        XCTAssertEqual(changeSummaries(result.objects), ["Web#5 modified"])
    }

    func test_aGatewayPageOrACutAnswer_failsThePollWhole_andTheNextReportsOnce() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.later()
        try sim.act("alice", "vote", pullRequest: 4, ["vote": 10])
        try sim.fault("html", on: "GET threads")
        let page = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(page.status, 76, page.stderr)
        XCTAssertTrue(page.stderr.contains("an HTML page instead of JSON"), page.stderr)
        try sim.fault("truncated", on: "POST wiql")
        XCTAssertNotEqual(try workspace.trackwatch(["check"]).status, 0, "a cut answer is no answer")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["Web/Web!4 modified"])
        XCTAssertEqual(fields(record(changes, "Web/Web!4")), ["Review: approved"])
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    func test_server2022_onApiVersion70_withDomainNames_reportsAlike() throws {
        try start(["--server", "--max-api-version", "7.0"])
        _ = try workspace.checkChanges()
        try sim.later()
        try sim.act("alice", "assign", workItem: 4, ["user": "engineer"])
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["Web#4 assigned"])
        XCTAssertEqual(record(changes, "Web#4")?["by"] as? String, "Alice Example")
        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(
            doctor.stdout.contains("Azure DevOps Server, REST API 7.0"), "7.1 refused, 7.0 kept: \(doctor.stdout)")
    }

    func test_aServerWithoutTheCommentsAPI_stillTellsComments_fromTheUpdates() throws {
        try start(["--no-comments-api"])
        _ = try workspace.checkChanges()
        try sim.later()
        try sim.act("lead", "comment", workItem: 5, ["text": "<b>Bold</b> & plain\nsecond line"])
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["Web#5 modified"])
        XCTAssertEqual(fields(record(changes, "Web#5")), ["Comment: <b>Bold</b> & plain"], "its text, as written")
        XCTAssertNil(try sim.requestsByRoute()["GET comments"], "never asked")
    }

    func test_moreWorkItemsThanWIQLReturns_saysToNameFewerProjects() throws {
        try start(["--wiql-limit", "5"])
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 78, result.stderr)
        XCTAssertTrue(result.stderr.contains("Name fewer projects in projects of [[azure_devops]]"), result.stderr)
    }

    func test_aProjectTheTokenCannotRead_isNamed_andTheOthersWatched() throws {
        try start([], ["projects = [\"Web\", \"Secret\"]"])
        let baseline = try workspace.trackwatch(["check"])
        XCTAssertEqual(baseline.status, 78, baseline.stderr)
        XCTAssertTrue(baseline.stderr.contains("Project Secret"), baseline.stderr)
        try sim.later()
        try sim.act("alice", "assign", workItem: 4, ["user": "engineer"])
        let next = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(changeSummaries(next.objects), ["Web#4 assigned"])
    }

    func test_aSteadyPoll_costsOneWIQL_twoListsPerProject_andTheThreadsOfMine() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.resetStats()
        try sim.later()
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        let routes = try sim.requestsByRoute()
        XCTAssertEqual(routes["POST wiql"], 1, "\(routes)")
        XCTAssertEqual(routes["GET pullrequests"], 4, "2 projects × reviewer and creator: \(routes)")
        XCTAssertEqual(routes["GET threads"], 4, "my 2 active pull requests in each project: \(routes)")
        XCTAssertNil(routes["POST workitemsbatch"], "no work item read when none changed: \(routes)")
        XCTAssertNil(routes["GET updates"], "\(routes)")
        XCTAssertEqual(
            routes.values.reduce(0, +), 9, "≤ 2 + 2 per project + 1 per active pull request of mine: \(routes)")
    }
}
