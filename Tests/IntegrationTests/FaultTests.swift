import Foundation
import XCTest

/// Server and network faults injected into compass-sim: none produces a change, none loses one. The snapshot
/// stays until a complete, valid result arrives, and that poll reports what happened meanwhile, once.
final class FaultTests: XCTestCase {
    func test_faults_neverProduceOrLoseAChange() throws {
        let sim = try Simulator(["--records", "80"])
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0)
        let cases: [(kind: String, route: String, status: Int?, exit: Int32)] = [
            ("oversize", "GET /query/{id}", nil, 76),  // 70 MB, over the 64 MB cap
            ("status", "GET /query/{id}", 502, 69),  // (a 500 from POST /query is a refusal: the stored path runs)
            ("status", "POST /query", 503, 69),
            ("status", "GET /query/{id}", 429, 69),
            ("status", "GET /query/{id}", 404, 76),
            ("html", "GET /query/{id}", nil, 76),
            ("garbage", "POST /query", nil, 76),
            ("truncate", "GET /query/{id}", nil, 69),
            ("short-page", "GET /query/{id}", nil, 76),
            ("status", "POST /authenticate", 502, 69),
            ("hang", "GET /query/{id}", nil, 69),
        ]
        // One record per case: history timestamps have one-second resolution, and two identical actions by the
        // same user on the same record within a second share one de-duplication key by design.
        let engineers = (1...80).filter { $0 % 4 == 1 && (($0 - 1) / 4) % 5 != 2 }.map { "SAMPL" + String(format: "%08d", $0) }
        for (index, fault) in cases.enumerated() {
            let label = "\(fault.kind) \(fault.status.map(String.init) ?? "") on \(fault.route)"
            let record = engineers[index]
            try sim.act("lead", record, "Modify", set: ["Priority=1-Resolve Immediately"])
            if fault.route == "POST /authenticate" { try sim.post("/ccmweb/sim/expire-tokens") }
            try sim.inject(fault.kind, on: fault.route, status: fault.status, size: fault.kind == "oversize" ? 70_000_000 : nil)
            let failed = try workspace.trackwatch(["check", "--json"])
            if fault.kind == "oversize" {
                XCTAssertTrue(failed.stderr.contains("larger than 64 MB. If that is a real result page, lower page_size"), failed.stderr)
            }
            XCTAssertEqual(failed.status, fault.exit, "\(label): \(failed.stderr)")
            XCTAssertEqual(failed.stdout, "", "\(label): a failed poll reports nothing")
            let recovered = try workspace.trackwatch(["check", "--json"])
            XCTAssertEqual(recovered.status, 0, "\(label): \(recovered.stderr)")
            XCTAssertEqual(recovered.objects.map { $0["record"] as? String }, [record], "\(label): reported once, after")
        }
        let status = try workspace.trackwatch(["status", "--json"])
        XCTAssertTrue(status.stdout.contains("\"consecutiveFailures\":0"), status.stdout)
    }

    func test_tokenRefusedInTheMiddleOfPaging_logsInAgain_andTheResultIsComplete() throws {
        let sim = try Simulator(["--records", "80"])
        let workspace = try Workspace(serverURL: sim.url)
        workspace.extraPollLines = ["page_size = 4"]  // about 14 records assigned: four pages
        try workspace.writeConfig()
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0)
        try sim.act("lead", "SAMPL00000001", "Resolve")
        let logins = try sim.stats()["logins"] as? Int ?? 0
        try sim.inject("status", on: "GET /query/{id}", status: 401, after: 2)  // page 3 of the first query
        let check = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertEqual(check.objects.map { $0["record"] as? String }, ["SAMPL00000001"], "complete and exact: \(check.stdout)")
        XCTAssertEqual(try sim.stats()["logins"] as? Int, logins + 2, "this check's login, and once more after the 401")
        XCTAssertEqual(try workspace.trackwatch(["check", "--json"]).stdout, "", "nothing false from the broken paging")
    }

    func test_serverClockAheadOrBehind_reportsEachChangeOnce() throws {
        for offset in ["3600", "-3600"] {
            let sim = try Simulator(["--records", "80", "--clock-offset=\(offset)"])
            let workspace = try Workspace(serverURL: sim.url)
            XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0)
            try sim.act("lead", "SAMPL00000001", "Resolve")
            let first = try workspace.trackwatch(["check", "--json"])
            XCTAssertEqual(first.objects.map { $0["record"] as? String }, ["SAMPL00000001"], "offset \(offset): \(first.stderr)")
            try sim.act("alice", "SAMPL00000005", "Modify", set: ["Priority=1-Resolve Immediately"])
            let second = try workspace.trackwatch(["check", "--json"])
            XCTAssertEqual(second.objects.map { $0["record"] as? String }, ["SAMPL00000005"], "offset \(offset): \(second.stderr)")
            XCTAssertEqual(try workspace.trackwatch(["check", "--json"]).stdout, "", "offset \(offset): once")
        }
    }
}
