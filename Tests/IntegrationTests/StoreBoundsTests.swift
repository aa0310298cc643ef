import Foundation
import XCTest

/// Issue 20, item 14: what the state folder keeps is bounded — long values are cut when they arrive (their length
/// kept), and changes and the poll log are pruned by age and count — so that a server or a colleague sending huge
/// text cannot grow it without end, nor make every poll's page of recent changes slow.
final class StoreBoundsTests: XCTestCase {
    private func stateSize(_ workspace: Workspace) -> Int {
        let state = workspace.directory.appendingPathComponent("xdg-state/trackwatch")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []
        return files.reduce(0) { total, name in
            let size = (try? FileManager.default.attributesOfItem(atPath: state.appendingPathComponent(name).path)[.size]) as? Int
            return total + (size ?? 0)
        }
    }

    /// Before: ~24 MB more a poll with 1–2 MB headlines, nothing ever deleted.
    func test_hugeHeadlines_growTheStateFolderByLittle_andLogStaysSmall() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0, "baseline")
        let before = stateSize(workspace)
        for round in 1...5 {
            let file = workspace.directory.appendingPathComponent("headline")
            try Data((String(round) + String(repeating: " huge headline", count: 120_000)).utf8).write(to: file)
            try sim.act("lead", "SAMPL00000001", "Modify", setFile: ["Headline=\(file.path)"])
            try sim.act("lead", "SAMPL00000005", "Modify", setFile: ["Headline=\(file.path)"])
            let checked = try workspace.trackwatch(["check", "--json"])
            XCTAssertEqual(checked.objects.count, 2, checked.stderr)
        }
        let grown = stateSize(workspace) - before
        XCTAssertLessThan(grown, 1_000_000, "the state folder grew by \(grown) bytes for 10 changes of 1.7 MB headlines")
        let log = try workspace.trackwatch(["log", "--json"])
        XCTAssertEqual(log.objects.count, 10)
        XCTAssertLessThan(log.rawStdout.count, 200_000, "log printed \(log.rawStdout.count) bytes")
        let headline = try XCTUnwrap(log.objects.first?["headline"] as? String)
        XCTAssertTrue(headline.hasPrefix("5 huge headline"), String(headline.prefix(40)))
        XCTAssertTrue(headline.contains("1680001 characters"), "the length is kept: \(headline.suffix(80))")
        let page = try workspace.trackwatch(["log", "--html"])
        XCTAssertLessThan(page.rawStdout.count, 200_000)
    }

    /// `[log]` prunes changes and polls by age and count; what is not yet delivered is never pruned.
    func test_retention_keepsAtMostWhatIsConfigured() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        workspace.trailer = "[log]\nmax_changes = 3\nmax_polls = 4\n"
        try workspace.writeConfig()
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0, "baseline")
        for priority in ["1-Resolve Immediately", "2-Give High Attention", "3-Normal Queue", "4-Low Priority",
                         "1-Resolve Immediately"] {
            try sim.act("lead", "SAMPL00000001", "Modify", set: ["Priority=\(priority)"])
            XCTAssertEqual(try workspace.trackwatch(["check"]).lines.count, 1)
        }
        let log = try workspace.trackwatch(["log", "--json"])
        XCTAssertEqual(log.objects.count, 3, "the newest 3 changes")
        let status = try workspace.trackwatch(["status", "--json"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("\"lastSuccess\""), status.stdout)
    }
}
