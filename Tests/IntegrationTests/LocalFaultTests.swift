import Foundation
import XCTest

/// The state directory on a small tmpfs of the test's own (root only: mounting needs it; CI runs as root):
/// a full disk and a read-only file system fail the check with exit 74 and a message that says what to do,
/// lose nothing, and the change is reported once when the disk is usable again.
final class LocalFaultTests: XCTestCase {
    private var mountPoint: String?
    /// Kept until the tmpfs is unmounted: removing the workspace while its state directory is a mount point
    /// fails half-way and left the directory behind.
    private var workspace: Workspace?

    override func tearDown() {
        if let mountPoint { _ = try? shell("umount", mountPoint) }
        workspace = nil
        super.tearDown()
    }

    @discardableResult
    private func shell(_ arguments: String...) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A workspace whose XDG_STATE_HOME is a 2 MB tmpfs.
    private func workspaceOnTmpfs(_ sim: Simulator) throws -> (Workspace, String) {
        try XCTSkipUnless(getuid() == 0, "mounting a tmpfs needs root")
        let workspace = try Workspace(serverURL: sim.url)
        let state = workspace.environment["XDG_STATE_HOME"]!
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        XCTAssertEqual(try shell("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", state), 0, "mount a tmpfs")
        mountPoint = state
        self.workspace = workspace
        return (workspace, state)
    }

    func test_diskFull_failsThePoll_losesNothing_andRecovers() throws {
        let sim = try Simulator()
        let (workspace, state) = try workspaceOnTmpfs(sim)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0, "baseline")
        try sim.act("lead", "SAMPL00000001", "Resolve")

        // Fill the file system to the last block.
        let filler = state + "/filler"
        _ = try shell("dd", "if=/dev/zero", "of=\(filler)", "bs=4096")
        let full = try workspace.trackwatch(["check"])
        XCTAssertEqual(full.status, 74, "state unusable: \(full.stderr)")
        XCTAssertTrue(full.stderr.contains("Free some space"), full.stderr)
        XCTAssertFalse(full.stdout.contains("SAMPL00000001"), "a change whose poll was not saved is not reported")

        try FileManager.default.removeItem(atPath: filler)
        let recovered = try workspace.trackwatch(["check"])
        XCTAssertEqual(recovered.status, 0, recovered.stderr)
        XCTAssertEqual(recovered.lines.filter { $0.contains("SAMPL00000001") }.count, 1, recovered.stdout)
        XCTAssertFalse(try workspace.trackwatch(["check"]).stdout.contains("SAMPL00000001"), "reported once")
    }

    func test_readOnlyStateDirectory_failsThePoll_losesNothing_andRecovers() throws {
        let sim = try Simulator()
        let (workspace, state) = try workspaceOnTmpfs(sim)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0, "baseline")
        try sim.act("lead", "SAMPL00000001", "Resolve")

        XCTAssertEqual(try shell("mount", "-o", "remount,ro", state), 0)
        let readOnly = try workspace.trackwatch(["check"])
        XCTAssertEqual(readOnly.status, 74, "state unusable: \(readOnly.stderr)")
        XCTAssertTrue(readOnly.stderr.contains("must be able to write"), readOnly.stderr)
        XCTAssertFalse(readOnly.stdout.contains("SAMPL00000001"))

        XCTAssertEqual(try shell("mount", "-o", "remount,rw", state), 0)
        let recovered = try workspace.trackwatch(["check"])
        XCTAssertEqual(recovered.status, 0, recovered.stderr)
        XCTAssertEqual(recovered.lines.filter { $0.contains("SAMPL00000001") }.count, 1, recovered.stdout)
    }
}
