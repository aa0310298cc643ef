import Foundation
import XCTest

/// A Qase list that never ends is ended (issue 27, item 3), against qase-sim's `endlessLists` switch: pages that
/// alternate A, B, A, B are a repeat however far apart, and a `total` of 2,000,000 with one item a page ends at
/// `[poll] deadline`. Either way the check fails saying why and stores nothing.
final class QaseEndlessListTests: XCTestCase {
    private func start(_ mode: String, deadline: String) throws -> (QaseSim, Workspace) {
        let sim = try QaseSim(["--endless-lists", mode])
        let workspace = try Workspace(serverURL: sim.apiURL)
        workspace.extraPollLines = ["page_size = 10", "deadline = \"\(deadline)\""]
        try workspace.useQase(sim)
        return (sim, workspace)
    }

    /// The check compared each page with the previous one only, so A, B, A, B read on until the poll's deadline.
    func test_alternatingPages_endTheReadAtTheFirstRepeat_andNothingIsStored() throws {
        let (sim, workspace) = try start("alternating", deadline: "30s")
        let failed = try workspace.trackwatch(["check"])
        XCTAssertNotEqual(failed.status, 0, failed.stdout)
        XCTAssertTrue(failed.stderr.contains("repeats the one at offset"), failed.stderr)
        XCTAssertFalse(failed.stderr.contains("deadline"), "ended by the repeat, not the clock: \(failed.stderr)")
        XCTAssertLessThan(try sim.requestCount(), 40, "a few pages, not thousands")
        try sim.switches(#"{"endlessLists": "off"}"#)
        let next = try workspace.trackwatch(["check"])
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertTrue(next.stdout.hasPrefix("Baseline:"), "nothing was stored: \(next.stdout)")
    }

    /// A `total` of 2,000,000 with one item a page kept a poll going for hours; it ends at the poll's deadline,
    /// which the error names with the key that raises it.
    func test_aLyingTotalWithOneItemAPage_endsAtTheDeadline_namingIt() throws {
        let (sim, workspace) = try start("lying-total", deadline: "4s")
        let began = Date()
        let failed = try workspace.trackwatch(["check"])
        let took = Date().timeIntervalSince(began)
        XCTAssertNotEqual(failed.status, 0, failed.stdout)
        XCTAssertTrue(failed.stderr.contains("ran out of its poll deadline (4 s)"), failed.stderr)
        XCTAssertTrue(failed.stderr.contains("deadline in [poll]"), failed.stderr)
        XCTAssertLessThan(took, 15, "ended at the deadline")
        try sim.switches(#"{"endlessLists": "off"}"#)
        let next = try workspace.trackwatch(["check"])
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertTrue(next.stdout.hasPrefix("Baseline:"), "nothing was stored: \(next.stdout)")
    }
}
