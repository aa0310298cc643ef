import Foundation
import XCTest

/// `trackwatch check` against gitlab-sim over real HTTP (issue 26): assignments and review requests, who did what
/// on my issues and merge requests (notes, resource events), my own actions silent, each once.
final class GitLabCheckTests: XCTestCase {
    private var sim: GitLabSim!
    private var workspace: Workspace!

    override func setUpWithError() throws {
        sim = try GitLabSim()
        workspace = try Workspace(serverURL: sim.url)
        workspace.timeout = "2s"
        try workspace.useGitLab(sim)
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    private func record(_ changes: [[String: Any]], _ key: String) -> [String: Any]? {
        changes.first { $0["record"] as? String == key }
    }

    private func fields(_ change: [String: Any]?) -> [String] {
        (change?["changes"] as? [[String: Any]] ?? []).map { field in
            let name = field["field"] as? String ?? "?"
            let old = field["old"] as? String, new = field["new"] as? String
            return old == nil ? "\(name): \(new ?? "")" : "\(name): \(old ?? "") → \(new ?? "")"
        }
    }

    func test_firstCheck_isASilentBaseline_thenColleaguesActionsAreEachReportedOnce() throws {
        let baseline = try workspace.trackwatch(["check"])
        XCTAssertTrue(baseline.stdout.hasPrefix("Baseline: watching "), baseline.stdout + baseline.stderr)
        try sim.act("alice", "assign", "platform/web#2", "engineer")
        try sim.act("lead", "comment", "platform/web#1", "Can you look?\nDetails below.")
        try sim.act("lead", "rename", "platform/web#8", "Login fails on Safari")
        try sim.act("lead", "label", "platform/web#4", "urgent")
        try sim.act("lead", "close", "platform/web#4")
        try sim.act("alice", "approve", "platform/web!3")
        try sim.act("alice", "push", "platform/web!3", "Round half up")
        try sim.act("engineer", "comment", "platform/web#1", "My own comment")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(
            Set(changeSummaries(changes)),
            ["platform/web#2 assigned", "platform/web#1 modified", "platform/web#8 modified", "platform/web#4 modified",
             "platform/web!3 modified"])
        XCTAssertEqual(record(changes, "platform/web#2")?["by"] as? String, "Alice Example")
        XCTAssertEqual(fields(record(changes, "platform/web#2")), ["Assignees: added engineer"])
        XCTAssertEqual(fields(record(changes, "platform/web#1")), ["Comment: Can you look?"], "my own comment is silent")
        XCTAssertEqual(fields(record(changes, "platform/web#8")), ["Title: Issue 8 of platform/web → Login fails on Safari"])
        XCTAssertEqual(fields(record(changes, "platform/web#4")), ["Labels: added urgent", "State: closed"])
        XCTAssertEqual(fields(record(changes, "platform/web!3")), ["Approval: approved", "Commits: added 1"])
        XCTAssertEqual(Set(changes.compactMap { $0["source"] as? String }), ["gitlab"])
        XCTAssertEqual(try workspace.checkChanges().count, 0, "each reported once")
    }

    /// GitLab records a milestone change as `remove` then `add`: told as one change, old → new.
    func test_aMilestoneChange_readsOldToNew() throws {
        _ = try workspace.trackwatch(["check"])
        try sim.act("lead", "milestone", "platform/web#4", "v2.0")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["platform/web#4 modified"])
        XCTAssertEqual(fields(record(changes, "platform/web#4")), ["Milestone: v1.0 → v2.0"])
    }

    func test_reviewRequests_andUnassignments_nameWhoDidIt() throws {
        _ = try workspace.checkChanges()
        try sim.act("lead", "request-review", "platform/web!2", "engineer")
        try sim.act("lead", "remove-review", "platform/web!10", "engineer")  // only awaiting my review
        try sim.act("lead", "unassign", "platform/web#5", "engineer")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(
            Set(changeSummaries(changes)),
            ["platform/web!2 assigned", "platform/web!10 unassigned", "platform/web#5 unassigned"], "\(changes)")
        XCTAssertEqual(fields(record(changes, "platform/web!2")), ["Review request: added engineer"])
        XCTAssertEqual(record(changes, "platform/web!10")?["by"] as? String, "Lena Lead")
        XCTAssertEqual(record(changes, "platform/web#5")?["by"] as? String, "Lena Lead")
    }

    func test_anIssueMovedToAnotherProject_isOneChange_neverUnassignedPlusAssigned() throws {
        _ = try workspace.checkChanges()
        try sim.act("lead", "move", "platform/web#1", "platform/ops")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changes.count, 1, "\(changes)")
        XCTAssertFalse(changes.contains { $0["kind"] as? String == "unassigned" }, "\(changes)")
        XCTAssertTrue((changes.first?["record"] as? String ?? "").hasPrefix("platform/ops#"), "\(changes)")
        XCTAssertEqual(fields(changes.first), ["Moved: from platform/web#1"])
        XCTAssertEqual(changes.first?["by"] as? String, "Lena Lead")
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    func test_aSteadyPoll_isFiveShortLists() throws {
        _ = try workspace.checkChanges()
        _ = try workspace.checkChanges()
        try sim.resetStats()
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        let stats = try sim.stats()
        XCTAssertEqual(stats["requests"] as? Int, 5, "\(stats)")
    }

