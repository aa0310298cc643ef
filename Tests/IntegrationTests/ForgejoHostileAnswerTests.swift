import Foundation
import XCTest

/// A hostile Forgejo's answers over real HTTP against forgejo-sim: one item it sends with an unusable number is
/// skipped and named, never the whole source, and never taken for gone.
final class ForgejoHostileAnswerTests: XCTestCase {
    /// acme/web#1, an issue assigned to engineer: its id is 1 (docs/forgejo-sim.md).
    private static let webOne = 1

    private static func skipLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.contains("Forgejo sent an item") }
    }

    func test_oneItemWithAnUnusableNumber_isSkippedAndNamed_theRestAreWatched_andItIsNeverTakenForGone() throws {
        let sim = try ForgejoSim()
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useForgejo(sim)
        XCTAssertEqual(try workspace.checkChanges().count, 0, "baseline")
        try sim.fault("item", on: "*", count: 10_000, item: Self.webOne, field: "number", value: "9223372036854775808")
        try sim.act("lead", "comment", "acme/web#1", "Said while the server could not say it")
        try sim.act("lead", "comment", "acme/web#5", "Said plainly")
        let broken = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(broken.status, 0, broken.stderr)
        XCTAssertEqual(changeSummaries(broken.objects), ["acme/web#5 modified"], broken.stderr)
        let lines = Self.skipLines(broken.stderr)
        XCTAssertEqual(lines.count, 1, "named once: \(broken.stderr)")
        XCTAssertTrue(
            lines.first?.contains("Forgejo sent an item with an unusable number; it is skipped") == true, "\(lines)")
        XCTAssertTrue(lines.first?.contains("acme/web/issues/1") == true, "which one: \(lines)")
        // A full read asks for every stored item it did not list: the answer is unusable too, and the item is kept,
        // not unassigned, not gone.
        let full = try workspace.trackwatch(["check", "--full", "--json"])
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertEqual(changeSummaries(full.objects), [], full.stdout)
        XCTAssertFalse(full.stderr.contains("no longer visible"), full.stderr)
        // The server mends it: the comment made meanwhile is told once, on an item still watched.
        try sim.clearFaults()
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["acme/web#1 modified"])
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }
}
