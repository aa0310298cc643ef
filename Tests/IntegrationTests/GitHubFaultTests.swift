import Foundation
import XCTest

/// GitHub servers that differ and answers that go wrong (issue 25): nothing is reported from a bad or partial
/// answer, the next good poll reports what happened meanwhile once, limits are waited out, and each failure says
/// what to do.
final class GitHubFaultTests: XCTestCase {
    private var sim: GitHubSim!
    private var workspace: Workspace!

    override func setUpWithError() throws {
        sim = try GitHubSim(["--issues", "20"])
        workspace = try Workspace(serverURL: sim.url)
        workspace.timeout = "2s"
        try workspace.useGitHub(sim)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    func test_faults_neverProduceAChange_andTheNextGoodPollReportsOnce() throws {
        try sim.act("lead", "comment", "acme/web#1", "While the server was down")
        for (kind, route) in [
            ("status", "GET /issues"), ("html", "GET /issues"), ("truncated", "GET /search/issues"),
            ("reset", "GET /repos/{owner}/{repo}/issues/{issue_number}/timeline"), ("hang", "GET /issues"),
            ("badGateway", "GET /repos/{owner}/{repo}/issues/{issue_number}/timeline"),
        ] {
            try sim.fault(kind, on: route)
            let result = try workspace.trackwatch(["check", "--json"])
            XCTAssertNotEqual(result.status, 0, "\(kind) on \(route): \(result.stdout)")
            XCTAssertTrue(result.objects.isEmpty, "\(kind): \(result.stdout)")
        }
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["acme/web#1 modified"])
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    func test_a502InTheMiddleOfPaging_failsTheWholeRead() throws {
        let big = try GitHubSim(["--issues", "300"])
        let fresh = try Workspace(serverURL: big.url)
        try fresh.useGitHub(big)
        try big.fault("badGateway", on: "GET /issues", page: 2)
        let failed = try fresh.trackwatch(["check"])
        XCTAssertEqual(failed.status, 69, failed.stderr)
        XCTAssertFalse(failed.stdout.contains("Baseline"), "nothing stored from half a list")
        let baseline = try fresh.trackwatch(["check"])
        XCTAssertTrue(baseline.stdout.hasPrefix("Baseline: watching "), baseline.stdout + baseline.stderr)
    }

    func test_limits_primaryAndSecondary_areWaitedOut_andNothingIsLost() throws {
        try sim.act("lead", "comment", "acme/web#1", "Over the limit")
        try sim.fault("rateLimit", on: "GET /issues", retryAfter: 30)
        let primary = try workspace.trackwatch(["check"])
        XCTAssertEqual(primary.status, 69, primary.stderr)
        XCTAssertTrue(primary.stderr.contains("GitHub is limiting this token's requests (the hourly limit)"), primary.stderr)
        try sim.fault("secondary", on: "GET /search/issues", status: 429, retryAfter: 5)
        let secondary = try workspace.trackwatch(["check"])
        XCTAssertEqual(secondary.status, 69, secondary.stderr)
        XCTAssertTrue(secondary.stderr.contains("(a secondary limit)"), secondary.stderr)
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["acme/web#1 modified"])
    }

    func test_aRevokedToken_isExit77_sayingWhatToDo() throws {
        try workspace.useGitHub(sim, token: "ghp_revoked")
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 77, result.stderr)
        XCTAssertTrue(result.stderr.contains("expired, was revoked or is wrong"), result.stderr)
    }

    func test_aServerThatRetiredTheDefaultVersion_stillWorks() throws {
        try sim.switches(#"{"retire20221128": true}"#)
        try sim.act("lead", "rename", "acme/web#5", "Renamed under the new version")
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["acme/web#5 modified"])
    }

    func test_anIncompleteSearch_takesNoReviewRequestAsRemoved() throws {
        try sim.switches(#"{"incompleteSearch": true}"#)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "acme/web#15 (a team request) is left out, not removed")
        try sim.switches(#"{"incompleteSearch": false}"#)
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    /// Issue 32.13: a typo in `repos` is named by doctor, with the fix for repos, not "check url"; and a search GitHub
    /// refuses says GitHub's own explanation, not only "Validation Failed".
    func test_aTypoInRepos_isNamedByDoctor_withTheFixForRepos() throws {
        try workspace.useGitHub(sim, [#"repos = ["acme/nope", "acme/web"]"#])
        let doctor = try workspace.trackwatch(["doctor"])
        let lines = doctor.stdout.split(separator: "\n").map(String.init)
        let failed = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("✘ GitHub repository acme/nope: not there") }, doctor.stdout)
        XCTAssertTrue(lines[failed + 1].hasPrefix("    fix: correct repos in [[github]] github"), lines[failed + 1])
        XCTAssertFalse(doctor.stdout.contains("check url"), doctor.stdout)
        let check = try workspace.trackwatch(["check"])
        XCTAssertTrue(check.stderr.contains("GitHub repository acme/nope: not there"), check.stderr)
    }

    func test_aTokenWithoutTheRepoScope_isNamedByDoctor() throws {
        try workspace.useGitHub(sim, token: "ghp_sim_engineer_noscope")
        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("a classic token without the repo scope (it has: read:user)"), doctor.stdout)
        try workspace.useGitHub(sim)
        let good = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(good.stdout.contains("✔ signed in as engineer (id 1001)"), good.stdout)
        XCTAssertTrue(good.stdout.contains("a classic token with the repo scope"), good.stdout)
    }
}
