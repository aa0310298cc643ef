import CompassClient
import Foundation
import TrackerHTTP
import TestSupport
import XCTest

/// A recognisable secret goes in; it must come out nowhere: not in output or logs (even verbose), not in the
/// state database, not in the daemon's command line or environment.
final class SecretsTests: XCTestCase {
    private let secret = "S3cr3t-PAT-7f1c9e"

    func test_token_neverLeavesMemory() throws {
        let sim = try Simulator(["--pat", "engineer=\(secret)"])
        let workspace = try Workspace(serverURL: sim.url)
        let tokenFile = workspace.directory.appendingPathComponent("token")
        try Data("\(secret)\n".utf8).write(to: tokenFile)
        chmod(tokenFile.path, 0o600)
        workspace.extraServerLines = []
        try workspace.writeConfig()
        let config = try String(contentsOfFile: workspace.configPath, encoding: .utf8)
            .replacingOccurrences(of: "password_file = \"\(workspace.directory.path)/password\"", with: "token_file = \"\(tokenFile.path)\"")
        try config.write(toFile: workspace.configPath, atomically: false, encoding: .utf8)

        let seen = try everythingTrackwatchWrote(sim, workspace)
        for (index, text) in seen.enumerated() {
            XCTAssertFalse(text.contains(secret), "the token leaked into output #\(index)")
        }
    }

    /// A token file with a stray carriage return (`\r\r\n`, a file converted twice) put `invalidHeaderFieldValues(
    /// ["Basic <the token>\r"])` on stderr and into `status`. Now a secret is trimmed when read, and one that still
    /// holds a control character is a credentials error naming the file, never the value.
    func test_tokenWithAStrayCarriageReturn_isTrimmed_orRefusedByItsFileName() throws {
        let sim = try Simulator(["--pat", "engineer=\(secret)"])
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.usePersonalAccessToken(secret)
        let tokenFile = workspace.directory.appendingPathComponent("token").path
        try Data("\(secret)\r\r\n".utf8).write(to: URL(fileURLWithPath: tokenFile))
        let trimmed = try workspace.trackwatch(["check"])
        XCTAssertEqual(trimmed.status, 0, "line endings around a secret are not part of it: \(trimmed.stderr)")

        try Data("\(secret)\rsecond-part\n".utf8).write(to: URL(fileURLWithPath: tokenFile))
        let refused = try workspace.trackwatch(["check"])
        XCTAssertEqual(refused.status, 77, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("token_file \(tokenFile) holds a control character"), refused.stderr)
        let status = try workspace.trackwatch(["status"])
        let state = workspace.directory.appendingPathComponent("xdg-state/trackwatch")
        var seen = [refused.stdout, refused.stderr, status.stdout, status.stderr]
        for name in try FileManager.default.contentsOfDirectory(atPath: state.path) {
            seen.append(String(decoding: try Data(contentsOf: state.appendingPathComponent(name)), as: UTF8.self))
        }
        for (index, text) in seen.enumerated() {
            XCTAssertFalse(text.contains(secret) || text.contains("second-part"), "the token leaked into #\(index)")
        }
    }

