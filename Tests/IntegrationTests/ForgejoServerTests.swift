import Foundation
import XCTest

/// What a Forgejo or Gitea server does that the `[[forgejo]]` source must survive (issue 35), each a switch of
/// forgejo-sim, over real HTTP: cut pages, renamed and deleted repositories, reviews that end a request, old
/// servers, the Ghost user, a busy proxy and broken answers.
final class ForgejoServerTests: XCTestCase {
    var sim: ForgejoSim!
    var workspace: Workspace!

    func start(_ arguments: [String] = []) throws {
        sim = try ForgejoSim(arguments)
        workspace = try Workspace(serverURL: sim.url)
        workspace.timeout = "2s"
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

    func test_aPageCutShortOfTheLimit_isNeverTakenForTheLast_evenWithAnOldServersLink() throws {
        try start(["--max-response-items", "30", "--legacy-link"])
        try sim.seed(60)
        let baseline = try workspace.trackwatch(["check"])
        XCTAssertTrue(baseline.stdout.hasPrefix("Baseline: watching 68 Forgejo "), baseline.stdout + baseline.stderr)
        try sim.act("lead", "comment", "acme/web#1", "On the last page")
        try sim.resetStats()
        let full = try workspace.trackwatch(["check", "--full", "--json"])
        XCTAssertEqual(changeSummaries(full.objects), ["acme/web#1 modified"], full.stderr)
        let routes = try sim.stats()["requestsByRoute"] as? [String: Int] ?? [:]
        XCTAssertEqual(routes["search"], 6, "66 assigned: 3 pages of 30, no empty 4th; 3 more searches: \(routes)")
        XCTAssertNil(routes["issue"], "every item found on its page: \(routes)")
    }

    func test_aRenamedRepository_keepsEachItem_oneChangeUnderItsNewReference() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.repos(#"{"rename": "acme/web", "to": "acme/site"}"#)
        try sim.act("alice", "unassign", "acme/site#5", "engineer")  // no longer listed: asked for by its old name
        XCTAssertEqual(try workspace.checkChanges().count, 0, "between full reads nothing is guessed")
        let full = try workspace.trackwatch(["check", "--full", "--json"])
        XCTAssertEqual(full.status, 0, full.stderr)
        let changes = full.objects
        XCTAssertEqual(
            Set(changeSummaries(changes)),
            [
                "acme/site#1 modified", "acme/site#2 modified", "acme/site#3 modified", "acme/site#5 unassigned",
                "acme/site#6 modified",
            ], "\(changes)")
        XCTAssertEqual(fields(record(changes, "acme/site#1")), ["Key: acme/web#1 → acme/site#1"])
        XCTAssertEqual(record(changes, "acme/site#5")?["by"] as? String, "Alice Example")
        XCTAssertEqual(fields(record(changes, "acme/site#5")), ["Assignees: removed engineer"])
        XCTAssertEqual(try workspace.checkChanges().count, 0, "each once")
        try sim.act("lead", "comment", "acme/site#1", "Under the new name")
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["acme/site#1 modified"])
    }

    /// A self-hosted server under a sub-path (`ROOT_URL = https://example.org/git/`): the API, its `Link` pages, a
    /// renamed repository's redirect and the links people open all stay under it.
    func test_aServerUnderASubPath_isWatchedWhole_pagesRedirectsAndLinks() throws {
        try start(["--sub-path", "/git", "--max-response-items", "30"])
        XCTAssertTrue(sim.url.hasSuffix("/git"))
        try sim.seed(30)
        let baseline = try workspace.trackwatch(["check"])
        XCTAssertTrue(baseline.stdout.hasPrefix("Baseline: watching 38 Forgejo "), baseline.stdout + baseline.stderr)
        try sim.act("lead", "comment", "acme/web#1", "Under a sub-path")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["acme/web#1 modified"])
        let page = try workspace.trackwatch(["log", "--record", "acme/web#1", "--html"])
        XCTAssertTrue(page.stdout.contains("href=\"\(sim.url)/acme/web/issues/1#issuecomment-"),
                      "Open goes to the comment, under the sub-path: \(page.stdout)")
        try sim.repos(#"{"rename": "acme/web", "to": "acme/site"}"#)
        try sim.act("alice", "unassign", "acme/site#5", "engineer")
        let full = try workspace.trackwatch(["check", "--full", "--json"])
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertEqual(record(full.objects, "acme/site#5")?["by"] as? String, "Alice Example", "\(full.objects)")
        XCTAssertEqual(fields(record(full.objects, "acme/site#5")), ["Assignees: removed engineer"])
    }

