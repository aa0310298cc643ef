import Foundation
import XCTest

/// A hostile GitHub's answers over real HTTP against github-sim: one item it sends with an unusable number is
/// skipped and named, never the whole source; an item left out so is never taken for gone; an oversized header is
/// said as what it is.
final class GitHubHostileAnswerTests: XCTestCase {
    /// acme/web#1 (assigned to engineer) and #5 (too): docs/github-sim.md, "Seeded issues and pull requests".
    private static let webOne = 100_000_001

    private static func skipLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.contains("GitHub sent an item") }
    }

    private static func baselineCount(_ stdout: String) -> Int? {
        guard stdout.hasPrefix("Baseline: watching ") else { return nil }
        return Int(stdout.dropFirst("Baseline: watching ".count).prefix { $0.isNumber })
    }

    func test_oneIssueWithAnUnusableNumber_isSkippedAndNamedOnce_andTheRestAreWatched() throws {
        let sim = try GitHubSim(["--issues", "20"])
        let clean = try Workspace(serverURL: sim.url)
        try clean.useGitHub(sim)
        let all = try clean.trackwatch(["check"])
        let watched = try XCTUnwrap(Self.baselineCount(all.stdout), all.stdout + all.stderr)
        for (field, value) in [("id", "1000000000000000000000000000000"), ("number", "9223372036854775808"),
                               ("number", "\"1\"")] {
            try sim.control(.delete, "faults")
            try sim.fault("item", on: "", count: 10_000, item: Self.webOne, field: field, value: value)
            let workspace = try Workspace(serverURL: sim.url)
            try workspace.useGitHub(sim)
            let baseline = try workspace.trackwatch(["check"])
            XCTAssertEqual(baseline.status, 0, "\(field) \(value): \(baseline.stderr)")
            XCTAssertEqual(Self.baselineCount(baseline.stdout), watched - 1, "\(value): \(baseline.stdout)")
            let lines = Self.skipLines(baseline.stderr)
            XCTAssertEqual(lines.count, 1, "named once: \(baseline.stderr)")
            XCTAssertTrue(
                lines.first?.contains("GitHub sent an item with an unusable \(field); it is skipped") == true, "\(lines)")
            XCTAssertTrue(lines.first?.contains("acme/web/issues/1") == true, "which one: \(lines)")
            try sim.control(.post, "clock", #"{"advance": 60}"#)
            try sim.act("lead", "comment", "acme/web#5", "Still watched")
            XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["acme/web#5 modified"], "\(value)")
        }
    }

    func test_aStoredIssueThatTurnsUnusable_staysAsStored_andIsNeverTakenForGone() throws {
        let sim = try GitHubSim(["--issues", "20"])
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useGitHub(sim)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
        try sim.fault("item", on: "", count: 10_000, item: Self.webOne, field: "number", value: "9223372036854775808")
        try sim.control(.post, "clock", #"{"advance": 60}"#)
        try sim.act("lead", "comment", "acme/web#1", "Said while the server could not say it")
        try sim.act("lead", "comment", "acme/web#5", "Said plainly")
        let broken = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(broken.status, 0, broken.stderr)
        XCTAssertEqual(changeSummaries(broken.objects), ["acme/web#5 modified"], broken.stderr)
        XCTAssertEqual(Self.skipLines(broken.stderr).count, 1, broken.stderr)
        // A full read asks for every stored item it did not list, by id: the answer is unusable too, and the item
        // is kept, not unassigned.
        let full = try workspace.trackwatch(["check", "--full", "--json"])
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertEqual(changeSummaries(full.objects), [], full.stdout)
        XCTAssertGreaterThan((try sim.stats()["requestsByRoute"] as? [String: Int])?["GET /repos/{owner}/{repo}/issues/{issue_number}"] ?? 0, 0)
        // The server mends it: the comment made meanwhile is told once, on an item still watched.
        try sim.control(.delete, "faults")
        try sim.control(.post, "clock", #"{"advance": 60}"#)
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["acme/web#1 modified"])
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    func test_anAnswerThatIsNoList_stillFailsTheWholePoll() throws {
        let sim = try GitHubSim(["--issues", "20"])
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useGitHub(sim)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
        try sim.act("lead", "comment", "acme/web#1", "While the answer was broken")
        for kind in ["html", "truncated"] {
            try sim.fault(kind, on: "GET /issues")
            let result = try workspace.trackwatch(["check", "--json"])
            XCTAssertNotEqual(result.status, 0, "\(kind): \(result.stdout)")
            XCTAssertTrue(result.objects.isEmpty, "\(kind): \(result.stdout)")
        }
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["acme/web#1 modified"])
    }

    func test_an8MBResponseHeader_isSaidAsSuch_notAsAServerThatCannotBeReached() throws {
        let sim = try GitHubSim()
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useGitHub(sim)
        try sim.fault("hugeHeader", on: "GET /user", size: 8 << 20)
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 76, "an answer to report, not an outage: \(result.stderr)")
        XCTAssertTrue(
            result.stderr.contains("the server sent a response header over 80 KB (\(sim.url)/user); not read"),
            result.stderr)
        XCTAssertFalse(result.stderr.contains("Cannot reach"), result.stderr)
        XCTAssertFalse(result.stderr.contains("cannot connect"), result.stderr)
    }
}
