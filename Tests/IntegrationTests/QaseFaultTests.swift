import Foundation
import XCTest

/// Faults (issue 18): a 5xx, an HTML page, a truncated body, a hang, a dropped connection, an answer too large.
/// None produces a change or touches what is stored; the next good check reports what happened meanwhile, once.
final class QaseFaultTests: XCTestCase {
    private var sim: QaseSim!
    private var workspace: Workspace!

    override func setUpWithError() throws {
        sim = try QaseSim()
        workspace = try Workspace(serverURL: sim.apiURL)
        workspace.timeout = "2s"  // the hang
        try workspace.useQase(sim)
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    override func tearDown() {
        workspace = nil
        sim = nil
    }

    private func failingCheck(
        _ kind: String, on route: String, status: Int? = nil, after: Int? = nil,
        exit: Int32
    ) throws -> RunResult {
        try sim.fault(kind, on: route, count: kind == "drop" ? 2 : 1, status: status, after: after)
        let result = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(result.status, exit, "\(kind) on \(route): \(result.stderr)")
        XCTAssertEqual(result.stdout, "", "\(kind) on \(route): nothing reported")
        try sim.control(.delete, "faults")
        return result
    }

    /// Faults in the part that reads what is assigned to me: the whole poll fails and stores nothing.
    func test_faults_produceNoChange_andTheNextCheckReportsOnce() throws {
        try sim.act("alice", "edit-case", "DEMO", "4", "title=Checkout totals")
        try sim.act("lead", "assign-defect", "DEMO", "3", "engineer")
        try sim.act("lead", "assign-plan-case", "WEB", "1", "4", "engineer")
        let faults: [(String, Int?, Int32, String)] = [
            ("status", 500, 69, "HTTP 500"), ("status", 503, 69, "HTTP 503"), ("html", nil, 76, "an HTML page"),
            ("garbage", nil, 76, "not valid JSON"), ("truncate", nil, 69, "Qase"),
            ("hang", nil, 69, "did not answer in time"),
            ("drop", nil, 69, "Qase"),
        ]
        for (kind, status, exit, words) in faults {
            let result = try failingCheck(kind, on: "GET /plan/{code}", status: status, after: 1, exit: exit)
            XCTAssertTrue(result.stderr.contains(words), "\(kind): \(result.stderr)")
        }
        XCTAssertEqual(
            Set(changeSummaries(try workspace.checkChanges())),
            ["DEMO-4 modified", "DEMO/defect/3 assigned", "WEB/plan/1 assigned"])
        XCTAssertEqual(try workspace.checkChanges().count, 0, "once")
    }

    /// A fault in the part that reads my own items: what the first part found is reported, the rest next time.
    func test_aFaultReadingMyItems_keepsWhatTheFirstPartFound() throws {
        try sim.act("lead", "assign-defect", "DEMO", "3", "engineer")
        try sim.act("alice", "edit-case", "DEMO", "4", "title=Checkout totals")
        // The searches of a poll: DEMO's and WEB's assigned defects, then DEMO's cases.
        try sim.fault("status", on: "GET /search", status: 500, after: 2)
        let partial = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(partial.status, 69, partial.stderr)
        XCTAssertEqual(changeSummaries(partial.objects), ["DEMO/defect/3 assigned"])
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["DEMO-4 modified"])
        XCTAssertEqual(try workspace.checkChanges().count, 0)
    }

    /// An answer larger than any Qase page is refused before it is parsed (exit 76), and changes nothing.
    func test_anOversizedAnswer_isRefusedBeforeParsing() throws {
        try sim.act("alice", "edit-case", "DEMO", "4", "title=Checkout totals")
        // 20 MB: under the transport's general cap (64 MB), over the one for Qase's pages (16 MB).
        try sim.fault("oversize", on: "GET /project", size: 20_000_000)
        let large = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(large.status, 76, large.stderr)
        XCTAssertTrue(large.stderr.contains("larger than trackwatch accepts"), large.stderr)
        XCTAssertEqual(large.stdout, "")
        XCTAssertEqual(changeSummaries(try workspace.checkChanges()), ["DEMO-4 modified"])
    }
}
