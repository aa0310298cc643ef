import Foundation
import XCTest

/// `mute`, `unmute` and `log --record` take the record ids of every tracker as bubbles and `log` show them (issue
/// 32.12): a merge request's `platform/web!4` among them. Only what no source stores is refused.
final class RecordIDArgumentTests: XCTestCase {
    /// The mute is stored under the key the source reports its changes by (the daemon then keeps them off the desktop).
    func test_muteAndLog_takeAMergeRequestsReference_theKeyItsChangesCarry() throws {
        let sim = try GitLabSim()
        let workspace = try Workspace(serverURL: sim.url)
        workspace.timeout = "2s"
        try workspace.useGitLab(sim)
        _ = try workspace.checkChanges()

        let mute = try workspace.trackwatch(["mute", "platform/web!3"])
        XCTAssertEqual(mute.status, 0, mute.stderr)
        XCTAssertTrue(mute.stdout.hasPrefix("platform/web!3 muted: "), mute.stdout)
        XCTAssertTrue(try workspace.trackwatch(["mute"]).stdout.hasPrefix("platform/web!3  muted since"))
        try sim.act("alice", "approve", "platform/web!3")
        try sim.act("lead", "comment", "platform/web#1", "Can you look?")
        XCTAssertEqual(Set(changeSummaries(try workspace.checkChanges())), ["platform/web!3 modified", "platform/web#1 modified"])

        let log = try workspace.trackwatch(["log", "--record", "platform/web!3", "--json"])
        XCTAssertEqual(log.status, 0, log.stderr)
        XCTAssertEqual(log.objects.map { $0["record"] as? String }, ["platform/web!3"], log.stdout)
        let issue = try workspace.trackwatch(["log", "--record", "platform/web#1"])
        XCTAssertEqual(issue.lines.count, 1, issue.stdout + issue.stderr)
        XCTAssertEqual(try workspace.trackwatch(["unmute", "platform/web!3"]).stdout, "platform/web!3 unmuted\n")
    }

    func test_everyTrackersIds_areTaken_controlsAndOverlongTextAreRefused() throws {
        let workspace = try Workspace(serverURL: "http://127.0.0.1:9")
        let ids = ["SAMPL00000042", "WEB-42", "acme/web#7", "group/sub/project#3", "group/sub/project!4", "DEMO-9",
                   "DEMO/defect/7", "jd123@duke.edu", "Room 101", "42", "Gerät-7 (Küche)",
                   String(repeating: "g", count: 255) + "/p!999999999"]
        for id in ids {
            let mute = try workspace.trackwatch(["mute", id])
            XCTAssertEqual(mute.status, 0, "\(id): \(mute.stderr)")
            XCTAssertTrue(mute.stdout.hasPrefix("\(id) muted"), mute.stdout)
            XCTAssertEqual(try workspace.trackwatch(["log", "--record", id]).status, 0, id)
            XCTAssertEqual(try workspace.trackwatch(["unmute", id]).stdout, "\(id) unmuted\n")
        }
        XCTAssertEqual(try workspace.trackwatch(["mute", "  WEB-42 "]).stdout.prefix(13), "WEB-42 muted:", "spaces around dropped")
        XCTAssertEqual(try workspace.trackwatch(["unmute", "WEB-42"]).stdout, "WEB-42 unmuted\n")

        let refused = ["", " ", "WEB-42\u{1B}]0;owned\u{07}", "WEB-42\nSAMPL00000001", "\u{202E}24-BEW", "WEB\t42",
                       String(repeating: "a", count: 301)]
        for text in refused {
            for arguments in [["mute", text], ["unmute", text], ["log", "--record", text]] {
                let run = try workspace.trackwatch(arguments)
                XCTAssertEqual(run.status, 64, "\(arguments): \(run.stdout) \(run.stderr)")
                XCTAssertTrue(run.stderr.contains("is not a record id"), run.stderr)
                XCTAssertFalse(run.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E }, run.stderr)
            }
        }
        XCTAssertEqual(try workspace.trackwatch(["mute"]).stdout, "", "nothing refused was muted")
    }
}
