import Foundation
import XCTest

/// Result pages a hostile or broken server may send (issue 12, items 3 and 5), through `trackwatch check` against
/// compass-sim's fault switches over real HTTP.
final class HostileAnswerTests: XCTestCase {
    /// Bytes that are not UTF-8 in a history page: repaired to U+FFFD they made `�lose` a new history key, an old
    /// Close reported again as `�lose applied by lead`. Now the poll fails (exit 76) and changes nothing.
    func test_invalidUTF8InAHistoryPage_failsThePoll_andMakesNothingUp() throws {
        let sim = try Simulator(["--records", "80"])
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0)
        try sim.act("lead", "SAMPL00000013", "Close")
        let closed = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(closed.objects.map { $0["action"] as? String }, ["Close"], closed.stderr)

        // The second page read is the history query's: every "C" in it becomes the byte 0xFF.
        try sim.inject("bad-utf8", on: "GET /query/{id}", after: 1)
        let broken = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(broken.status, 76, broken.stderr)
        XCTAssertEqual(broken.stdout, "", "nothing made up")
        XCTAssertTrue(broken.stderr.contains("not valid UTF-8"), broken.stderr)
        let after = try workspace.trackwatch(["check", "--json"])
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertEqual(after.stdout, "", "the Close was reported once, before")
        try sim.act("alice", "SAMPL00000001", "Modify", set: ["Priority=1-Resolve Immediately"])
        XCTAssertEqual(try workspace.trackwatch(["check", "--json"]).objects.map { $0["record"] as? String }, ["SAMPL00000001"])
    }

    /// Peak resident memory of one `trackwatch check`, in MB, and its exit status.
    private func peakMemory(_ workspace: Workspace) throws -> (megabytes: Int, status: Int32, stderr: String) {
        let script = """
            import resource, subprocess, sys
            run = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            sys.stderr.buffer.write(run.stderr[-600:])
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, run.returncode)
            """
        let result = try runProduct("/usr/bin/python3", ["-c", script, productsDirectory.appendingPathComponent("trackwatch").path,
                                                         "check", "--config", workspace.configPath],
                                    environment: workspace.environment, timeout: 120)
        let numbers = result.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(numbers.count, 2, result.stdout + result.stderr)
        return (numbers.first ?? 0, Int32(numbers.last ?? 0), result.stderr)
    }

    /// Receiving an answer costs about its size, once (issue 20, item 3): async-http-client's accumulator grew a
    /// buffer by doubling and the transport copied it into an array, so a 24 MB answer of nothing but whitespace
    /// cost twice its size (up to 177–220 MB were seen, idle 28 MB). Now the body is received into one buffer
    /// sized by its `Content-Length`. A whitespace answer measures the receiving alone (the page reader skips it
    /// without keeping anything); one decoded as JSON (the result set's creation) may add one copy, within the
    /// documented bound of three times its size.
    func test_receivingAnAnswer_costsAboutItsSizeOnce() throws {
        let sim = try Simulator(["--records", "80"])
        let workspace = try Workspace(serverURL: sim.url)
        workspace.timeout = "60s"
        try workspace.writeConfig()
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0)
        let quiet = try peakMemory(workspace)
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        let size = 48_000_000, megabytes = Double(size) / 1_048_576
        for (route, factor) in [("GET /query/{id}", 1.5), ("POST /query", 3.0)] {
            try sim.inject("oversize", on: route, size: size)
            let whitespace = try peakMemory(workspace)
            XCTAssertEqual(whitespace.status, 0, "\(route): whitespace is valid JSON: \(whitespace.stderr)")
            let cost = Double(whitespace.megabytes - quiet.megabytes)
            XCTAssertLessThan(cost, factor * megabytes, "\(route): a \(Int(megabytes)) MB answer cost \(Int(cost)) MB")
            print("a \(Int(megabytes)) MB whitespace answer to \(route): peak \(whitespace.megabytes) MB, "
                  + "\(Int(cost)) MB above an ordinary check (\(quiet.megabytes) MB)")
        }
    }

    /// Answers just under the 64 MB body cap that once multiplied in memory (a page of 4 million one-value rows
    /// peaked at 386 MB; one row of 21 million empty values at 621 MB), and the largest page that fits the page
    /// size and the columns (8 values of 8 MB). The page reader stops at the first row beyond the page size and
    /// the first value beyond the columns, so the peak is bounded by the body and its strings: no answer costs
    /// more than three times its size above an ordinary check, nor 250 MB in all (docs/guarantees.md).
    func test_pagesUnderTheBodyCap_costUnderThreeTimesTheirSize_whateverTheirShape() throws {
        let sim = try Simulator(["--records", "80"])
        let workspace = try Workspace(serverURL: sim.url)
        workspace.timeout = "60s"  // 63 MB over loopback on a loaded machine
        try workspace.writeConfig()
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0)
        let quiet = try peakMemory(workspace)
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        for kind in ["many-rows", "wide-row", "big-values"] {
            try sim.inject(kind, on: "GET /query/{id}", size: 63_000_000)
            let hostile = try peakMemory(workspace)
            XCTAssertEqual(hostile.status, 76, "\(kind): \(hostile.stderr)")
            XCTAssertLessThan(hostile.megabytes, 250, "\(kind): peak \(hostile.megabytes) MB (an ordinary check: \(quiet.megabytes) MB)")
            XCTAssertLessThan(hostile.megabytes - quiet.megabytes, 3 * 63_000_000 / 1_048_576,
                              "\(kind): \(hostile.megabytes) MB, more than 3 times the answer above \(quiet.megabytes)")
            print("peak RSS of check with a 63 MB \(kind) page: \(hostile.megabytes) MB (ordinary: \(quiet.megabytes) MB)")
        }
    }
}