    func test_faults_neverProduceAChange_andTheNextGoodPollReportsOnce() throws {
        _ = try workspace.checkChanges()
        try sim.act("lead", "comment", "platform/web#1", "While the server was down")
        for kind in ["status", "html", "truncated", "reset", "hang"] {
            try sim.fault(kind, on: "GET /issues")
            let result = try workspace.trackwatch(["check", "--json"])
            XCTAssertNotEqual(result.status, 0, "\(kind): \(result.stdout)")
            XCTAssertTrue(result.objects.isEmpty, "\(kind): \(result.stdout)")
        }
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["platform/web#1 modified"])
    }

    func test_429_withRetryAfterOrAPlainRetryLater_isAQuietWait_and401SaysWhatToDo() throws {
        _ = try workspace.checkChanges()
        for kind in ["rateLimit", "retryLater"] {
            try sim.fault(kind, on: "GET /merge_requests")
            let result = try workspace.trackwatch(["check"])
            XCTAssertEqual(result.status, 69, result.stderr)
            XCTAssertTrue(result.stderr.contains("GitLab is limiting this token's requests"), result.stderr)
        }
        try workspace.useGitLab(sim, token: "glpat-revoked")
        let refused = try workspace.trackwatch(["check"])
        XCTAssertEqual(refused.status, 77, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("read_api"), refused.stderr)
    }

    func test_aProjectTheTokenCannotSeeOrRead_isNamed_andTheRestIsWatched() throws {
        try sim.control(.post, "access", #"{"username": "engineer", "project": "platform/api", "level": "forbidden"}"#)
        try workspace.useGitLab(sim, ["projects = [\"platform/web\", \"platform/secret\"]"])
        let baseline = try workspace.trackwatch(["check"])
        XCTAssertEqual(baseline.status, 78, baseline.stderr)
        XCTAssertTrue(baseline.stderr.contains("Project platform/secret"), baseline.stderr)
        try sim.act("lead", "comment", "platform/web#1", "Still watched")
        let result = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(changeSummaries(result.objects), ["platform/web#1 modified"], result.stderr)
        let fresh = try Workspace(serverURL: sim.url)
        try fresh.useGitLab(sim, ["projects = [\"platform/api\"]"])
        let forbidden = try fresh.trackwatch(["check"])
        XCTAssertTrue(forbidden.stderr.contains("Project platform/api: the token may not read it (HTTP 403)"), forbidden.stderr)
    }

    func test_aServerThatRepeatsItsPages_failsThePollSayingSo() throws {
        let big = try GitLabSim(["--issues", "150"])
        let fresh = try Workspace(serverURL: big.url)
        try fresh.useGitLab(big)
        try big.switches(#"{"repeatPages": true}"#)
        let result = try fresh.trackwatch(["check"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("repeats page 1"), result.stderr)
    }

    func test_anOldGitLabWithoutReviewers_neverReadsOthersMergeRequestsAsReviewRequests() throws {
        try sim.switches(#"{"noReviewers": true}"#)
        let fresh = try Workspace(serverURL: sim.url)
        try fresh.useGitLab(sim)
        _ = try fresh.checkChanges()
        try sim.act("lead", "comment", "platform/web!2", "Not yours")
        XCTAssertEqual(try fresh.checkChanges().count, 0, "!2 is neither assigned to nor authored by engineer")
    }

    func test_anOldGitLabWithoutResourceEvents_readsStateFromNotes_andDoctorSaysWhatIsUnavailable() throws {
        let old = try GitLabSim(["--no-resource-events"])
        let fresh = try Workspace(serverURL: old.url)
        try fresh.useGitLab(old)
        _ = try fresh.checkChanges()
        try old.act("lead", "close", "platform/web#1")
        let changes = try fresh.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["platform/web#1 modified"])
        XCTAssertEqual(changes.first?["by"] as? String, "Lena Lead")
        XCTAssertEqual(fields(changes.first), ["State: closed"])
        try old.later()
        try old.act("lead", "label", "platform/web#5", "urgent")
        XCTAssertEqual(fields(record(try fresh.checkChanges(), "platform/web#5")), ["Labels: added urgent"])
        let doctor = try fresh.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("⚠ this GitLab has no resource events"), doctor.stdout)
    }

    func test_aQuickSecondChangeThatLeavesUpdatedAtAlone_isFoundNamed_andToldOnce() throws {
        try sim.switches(#"{"lazyUpdatedAt": true}"#)
        _ = try workspace.checkChanges()
        try sim.act("lead", "label", "platform/web#1", "first")
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["platform/web#1 modified"])
        try sim.act("lead", "label", "platform/web#1", "second")
        let second = try workspace.checkChanges()
        XCTAssertEqual(fields(record(second, "platform/web#1")), ["Labels: added second"], "named, in the same poll")
        XCTAssertEqual(second.first?["by"] as? String, "Lena Lead")
        try sim.later()
        try sim.act("alice", "comment", "platform/web#1", "Later")
        XCTAssertEqual(fields(record(try workspace.checkChanges(), "platform/web#1")), ["Comment: Later"], "told once")
    }
}