    /// A password from a `password_command`, and the session tokens Compass issued for it: in none of the
    /// places above, nor in the arguments or environment of the password program.
    func test_passwordAndSessionTokens_neverLeaveMemory() throws {
        let password = "pw-Q8z-51c3e9"
        let sim = try Simulator(["--password", "engineer=\(password)"])
        let workspace = try Workspace(serverURL: sim.url)
        let record = workspace.directory.appendingPathComponent("password-command-saw")
        let command = workspace.directory.appendingPathComponent("password.sh")
        try Data("#!/bin/sh\nprintf 'args: %s\\n' \"$0 $*\" >> '\(record.path)'\nenv >> '\(record.path)'\nprintf '%s\\n' '\(password)'\n".utf8)
            .write(to: command)
        chmod(command.path, 0o700)
        let config = try String(contentsOfFile: workspace.configPath, encoding: .utf8)
            .replacingOccurrences(of: "password_file = \"\(workspace.directory.path)/password\"", with: "password_command = \"\(command.path)\"")
        try config.write(toFile: workspace.configPath, atomically: false, encoding: .utf8)

        var seen = try everythingTrackwatchWrote(sim, workspace)
        seen.append(try String(contentsOf: record, encoding: .utf8))
        XCTAssertTrue(seen.last?.contains("args: ") == true, "the password program ran")
        let response = try AsyncHTTPTransport().sendWaiting(HTTPRequest(method: .get, url: sim.url + "/ccmweb/sim/tokens", timeout: 10))
        let tokens = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String] ?? []
        XCTAssertGreaterThanOrEqual(tokens.count, 3, "check, check, daemon: each logged in")
        for (index, text) in seen.enumerated() {
            XCTAssertFalse(text.contains(password), "the password leaked into output #\(index)")
            for token in tokens {
                XCTAssertFalse(text.contains(token), "a session token leaked into output #\(index)")
                // The signature part alone is what makes a token usable.
                XCTAssertFalse(text.contains(String(token.split(separator: ".").last ?? "")), "a token's signature leaked into output #\(index)")
            }
        }
    }

    /// Runs `check -v`, `check -v --json`, `status --json`, and the verbose daemon through a poll that
    /// reports a change; returns every output, log, the state files, and the daemon's command line and
    /// environment.
    private func everythingTrackwatchWrote(_ sim: Simulator, _ workspace: Workspace) throws -> [String] {
        var seen: [String] = []
        for arguments in [["check", "-v"], ["check", "-v", "--json"], ["status", "--json"]] {
            let result = try workspace.trackwatch(arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            seen += [result.stdout, result.stderr]
        }
        try sim.act("lead", "SAMPL00000001", "Resolve")

        // The daemon, verbose, with a poll that reports a change.
        let notify = try NotifySocket()
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("trackwatch")
        process.arguments = ["run", "-v", "--config", workspace.configPath]
        var env = ProcessInfo.processInfo.environment.merging(workspace.environment) { _, new in new }
        env["NOTIFY_SOCKET"] = notify.path
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        process.environment = env
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = stderr
        try process.run()
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains("1 change") }, "\(notify.messages)")
        for file in ["cmdline", "environ"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(process.processIdentifier)/\(file)"))
            seen.append(String(decoding: data, as: UTF8.self))
        }
        process.terminate()
        process.waitUntilExit()
        seen.append(String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))

        let state = workspace.directory.appendingPathComponent("xdg-state/trackwatch")
        for name in try FileManager.default.contentsOfDirectory(atPath: state.path) {
            seen.append(String(decoding: try Data(contentsOf: state.appendingPathComponent(name)), as: UTF8.self))
        }
        XCTAssertTrue(seen.joined().contains("SAMPL00000001 resolved by lead"), "the run really reported the change")
        return seen
    }

    /// `keyring = true` against a real Secret Service: gnome-keyring-daemon in a private D-Bus session, filled
    /// with `secret-tool store` as the README says.
    func test_keyring_passwordComesFromTheSecretService() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/gnome-keyring-daemon")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/secret-tool"), "gnome-keyring and libsecret-tools (scripts/install-deps.sh)")
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let config = try String(contentsOfFile: workspace.configPath, encoding: .utf8)
            .replacingOccurrences(of: "password_file = \"\(workspace.directory.path)/password\"", with: "keyring = true")
        try config.write(toFile: workspace.configPath, atomically: false, encoding: .utf8)
        let home = workspace.directory.appendingPathComponent("home").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let trackwatch = productsDirectory.appendingPathComponent("trackwatch").path
        func inKeyringSession(store: Bool) throws -> RunResult {
            let storeLine = store
                ? "printf engineer | secret-tool store --label=trackwatch service trackwatch server '\(sim.url)' user engineer || exit 90"
                : ":"
            let script = """
                printf unlock | gnome-keyring-daemon --unlock --components=secrets > /dev/null || exit 91
                \(storeLine)
                exec '\(trackwatch)' check --config '\(workspace.configPath)'
                """
            return try runProduct("/usr/bin/dbus-run-session", ["--", "/bin/sh", "-c", script],
                                  environment: workspace.environment.merging(["HOME": home]) { _, new in new })
        }
        let missing = try inKeyringSession(store: false)
        XCTAssertEqual(missing.status, 77, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("no password stored for service trackwatch server \(sim.url) user engineer"), missing.stderr)
        XCTAssertTrue(missing.stderr.contains("secret-tool store --label=trackwatch service trackwatch"), missing.stderr)

        let stored = try inKeyringSession(store: true)
        XCTAssertEqual(stored.status, 0, stored.stderr)
        XCTAssertTrue(stored.stdout.contains("Baseline: watching"), stored.stdout)
    }
}
