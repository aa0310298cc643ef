import Foundation
import XCTest

/// Issue 27, item 4: one slow or rate-limited source never holds the others. Two `[[json]]` lists in one daemon,
/// each on its own schedule; systemd's status line and `trackwatch status` show each one's.
final class SourceScheduleTests: JSONSimTestCase {
    /// `[[json]] devices` (the device tracker) and a second list named `name` at `path`, polled every 10 s.
    private func twoLists(_ name: String, _ path: String, poll: [String] = []) throws -> Workspace {
        let workspace = try Workspace(serverURL: sim.url)
        workspace.customConfig = """
            [[json]]
            name = "\(name)"
            url = "\(sim.url)\(path)"
            timeout = "5s"

            [[json]]
            name = "devices"
            url = "\(sim.url)/devices"
            title = "{device}"
            timeout = "5s"

            [poll]
            interval = "10s"
            \(poll.joined(separator: "\n"))
            """
        try workspace.writeConfig()
        return workspace
    }

    /// The daemon's log (outside systemd: changes and errors on stderr), in a file so that it never blocks it.
    private func logFile(in workspace: Workspace) throws -> (URL, FileHandle) {
        let url = workspace.directory.appendingPathComponent("daemon.log")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
        return (url, try FileHandle(forWritingTo: url))
    }

    /// The issue's case: with one schedule for all, the 429's `Retry-After: 600` silenced the devices too, and a
    /// colleague's check-out in the next 45 s was not reported.
    func test_aRetryAfterFromOneList_leavesTheOtherPolledOnItsInterval() throws {
        let workspace = try twoLists("items", "/list/bare")
        let (log, handle) = try logFile(in: workspace)
        let notify = try NotifySocket()
        let daemon = try workspace.startDaemon(notify: notify, stderr: handle)
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(
            notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains("items: 12 in items, 0 changes; devices: 6") },
            "\(notify.messages)")

        try sim.fault("status", on: "GET /list/bare", count: 100, ["status": 429, "retryAfter": 600])
        let limited = notify.poll(daemon, expecting: "(the server asked for 600 s)")
        XCTAssertTrue(limited?.contains("items: failed: ") == true, limited ?? "")
        XCTAssertTrue(limited?.contains("devices: 6 in devices, 0 changes") == true, limited ?? "")
        let asked = try sim.requests(to: "GET /list/bare")

        try sim.act("checkout", "--device", "1", "--as", "Sam Carter")
        XCTAssertNotNil(
            notify.waitFor(timeout: 30) { $0.hasPrefix("STATUS=Last poll") && $0.contains("devices: 6 in devices, 1 change;") },
            "the devices are polled on their own interval: \(notify.messages)")
        XCTAssertEqual(try sim.requests(to: "GET /list/bare"), asked, "the rate-limited list is left alone")
        XCTAssertTrue(try String(contentsOf: log, encoding: .utf8).contains("Pixel 8"), "the check-out is reported")

        let status = try workspace.trackwatch(["status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        let items = status.stdout.components(separatedBy: "devices\n").first ?? ""
        XCTAssertTrue(items.contains("Next poll:") && items.contains("(the server asked for 600 s)"), status.stdout)
    }

    /// A list answering each page 0.7 s late and linking one more for ever (1,000 pages: 12 minutes) runs out of its
    /// 3 s deadline; the journal and both statuses name it, and the devices are still polled on their interval.
    func test_aSlowEndlessList_runsOutOfItsDeadline_andTheOtherListIsStillPolled() throws {
        try sim.fault("slow", on: "GET /paging/endless-fresh", count: 10_000, ["delay": 700])
        let workspace = try twoLists("slow", "/paging/endless-fresh", poll: ["deadline = \"3s\""])
        let (log, handle) = try logFile(in: workspace)
        let notify = try NotifySocket()
        let daemon = try workspace.startDaemon(notify: notify, stderr: handle)
        defer { stopAndWait(daemon) }
        // The devices' poll ends first and is told at once (the slow list's is still under way, side by side).
        let first = notify.waitFor(timeout: 30) { $0.hasPrefix("STATUS=Last poll") }
        XCTAssertTrue(first?.contains("devices: 6 in devices, 0 changes") == true, "\(notify.messages)")
        let named = notify.waitFor(timeout: 30) { $0.contains("slow: failed: slow ran out of its poll deadline (3 s)") }
        XCTAssertTrue(named?.contains("devices: 6 in devices, 0 changes") == true, "\(notify.messages)")
        XCTAssertLessThanOrEqual(try sim.requests(to: "GET /paging/endless-fresh"), 6, "stopped at the deadline")

        try sim.act("checkout", "--device", "1", "--as", "Sam Carter")
        XCTAssertNotNil(
            notify.waitFor(timeout: 40) { $0.hasPrefix("STATUS=Last poll") && $0.contains("devices: 6 in devices, 1 change;") },
            "the devices are polled on their own interval: \(notify.messages)")
        let journal = try String(contentsOf: log, encoding: .utf8)
        let line = journal.split(separator: "\n").first { $0.contains("poll ran out of its deadline") }
        XCTAssertTrue(line?.contains("slow") == true, journal)
        XCTAssertTrue(journal.contains("Pixel 8"), "the check-out is reported")

        let status = try workspace.trackwatch(["status"])
        let slow = status.stdout.components(separatedBy: "devices\n").first ?? ""
        XCTAssertTrue(slow.contains("ran out of its poll deadline (3 s)"), status.stdout)
    }
}
