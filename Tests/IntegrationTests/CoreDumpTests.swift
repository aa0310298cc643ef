import Foundation
import XCTest

/// A crash must not write the password or a session token to disk (item 8): trackwatch makes itself
/// non-dumpable and sets RLIMIT_CORE to 0 before anything else, whatever `ulimit -c` says.
final class CoreDumpTests: XCTestCase {
    private var savedCorePattern: String?
    private let corePatternFile = "/proc/sys/kernel/core_pattern"

    override func tearDown() {
        if let savedCorePattern { try? savedCorePattern.write(toFile: corePatternFile, atomically: false, encoding: .utf8) }
        super.tearDown()
    }

    /// `ulimit -c unlimited`, a core pattern that writes into the test's directory, and a crash (a Swift trap
    /// through `TRACKWATCH_FAILPOINT=crash-after-poll`) after a poll that logged in with a recognisable
    /// password: no core file. A shell crashing the same way in the same place proves cores are written there.
    func test_crashAfterLogin_leavesNoCoreFile() throws {
        try useCoreFilesInWorkingDirectory()
        let password = "pw-core-\(UUID().uuidString.prefix(8))"
        let sim = try Simulator(["--password", "engineer=\(password)"])
        let workspace = try Workspace(serverURL: sim.url)
        try Data("\(password)\n".utf8).write(to: URL(fileURLWithPath: workspace.passwordFile))
        let cores = workspace.directory.appendingPathComponent("cores").path
        try FileManager.default.createDirectory(atPath: cores, withIntermediateDirectories: false)

        let control = try runProduct("/bin/sh", ["-c", "ulimit -c unlimited && cd \"$0\" && sh -c 'kill -SEGV $$'", cores])
        XCTAssertNotEqual(control.status, 0)
        let controlCores = try FileManager.default.contentsOfDirectory(atPath: cores)
        XCTAssertFalse(controlCores.isEmpty, "a crashing shell must leave a core here, or this test proves nothing")
        for name in controlCores { try FileManager.default.removeItem(atPath: cores + "/" + name) }

        let trackwatch = productsDirectory.appendingPathComponent("trackwatch").path
        let crash = try runProduct("/bin/sh", ["-c", "ulimit -c unlimited && cd \"$1\" && exec \"$0\" run --config \"$2\"",
                                               trackwatch, cores, workspace.configPath],
                                   environment: workspace.environment.merging([
                                       "TRACKWATCH_FAILPOINT": "crash-after-poll", "NOTIFY_SOCKET": "",
                                       "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus", "JOURNAL_STREAM": "",
                                   ]) { _, new in new }, timeout: 90)
        XCTAssertTrue(crash.stderr.contains("crash-after-poll"), "the failpoint crashed it after a poll: \(crash.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: cores)
        let withSecret = try left.filter { try Data(contentsOf: URL(fileURLWithPath: cores + "/" + $0)).firstRange(of: Data(password.utf8)) != nil }
        XCTAssertEqual(left, [], "core files after the crash; holding the password: \(withSecret)")
    }

    /// Swift's crash report prints the registers and 16 bytes of memory behind each, which may be a piece of the
    /// password. The unit sets `SWIFT_BACKTRACE=registers=none`; a command started from a shell must do the same
    /// on its own. A trap after login, with no `SWIFT_BACKTRACE` in the environment: a backtrace, no registers.
    func test_crashReportFromTheCommandLine_showsNoRegistersOrMemory() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let environment = workspace.environment.merging([
            "TRACKWATCH_FAILPOINT": "crash-after-poll", "NOTIFY_SOCKET": "", "SWIFT_BACKTRACE": "",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus", "JOURNAL_STREAM": "",
        ]) { _, new in new }
        let crash = try runProduct("trackwatch", ["run", "--config", workspace.configPath], environment: environment,
                                   timeout: 90)
        XCTAssertTrue(crash.stderr.contains("crash-after-poll"), "the failpoint crashed it: \(crash.stderr)")
        XCTAssertTrue(crash.stderr.contains("Program crashed"), "a crash report, still: \(crash.stderr)")
        XCTAssertFalse(crash.stderr.contains("Registers:"), "no register dump: \(crash.stderr.suffix(2_000))")
        let memory = #"\n\s*r[a-z0-9]+ 0x[0-9a-f]{16}  [0-9a-f]{2} "#  // `rbp 0x00007f… 70 f8 49 …`
        XCTAssertNil(crash.stderr.range(of: memory, options: .regularExpression), "no memory behind a register")
    }

    /// The same from outside a running daemon, without relying on the core pattern: run as another user
    /// (uid 65534), an undumpable process's /proc/PID/environ belongs to root, not to that user; and its core
    /// size limit is 0.
    func test_runningDaemon_isUndumpable_withCoreLimitZero() throws {
        try XCTSkipUnless(geteuid() == 0, "running the daemon as another user needs root (CI runs as root)")
        let nobody: uid_t = 65534
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        XCTAssertEqual(chown(workspace.passwordFile, nobody, nobody), 0)
        let stateHome = workspace.environment["XDG_STATE_HOME"]!
        try FileManager.default.createDirectory(atPath: stateHome, withIntermediateDirectories: false)
        XCTAssertEqual(chown(stateHome, nobody, nobody), 0)
        let notify = try NotifySocket()
        chmod(notify.path, 0o777)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups",
                             productsDirectory.appendingPathComponent("trackwatch").path, "run", "--config", workspace.configPath]
        var environment = ProcessInfo.processInfo.environment.merging(workspace.environment) { _, new in new }
        environment["NOTIFY_SOCKET"] = notify.path
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        environment["JOURNAL_STREAM"] = nil
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") }, "the daemon runs as uid 65534: \(notify.messages)")

        var info = stat()
        XCTAssertEqual(stat("/proc/\(process.processIdentifier)/environ", &info), 0)
        XCTAssertEqual(info.st_uid, 0, "an undumpable process's /proc files belong to root")
        let limits = try String(contentsOfFile: "/proc/\(process.processIdentifier)/limits", encoding: .utf8)
        let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }.map(String.init) ?? ""
        XCTAssertTrue(core.range(of: #"^Max core file size\s+0\s+0\s"#, options: .regularExpression) != nil, core)
    }

    /// Makes the kernel write core files as `core` into the crashing process's working directory, if it does
    /// not already (as root the pattern is changed for the test and restored in tearDown).
    private func useCoreFilesInWorkingDirectory() throws {
        let pattern = (try? String(contentsOfFile: corePatternFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard pattern.hasPrefix("|") || pattern.hasPrefix("/") else { return }
        try XCTSkipUnless(geteuid() == 0, "core_pattern is \(pattern); setting it to write into the test directory needs root")
        do {
            try "core".write(toFile: corePatternFile, atomically: false, encoding: .utf8)
            savedCorePattern = pattern
        } catch {
            throw XCTSkip("core_pattern is \(pattern) and cannot be changed here (\(error)); test_runningDaemon_isUndumpable… holds item 8")
        }
    }
}
