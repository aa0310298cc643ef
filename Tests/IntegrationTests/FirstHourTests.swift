import Foundation
import XCTest

/// The source tree (for VERSION, CHANGELOG.md, scripts/, systemd/).
let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// What a new user meets first: the version, a broken configuration, a machine without a desktop or journald.
final class FirstHourTests: XCTestCase {
    func test_version_isTheVERSIONFile_andTheNewestChangelogEntry() throws {
        let version = try String(contentsOf: sourceRoot.appendingPathComponent("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let printed = try runProduct("trackwatch", ["--version"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertEqual(printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines), version)

        // The newest "## x.y.z" header of CHANGELOG.md is the release being made: the same version.
        let changelog = try String(contentsOf: sourceRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }.map { $0.dropFirst(3) }
        let newestVersion = newest?.split(separator: " ").first.map(String.init)
        XCTAssertEqual(newestVersion, version,
                       "CHANGELOG.md's newest entry is \"## \(newest ?? "")\"; VERSION says \(version): give both the same version")
        // The README's install commands name the package `make deb` builds.
        let readme = try String(contentsOf: sourceRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for name in readme.split(whereSeparator: { $0 == " " || $0 == "\n" }) where name.contains("trackwatch_") && name.hasSuffix(".deb") {
            XCTAssertTrue(name.hasSuffix("trackwatch_\(version)-1_amd64.deb"), "README.md names \(name); VERSION is \(version)")
        }
    }

    func test_run_withABadConfiguration_saysSoOnce_andCreatesNothing() throws {
        let workspace = try Workspace(serverURL: "http://127.0.0.1:9")
        try "[server]\nurl = https://compass.example.com:8190\n".write(toFile: workspace.configPath, atomically: false, encoding: .utf8)
        let run = try runProduct("trackwatch", ["run", "--config", workspace.configPath],
                                 environment: workspace.environment.merging(["JOURNAL_STREAM": ""]) { $1 })
        XCTAssertEqual(run.status, 78, run.stderr)
        XCTAssertEqual(run.stderr.components(separatedBy: "quote the value").count - 1, 1, "said once: \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("config.toml:2:"), run.stderr)
        let state = workspace.environment["XDG_STATE_HOME"]!
        XCTAssertFalse(FileManager.default.fileExists(atPath: state),
                       "a configuration error created \(state): \((try? FileManager.default.subpathsOfDirectory(atPath: state)) ?? [])")
    }

    /// A first run without a configuration points at the example where the package (or the source) has it.
    func test_missingConfiguration_saysWhereTheExampleIs() throws {
        let missing = try runProduct("trackwatch", ["check", "--config", "/nonexistent/config.toml"])
        XCTAssertEqual(missing.status, 78, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("/usr/share/doc/trackwatch/config.example.toml"), missing.stderr)
        XCTAssertTrue(missing.stderr.contains("uncomment your tracker's table ([[github]], [[gitlab]], [[jira]], [[qase]], "
                                              + "[[json]], or [server] for HCL Compass)"), missing.stderr)
        // doctor's fix for it is the copy, not a line and key that do not exist.
        let doctor = try runProduct("trackwatch", ["doctor", "--config", "/nonexistent/config.toml"])
        XCTAssertEqual(doctor.status, 1, doctor.stdout + doctor.stderr)
        XCTAssertTrue(doctor.stdout.contains("fix: copy the example named above to /nonexistent/config.toml"), doctor.stdout)
        // … and points to a section that exists (issue 32.11).
        XCTAssertTrue(doctor.stdout.contains("README.md, section Set up"), doctor.stdout)
        let readme = try String(contentsOf: sourceRoot.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("\n## Set up\n"), "doctor names README.md's section Set up")
        XCTAssertFalse(doctor.stdout.contains("correct the line and key"), doctor.stdout)
    }

    /// With no notification server, the daemon says where changes still go — the journal only where journald
    /// runs (libsystemd drops entries silently where it does not).
    func test_daemon_withoutANotificationServer_saysTruthfullyWhereChangesGo() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let notify = try NotifySocket()
        let stderr = Pipe()
        let process = try workspace.startDaemon(notify: notify, stderr: stderr)
        defer { stopAndWait(process) }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") }, "\(notify.messages)")
        try sim.act("lead", "SAMPL00000001", "Resolve")
        notify.poll(process, expecting: "1 change;")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let line = log.split(separator: "\n").first { $0.contains("desktop notifications unavailable") }.map(String.init)
        XCTAssertNotNil(line, log)
        if access("/run/systemd/journal/socket", W_OK) == 0 {
            XCTAssertTrue(line?.contains("changes are still journaled") == true, line ?? log)
        } else {
            XCTAssertFalse(line?.contains("journaled") == true, "no journald runs here: \(line ?? log)")
            XCTAssertTrue(line?.contains("no journald runs either") == true && line?.contains("trackwatch log") == true, line ?? log)
        }
    }
}
