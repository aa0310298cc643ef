import Foundation
import TestSupport
import XCTest

/// libnotify is opened when a bubble is first needed, not linked: on a machine without it (here, a mount
/// namespace where libnotify.so.4 is an empty file), `check` runs, doctor and notify-test say what to install, and
/// the daemon polls and reports its changes without bubbles.
final class NoLibnotifyTests: XCTestCase {
    /// The installed libnotify.so.4, as the dynamic linker's cache names it.
    private func installedLibnotify() throws -> String {
        let cache = try runProduct("/sbin/ldconfig", ["-p"])
        // This machine's own architecture, not a multiarch copy beside it (i386).
        #if arch(x86_64)
        let tag = "x86-64"
        #elseif arch(arm64)
        let tag = "AArch64"
        #else
        throw XCTSkip("no ldconfig tag known for this architecture")
        #endif
        let line = cache.lines.first { $0.contains("\tlibnotify.so.4 (") && $0.contains(tag) }
        return try XCTUnwrap(line?.components(separatedBy: " => ").last, "libnotify4 is not installed: \(cache.stdout)")
    }

    /// `arguments` (a trackwatch command line) in a private mount namespace where `library` reads as empty.
    private func withoutLibnotify(_ library: String, _ arguments: [String]) -> [String] {
        ["-m", "/bin/sh", "-c", #"mount --bind /dev/null "$0" && exec "$@""#, library,
         productsDirectory.appendingPathComponent("trackwatch").path] + arguments
    }

    func test_withoutLibnotify_checkRuns_doctorAndNotifyTestSaySo_andTheDaemonStillReports() throws {
        guard getuid() == 0 else { throw XCTSkip("a private mount namespace needs root") }
        let library = try installedLibnotify()
        let bus = try SessionBus.shared.get()
        try bus.startNotificationServer()
        defer { bus.stopServers() }
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let environment = workspace.environment.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 }
        let config = ["--config", workspace.configPath]

        let check = try runProduct("/usr/bin/unshare", withoutLibnotify(library, ["check"] + config), environment: environment)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdout.contains("Baseline"), check.stdout)

        let doctor = try runProduct("/usr/bin/unshare", withoutLibnotify(library, ["doctor"] + config), environment: environment)
        XCTAssertTrue(doctor.stdout.contains("✘ desktop notifications: libnotify.so.4 cannot be opened ("), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("install libnotify4"), doctor.stdout)
        XCTAssertFalse(doctor.stdout.contains("no notification server answers"), doctor.stdout)

        let test = try runProduct("/usr/bin/unshare", withoutLibnotify(library, ["notify-test"]), environment: environment)
        XCTAssertEqual(test.status, 69, test.stdout + test.stderr)
        XCTAssertTrue(test.stdout.contains("✘ no bubbles: libnotify.so.4 cannot be opened ("), test.stdout)

        // The daemon: one warning at start, then polls as ever; its change is reported, and no bubble is sent.
        let notify = try NotifySocket()
        // A file, not a pipe read after the daemon ends: a full pipe would block it.
        let stderrPath = workspace.directory.appendingPathComponent("daemon.stderr").path
        XCTAssertTrue(FileManager.default.createFile(atPath: stderrPath, contents: nil))
        let stderr = try XCTUnwrap(FileHandle(forWritingAtPath: stderrPath))
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        daemon.arguments = withoutLibnotify(library, ["run"] + config)
        var daemonEnvironment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        daemonEnvironment["NOTIFY_SOCKET"] = notify.path
        daemonEnvironment["JOURNAL_STREAM"] = nil
        daemonEnvironment["INVOCATION_ID"] = nil
        daemon.environment = daemonEnvironment
        daemon.standardError = stderr
        try daemon.run()
        defer { stopAndWait(daemon) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") }, "\(notify.messages)")
        try bus.clearCalls()
        try sim.act("lead", "SAMPL00000001", "Resolve")
        notify.poll(daemon, expecting: "1 change;")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        XCTAssertEqual(daemon.terminationStatus, 0)
        let said = try String(contentsOfFile: stderrPath, encoding: .utf8)
        XCTAssertEqual(said.components(separatedBy: "desktop notifications unavailable").count - 1, 1, said)
        XCTAssertTrue(said.contains("libnotify.so.4 cannot be opened"), said)
        XCTAssertTrue(said.contains("SAMPL00000001"), "the change is still told (here on stderr): \(said)")
        XCTAssertEqual(try bus.notifyCalls().count, 0, "no bubble without libnotify")
    }
}
