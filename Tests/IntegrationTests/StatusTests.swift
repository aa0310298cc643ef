import Foundation
import XCTest

/// `trackwatch status` for the trackers whose watches are not called `assigned` (issue 37, item 4): Jira's is
/// `issues`, GitHub's and GitLab's `items`. Before, status looked for the poll log of `assigned` and `items` only:
/// a Jira source read "No poll yet" after any number of good polls, and 0 failures in a row after a rejected token;
/// and a rejected token found while asking who I am (before any watch) was logged nowhere, for every tracker.
final class StatusTests: XCTestCase {
    func test_jira_lastPollSuccessAndError_areShown() throws {
        let sim = try JiraSim()
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useJira(sim)
        try assertStatusFollowsThePolls(workspace) {
            try sim.switches(#"{"expiredToken": "engineer"}"#)
        }
    }

    func test_gitHub_lastPollSuccessAndError_areShown() throws {
        let sim = try GitHubSim()
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useGitHub(sim)
        try assertStatusFollowsThePolls(workspace) { try workspace.useGitHub(sim, token: "ghp_revoked") }
    }

    func test_gitLab_lastPollSuccessAndError_areShown() throws {
        let sim = try GitLabSim()
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useGitLab(sim)
        try assertStatusFollowsThePolls(workspace) { try workspace.useGitLab(sim, token: "glpat-revoked") }
    }

    /// A first poll reads who I am before any watch is asked: a token refused there was logged nowhere, and status
    /// read "No poll yet" and 0 failures.
    func test_aTokenRefusedBeforeAnyWatch_isAFailedPoll_forGitHubAndGitLab() throws {
        let github = try GitHubSim()
        let gitHubWorkspace = try Workspace(serverURL: github.url)
        try gitHubWorkspace.useGitHub(github, token: "ghp_revoked")
        let gitlab = try GitLabSim()
        let gitLabWorkspace = try Workspace(serverURL: gitlab.url)
        try gitLabWorkspace.useGitLab(gitlab, token: "glpat-revoked")
        for workspace in [gitHubWorkspace, gitLabWorkspace] {
            let refused = try workspace.trackwatch(["check"])
            XCTAssertEqual(refused.status, 77, refused.stderr)
            let json = try statusJSON(workspace)
            XCTAssertEqual(json["lastPollOK"] as? Bool, false, "\(json)")
            XCTAssertEqual(json["consecutiveFailures"] as? Int, 1, "\(json)")
            XCTAssertFalse(try workspace.trackwatch(["status"]).stdout.contains("No poll yet"))
        }
    }

    /// Two good checks, then `refuseTheToken` and two refused ones: what `status` and `status --json` say after each.
    private func assertStatusFollowsThePolls(
        _ workspace: Workspace, file: StaticString = #filePath, line: UInt = #line, refuseTheToken: () throws -> Void
    ) throws {
        XCTAssertEqual(try workspace.checkChanges(file, line: line).count, 0, "baseline", file: file, line: line)
        XCTAssertEqual(try workspace.checkChanges(file, line: line).count, 0, "steady", file: file, line: line)
        var json = try statusJSON(workspace, file: file, line: line)
        XCTAssertEqual(json["lastPollOK"] as? Bool, true, "\(json)", file: file, line: line)
        XCTAssertNotNil(json["lastSuccess"] as? String, "\(json)", file: file, line: line)
        XCTAssertEqual(json["consecutiveFailures"] as? Int, 0, "\(json)", file: file, line: line)
        var text = try workspace.trackwatch(["status"]).stdout
        XCTAssertFalse(text.contains("No poll yet"), text, file: file, line: line)
        XCTAssertTrue(text.contains("Last poll:") && text.contains("(ok,") && text.contains("Last success:"), text,
                      file: file, line: line)

        try refuseTheToken()
        for failures in 1...2 {
            let refused = try workspace.trackwatch(["check"])
            XCTAssertEqual(refused.status, 77, refused.stderr, file: file, line: line)
            json = try statusJSON(workspace, file: file, line: line)
            XCTAssertEqual(json["lastPollOK"] as? Bool, false, "\(json)", file: file, line: line)
            XCTAssertEqual(json["consecutiveFailures"] as? Int, failures, "\(json)", file: file, line: line)
            XCTAssertNotNil(json["lastSuccess"] as? String, "the last success stays known: \(json)",
                            file: file, line: line)
            let error = json["lastError"] as? String ?? ""
            XCTAssertFalse(error.isEmpty, "\(json)", file: file, line: line)
            XCTAssertTrue(refused.stderr.contains(error), "the error check said: \(error) / \(refused.stderr)",
                          file: file, line: line)
        }
        text = try workspace.trackwatch(["status"]).stdout
        XCTAssertTrue(text.contains("(failed,"), text, file: file, line: line)
        XCTAssertTrue(text.contains("Failing:      2 poll(s) in a row; last error: "), text, file: file, line: line)
    }

    private func statusJSON(
        _ workspace: Workspace, file: StaticString = #filePath, line: UInt = #line
    ) throws -> [String: Any] {
        let status = try workspace.trackwatch(["status", "--json"])
        XCTAssertEqual(status.status, 0, status.stderr, file: file, line: line)
        XCTAssertEqual(status.objects.count, 1, status.stdout, file: file, line: line)
        return status.objects.first ?? [:]
    }
}
