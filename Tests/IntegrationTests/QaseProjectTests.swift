import Foundation
import XCTest

/// Projects and parts a server does not answer (issue 18): a project the token cannot see, reviews turned off,
/// a project code renamed between polls. None of them is a burst of "assigned" or "unassigned".
final class QaseProjectTests: XCTestCase {
    /// A configured project the token cannot see (403) or that does not exist (404): an error naming it (exit 78),
    /// while the other projects are watched.
    func test_aConfiguredProjectTheTokenCannotSee_isNamed_andTheOthersAreWatched() throws {
        let sim = try QaseSim(["--no-access", "WEB"])
        let workspace = try Workspace(serverURL: sim.apiURL)
        try workspace.useQase(sim, [#"projects = ["DEMO", "WEB", "NOPE"]"#])
        let first = try workspace.trackwatch(["check"])
        XCTAssertEqual(first.status, 78, first.stderr)
        XCTAssertTrue(first.stdout.hasPrefix("Baseline: watching 7 open items"), "DEMO's baseline: \(first.stdout)")
        XCTAssertTrue(first.stderr.contains("Project WEB: the token cannot see it (HTTP 403"), first.stderr)
        try sim.act("alice", "edit-case", "DEMO", "4", "title=Checkout totals")
        let second = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(second.status, 78)
        XCTAssertEqual(changeSummaries(second.objects), ["DEMO-4 modified"])
        let probe = try workspace.trackwatch(["probe"])
        XCTAssertTrue(probe.stdout.contains("✘ Project WEB: the token cannot see it"), probe.stdout)
        XCTAssertTrue(probe.stdout.contains("✘ Project NOPE: Qase has no such project (HTTP 404"), probe.stdout)
    }

    /// Access to a project lost between polls: its items are kept as they were, not reported as leaving; access
    /// back, what happened meanwhile is reported once.
    func test_accessLostBetweenPolls_isNoBurstOfUnassigned() throws {
        let sim = try QaseSim()
        let workspace = try Workspace(serverURL: sim.apiURL)
        try workspace.useQase(sim)
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        try sim.control(.delete, "access/WEB/engineer")
        try sim.act("lead", "assign-defect", "WEB", "1", "alice")
        XCTAssertEqual(try workspace.checkChanges().count, 0, "WEB is not seen: nothing of it leaves")
        try sim.control(.put, "access/WEB/engineer")
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["WEB/defect/1 unassigned"])
    }

    /// Reviews turned off (402 on plans without them, 404 where the project disabled them): the rest is watched,
    /// no review looks unassigned, and `probe` says reviews are not watched.
    func test_reviewsMissing_areLeftAsTheyWere() throws {
        for status in [402, 404] {
            let sim = try QaseSim()
            let workspace = try Workspace(serverURL: sim.apiURL)
            try workspace.useQase(sim)
            XCTAssertEqual(try workspace.checkChanges().count, 0)
            try sim.switches(#"{"reviewRefusal": \#(status)}"#)
            try sim.act("alice", "edit-case", "DEMO", "4", "title=Checkout totals")
            let without = try workspace.trackwatch(["check", "--json"])
            XCTAssertEqual(without.status, 0, without.stderr)
            XCTAssertEqual(changeSummaries(without.objects), ["DEMO-4 modified"], "\(status)")
            XCTAssertTrue(without.stderr.contains("Qase refuses test-case reviews in this project"), without.stderr)
            let probe = try workspace.trackwatch(["probe"])
            XCTAssertTrue(probe.stdout.contains("⚠ test-case reviews are off in DEMO (HTTP \(status)"), probe.stdout)
            try sim.switches(#"{"reviewRefusal": 0}"#)
            try sim.act("alice", "approve", "DEMO", "2")
            XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["DEMO/review/2 modified"], "\(status)")
        }
    }

    /// A project code renamed between polls: no burst, and a change made in the same interval is reported once
    /// under the new code; a configured code follows its project.
    func test_aRenamedProject_isNoBurst_andItsChangeIsReportedOnce() throws {
        for configured in [false, true] {
            let sim = try QaseSim()
            let workspace = try Workspace(serverURL: sim.apiURL)
            try workspace.useQase(sim, configured ? [#"projects = ["DEMO"]"#] : [])
            XCTAssertEqual(try workspace.checkChanges().count, 0)
            try sim.act("alice", "edit-case", "DEMO", "4", "title=Checkout totals")
            try sim.act("lead", "rename-project", "DEMO", "SHOP")
            let result = try workspace.trackwatch(["check", "--json"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(changeSummaries(result.objects), ["SHOP-4 modified"], "configured \(configured)")
            XCTAssertEqual(result.stderr.contains("watching it by its new code"), configured, result.stderr)
            try sim.act("lead", "assign-defect", "SHOP", "1", "alice")
            XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["SHOP/defect/1 unassigned"])
            XCTAssertEqual(try workspace.checkChanges().count, 0)
        }
    }
}