    func test_aDeletedRepository_andOneNoLongerReadable_areDroppedSilently() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.repos(#"{"delete": "acme/api"}"#)
        try sim.repos(#"{"revoke": "acme/web"}"#)
        let full = try workspace.trackwatch(["check", "--full", "--json"])
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertEqual(full.objects.count, 0, "404: never unassigned: \(full.stdout)")
        let routes = try sim.stats()["requestsByRoute"] as? [String: Int] ?? [:]
        XCTAssertEqual(routes["issue"], 10, "each stored item asked for once: \(routes)")
        try sim.resetStats()
        XCTAssertEqual(try workspace.trackwatch(["check", "--full", "--json"]).objects.count, 0)
        XCTAssertNil(
            try sim.stats()["requestsByRoute"].flatMap { ($0 as? [String: Int])?["issue"] }, "dropped, not asked again")
    }

    func test_myReview_endsMyReviewRequest_neverAsUnassignedBySomeone_whileAColleagueRemovingItIs() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.act("alice", "comment", "acme/web#6", "Please look before Friday")
        try sim.act("engineer", "review", "acme/web#6", "APPROVED: Fine")  // removes my request, without an entry
        try sim.act("alice", "unrequest_review", "acme/api#6", "engineer")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "between full reads only the server's word counts")
        let full = try workspace.trackwatch(["check", "--full", "--json"])
        XCTAssertEqual(
            Set(changeSummaries(full.objects)), ["acme/web#6 modified", "acme/api#6 unassigned"], full.stdout)
        XCTAssertEqual(fields(record(full.objects, "acme/web#6")), ["Comment: Please look before Friday"])
        XCTAssertEqual(record(full.objects, "acme/web#6")?["by"] as? String, "Alice Example")
        XCTAssertEqual(fields(record(full.objects, "acme/api#6")), ["Review request: removed engineer"])
        XCTAssertEqual(record(full.objects, "acme/api#6")?["by"] as? String, "Alice Example")
        XCTAssertEqual(try workspace.trackwatch(["check", "--full", "--json"]).objects.count, 0, "each once")
    }

    func test_aServerWithoutTimeline_namesCommentsFromComments_andTheRestWithoutAName() throws {
        try start(["--no-timeline"])
        _ = try workspace.checkChanges()
        try sim.act("alice", "comment", "acme/web#5", "Seen on the old server")
        try sim.act("lead", "title", "acme/web#1", "Crash on start")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(Set(changeSummaries(changes)), ["acme/web#5 modified", "acme/web#1 modified"])
        XCTAssertEqual(fields(record(changes, "acme/web#5")), ["Comment: Seen on the old server"])
        XCTAssertEqual(record(changes, "acme/web#5")?["by"] as? String, "Alice Example")
        XCTAssertEqual(fields(record(changes, "acme/web#1")), ["Title: Issue 1 → Crash on start"])
        XCTAssertNil(record(changes, "acme/web#1")?["by"] as? String)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "each once")
    }

    func test_aServerThatIgnoresReviewRequested_isDetected_andOthersPullRequestsAreNeverReviewRequests() throws {
        try start(["--gitea", "--server-version", "1.13.4", "--ignore-review-requested", "--no-timeline"])
        try sim.act("alice", "unrequest_review", "acme/web#6", "engineer")
        try sim.act("alice", "unrequest_review", "acme/api#6", "engineer")
        let baseline = try workspace.trackwatch(["check"])
        XCTAssertTrue(baseline.stdout.hasPrefix("Baseline: watching 6 Forgejo "), baseline.stdout + baseline.stderr)
        try sim.act("lead", "comment", "acme/web#6", "Not yours")
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("✔ Gitea 1.13.4"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("⚠ this server ignores review_requested"), doctor.stdout)
    }

    func test_theGhostUser_namesADeletedAccount() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.act("ghost", "comment", "acme/web#1", "From an account since deleted")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changes.first?["by"] as? String, "Ghost")
    }

    func test_aBusyProxyWithoutRetryAfter_isAQuietWait_andBrokenAnswersFailThePollWhole() throws {
        try start()
        _ = try workspace.checkChanges()
        try sim.act("lead", "comment", "acme/web#1", "While things went wrong")
        try sim.fault("html429", on: "search")
        let busy = try workspace.trackwatch(["check"])
        XCTAssertEqual(busy.status, 69, busy.stderr)
        XCTAssertTrue(busy.stderr.contains("Forgejo is limiting requests (HTTP 429); it asked to wait"), busy.stderr)
        for kind in ["500", "html", "truncated", "hang"] {
            try sim.fault(kind, on: kind == "500" ? "timeline" : "search")
            let failed = try workspace.trackwatch(["check", "--json"])
            XCTAssertNotEqual(failed.status, 0, "\(kind): \(failed.stdout)")
            XCTAssertTrue(failed.objects.isEmpty, "\(kind): \(failed.stdout)")
        }
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["acme/web#1 modified"])
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    func test_aTokenWithoutAScope_isRefusedNamingTheScope_byCheckAndDoctor() throws {
        try start()
        try workspace.useForgejo(sim, token: "fj_sim_engineer.read:user")
        let check = try workspace.trackwatch(["check"])
        XCTAssertEqual(check.status, 77, check.stderr)
        XCTAssertTrue(check.stderr.contains("[read:issue]"), check.stderr)
        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("✔ signed in as Eve Engineer (engineer)"), doctor.stdout)
        XCTAssertTrue(
            doctor.stdout.contains(
                "✘ Forgejo refused the token (HTTP 403: token does not have at least one of "
                    + "required scope(s): [read:issue])"), doctor.stdout)
    }
}
