import Foundation
import XCTest

/// Hostile neighbours: another local user who can write the configuration or the state directory, or plant
/// links and FIFOs there. As root (CI) the other user is uid 65534; files are handed to it with chown.
final class LocalFilesTests: XCTestCase {
    private let nobody: uid_t = 65534

    // MARK: - The configuration (item 6)

    /// A configuration that others can change chooses what trackwatch runs (password_command, opener) and
    /// where the password goes: it is refused with the command that fixes it, exit 78, by every command.
    func test_configurationOthersCanWrite_isRefusedWithTheFix() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let config = workspace.configPath
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0, "a private configuration is used")

        chmod(config, 0o666)
        for arguments in [["check"], ["run"], ["status"]] {
            let refused = try workspace.trackwatch(arguments)
            XCTAssertEqual(refused.status, 78, "\(arguments): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("refusing the configuration \(config): it can be written by others (mode 666)"), refused.stderr)
            XCTAssertTrue(refused.stderr.contains("Run: chmod o-w \(config)"), refused.stderr)
        }
        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertEqual(doctor.status, 1)
        XCTAssertTrue(doctor.stdout.contains("✘ configuration \(config): refusing the configuration"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("    fix: chmod o-w \(config)\n"), doctor.stdout)

        chmod(config, 0o644)
        // The configuration's own directory (apart from the state's, which has rules of its own).
        let directory = workspace.directory.appendingPathComponent("config").path
        let moved = directory + "/config.toml"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try FileManager.default.moveItem(atPath: config, toPath: moved)
        let check = { try runProduct("trackwatch", ["check", "--config", moved], environment: workspace.environment) }
        chmod(directory, 0o777)
        var refused = try check()
        XCTAssertEqual(refused.status, 78, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("refusing the configuration \(moved): \(directory) can be written by others (mode 777)"),
                      refused.stderr)
        XCTAssertTrue(refused.stderr.contains("Run: chmod o-w \(directory)"), refused.stderr)
        chmod(directory, 0o1777)  // sticky, like /tmp: others cannot replace what is yours
        XCTAssertEqual(try check().status, 0)
        chmod(directory, 0o755)
        try FileManager.default.moveItem(atPath: moved, toPath: config)

        // A group that is not yours alone.
        XCTAssertEqual(chown(config, geteuid(), 65534), 0)
        chmod(config, 0o664)
        refused = try workspace.trackwatch(["check"])
        XCTAssertEqual(refused.status, 78, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("it can be written by group (mode 664)") && refused.stderr.contains("chmod go-w \(config)"),
                      refused.stderr)
        chmod(config, 0o644)

        // Reached through a link that lives in a directory others can write: they could point it elsewhere.
        let links = workspace.directory.appendingPathComponent("links").path
        try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: false)
        chmod(links, 0o777)
        try FileManager.default.createSymbolicLink(atPath: links + "/config.toml", withDestinationPath: config)
        let viaLink = try runProduct("trackwatch", ["check", "--config", links + "/config.toml"], environment: workspace.environment)
        XCTAssertEqual(viaLink.status, 78, viaLink.stderr)
        XCTAssertTrue(viaLink.stderr.contains("\(links) can be written by others"), viaLink.stderr)

        try XCTSkipUnless(geteuid() == 0, "handing a file to another user needs root (CI runs as root)")
        XCTAssertEqual(chown(config, nobody, 0), 0)
        refused = try workspace.trackwatch(["check"])
        XCTAssertEqual(refused.status, 78, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("it belongs to uid 65534, not to you (uid 0) or root"), refused.stderr)
        XCTAssertEqual(chown(config, 0, 0), 0)
        try FileManager.default.moveItem(atPath: config, toPath: moved)
        XCTAssertEqual(chown(directory, nobody, 0), 0)
        refused = try check()
        XCTAssertEqual(refused.status, 78, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("\(directory) belongs to uid 65534"), refused.stderr)
        XCTAssertEqual(chown(directory, 0, 0), 0)
    }

    /// `password_file = "password"` means the file next to the configuration, wherever trackwatch starts.
    func test_relativePathsInTheConfiguration_areRelativeToItsDirectory() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let text = try String(contentsOfFile: workspace.configPath, encoding: .utf8)
            .replacingOccurrences(of: "password_file = \"\(workspace.passwordFile)\"", with: "password_file = \"password\"")
        try text.write(toFile: workspace.configPath, atomically: true, encoding: .utf8)
        let elsewhere = try runProduct("/bin/sh", ["-c", "cd / && exec \"$0\" check --config \"$1\"",
                                                   productsDirectory.appendingPathComponent("trackwatch").path, workspace.configPath],
                                       environment: workspace.environment)
        XCTAssertEqual(elsewhere.status, 0, elsewhere.stderr)
        XCTAssertTrue(elsewhere.stdout.contains("Baseline"), elsewhere.stdout)
    }

    // MARK: - URLs (item 10)

    /// Plain http:// to another host is warned about on every start and by doctor; to this machine it is not, and
    /// doctor only confirms that the server is the user's own (LoopbackDoctorTests has the rest).
    func test_plainHTTPToAnotherHost_isWarnedAbout() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)  // http://127.0.0.1:port
        let local = try workspace.trackwatch(["check"])
        XCTAssertEqual(local.status, 0, local.stderr)
        XCTAssertFalse(local.stderr.contains("plain http://"), local.stderr)
        let localDoctor = try workspace.trackwatch(["doctor"]).stdout
        XCTAssertEqual(localDoctor.split(separator: "\n").filter { $0.contains("plain http://") },
                       ["✔ \(sim.url): plain http:// to port \(sim.url.split(separator: ":").last ?? "") of this machine, served by a process of yours"],
                       localDoctor)

        workspace.serverURL = "http://0.0.0.0:9"  // not loopback by the rule; nothing listens: refused at once
        try workspace.writeConfig()
        let remote = try workspace.trackwatch(["check"])
        XCTAssertEqual(remote.status, 69, remote.stderr)
        XCTAssertTrue(remote.stderr.contains("the url is plain http:// to another host: your password, the session token and your records cross the network unencrypted; use https://"),
                      remote.stderr)
        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("⚠ http://0.0.0.0:9: the url is plain http:// to another host"), doctor.stdout)
    }

    /// A full-width digit in the host (`http://１２７.0.0.1:9`) trapped `check`, `doctor` and `run` (SIGILL) in the
    /// loopback rule. Now such a host is simply not this machine: warned about, and unreachable like any other.
    func test_fullWidthDigitsInTheHost_areAnotherHost_neverATrap() throws {
        let workspace = try Workspace(serverURL: "http://１２７.0.0.1:9")
        let check = try workspace.trackwatch(["check"])
        XCTAssertTrue([69, 78].contains(check.status), "an error, not a crash: \(check.status) \(check.stderr)")
        XCTAssertTrue(check.stderr.contains("plain http:// to another host"), check.stderr)
        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertEqual(doctor.status, 1, doctor.stdout + doctor.stderr)
        XCTAssertTrue(doctor.stdout.contains("⚠ http://１２７.0.0.1:9: the url is plain http://"), doctor.stdout)

        let notify = try NotifySocket()
        let daemon = try workspace.startDaemon(notify: notify)
        defer { stopAndWait(daemon) }
        let status = notify.waitFor { $0.hasPrefix("STATUS=") && $0.contains("fail") }
        XCTAssertNotNil(status, "the daemon runs, and reports its failing poll: \(notify.messages)")
        XCTAssertTrue(daemon.isRunning, "no trap")
    }

    /// A password in the URL is refused, and never printed.
    func test_passwordInTheURL_isRefusedWithoutEchoingIt() throws {
        let workspace = try Workspace(serverURL: "https://engineer:Hunter2-x@compass.example.com")
        for arguments in [["check"], ["run"]] {
            let result = try workspace.trackwatch(arguments)
            XCTAssertEqual(result.status, 78, result.stderr)
            XCTAssertTrue(result.stderr.contains("server.url: must not contain a user name or password"), result.stderr)
            XCTAssertFalse(result.stderr.contains("Hunter2") || result.stdout.contains("Hunter2"), result.stderr)
        }
    }

    // MARK: - Credentials (item 11)

    /// Every file trackwatch trusts is held to the configuration's rule (issue 20, item 13). Before, a neighbour
    /// who could write the folder of a shared `ca_file` appended her CA, and one who could write the folder of the
    /// `password_file` replaced it by a link to another of your secrets, which trackwatch then sent as the
    /// password over "verified" TLS; `doctor` showed ✔. Now each is refused, `doctor` names the file and the fix.
    func test_filesTrackwatchTrusts_areHeldToTheConfigurationsRule_andSecretsAreNoLinks() throws {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("tw-files-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let key = scratch + "/tls.key", certificate = scratch + "/tls.pem"
        let openssl = try runProduct("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ])
        XCTAssertEqual(openssl.status, 0, openssl.stderr)
        let sim = try Simulator(["--tls-certificate", certificate, "--tls-key", key])
        let workspace = try Workspace(serverURL: sim.url)
        let shared = workspace.directory.appendingPathComponent("shared").path
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        let ca = shared + "/ca.pem"
        try FileManager.default.copyItem(atPath: certificate, toPath: ca)
        workspace.extraServerLines = ["ca_file = \"\(ca)\""]
        try workspace.writeConfig()
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0, "a ca_file in a folder of your own is used")

        chmod(shared, 0o777)
        for arguments in [["check"], ["run"], ["probe"]] {
            let refused = try workspace.trackwatch(arguments)
            let said = refused.stdout + refused.stderr  // probe reports on stdout
            XCTAssertEqual(refused.status, 78, "\(arguments): \(said)")
            XCTAssertTrue(said.contains("refusing ca_file \(ca): \(shared) can be written by others (mode 777)"), said)
            XCTAssertTrue(said.contains("Run: chmod o-w \(shared)"), said)
        }
        var doctor = try workspace.trackwatch(["doctor"])
        XCTAssertEqual(doctor.status, 1)
        XCTAssertTrue(doctor.stdout.contains("✘ ca_file \(ca): refusing ca_file"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("    fix: chmod o-w \(shared)\n"), doctor.stdout)
        XCTAssertFalse(doctor.stdout.contains("✔ login"), "no login through a CA others could change: \(doctor.stdout)")
        chmod(shared, 0o755)

        // The password file replaced by a link to another of your secrets (against a plain-HTTP server, whose
        // statistics say whether that secret arrived).
        let plain = try Simulator()
        workspace.serverURL = plain.url
        workspace.extraServerLines = []
        try workspace.writeConfig()
        let credentials = scratch + "/git-credentials"
        try Data("https://me:Other-Secret-42@git.example.com\n".utf8).write(to: URL(fileURLWithPath: credentials))
        chmod(credentials, 0o600)
        try FileManager.default.removeItem(atPath: workspace.passwordFile)
        try FileManager.default.createSymbolicLink(atPath: workspace.passwordFile, withDestinationPath: credentials)
        let config = try String(contentsOfFile: workspace.configPath, encoding: .utf8)
        let failuresBefore = try plain.stats()["loginFailures"] as? Int
        let linked = try workspace.trackwatch(["check"])
        XCTAssertEqual(linked.status, 78, linked.stderr)
        XCTAssertTrue(linked.stderr.contains("refusing password_file \(workspace.passwordFile): it is a symbolic link"),
                      linked.stderr)
        doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("✘ password_file \(workspace.passwordFile): refusing password_file"),
                      doctor.stdout)
        XCTAssertEqual(try plain.stats()["loginFailures"] as? Int, failuresBefore, "the other secret never reached it")
        try FileManager.default.removeItem(atPath: workspace.passwordFile)
        try config.write(toFile: workspace.configPath, atomically: false, encoding: .utf8)

        // A password file in a folder a group that is not yours alone can write.
        let team = workspace.directory.appendingPathComponent("team").path
        try FileManager.default.createDirectory(atPath: team, withIntermediateDirectories: false)
        try Data("engineer\n".utf8).write(to: URL(fileURLWithPath: team + "/password"))
        chmod(team + "/password", 0o600)
        XCTAssertEqual(chown(team, geteuid(), 65534), 0)
        chmod(team, 0o770)
        try config.replacingOccurrences(of: workspace.passwordFile, with: team + "/password")
            .write(toFile: workspace.configPath, atomically: false, encoding: .utf8)
        let group = try workspace.trackwatch(["check"])
        XCTAssertEqual(group.status, 78, group.stderr)
        XCTAssertTrue(group.stderr.contains("refusing password_file \(team)/password: \(team) can be written by group"),
                      group.stderr)
        XCTAssertTrue(group.stderr.contains("Run: chmod go-w \(team)"), group.stderr)
        chmod(team, 0o750)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0, "a folder the group may only read is fine")

        try XCTSkipUnless(geteuid() == 0, "handing a file to another user needs root (CI runs as root)")
        workspace.serverURL = sim.url
        workspace.extraServerLines = ["ca_file = \"\(ca)\""]
        try workspace.writeConfig()
        XCTAssertEqual(chown(ca, nobody, 0), 0)
        let foreign = try workspace.trackwatch(["check"])
        XCTAssertEqual(foreign.status, 78, foreign.stderr)
        XCTAssertTrue(foreign.stderr.contains("refusing ca_file \(ca): it belongs to uid 65534"), foreign.stderr)
        doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("    fix: chown 0 \(ca) (as root), or use a file of your own\n"),
                      doctor.stdout)
    }

    /// A FIFO in place of a credential used to block the read forever; now it is refused at once.
    func test_credentialThatIsAFIFO_isRefusedAtOnce() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let credentials = workspace.directory.appendingPathComponent("credentials").path
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: false)
        XCTAssertEqual(mkfifo(credentials + "/compass", 0o600), 0)
        let text = try String(contentsOfFile: workspace.configPath, encoding: .utf8)
            .replacingOccurrences(of: "password_file = \"\(workspace.passwordFile)\"", with: "credential = \"compass\"")
        try text.write(toFile: workspace.configPath, atomically: true, encoding: .utf8)
        let started = Date()
        let result = try runProduct("trackwatch", ["check", "--config", workspace.configPath],
                                    environment: workspace.environment.merging(["CREDENTIALS_DIRECTORY": credentials]) { _, new in new },
                                    timeout: 20)
        XCTAssertEqual(result.status, 77, result.stderr)
        XCTAssertTrue(result.stderr.contains("credential \(credentials)/compass is not a regular file"), result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    // MARK: - The state directory (item 7)

    /// XDG_STATE_HOME on a directory everyone may write, where another user planted
    /// `trackwatch/trackwatch.lock -> ~/victim`: trackwatch refuses (exit 74) and the victim is untouched —
    /// whether the planted `trackwatch` directory is theirs, or yours but left writable (trackwatch makes it
    /// private and still refuses the link).
    func test_plantedLockLink_inASharedStateHome_leavesTheVictimUntouched() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let victim = workspace.directory.appendingPathComponent("victim").path
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        let shared = workspace.environment["XDG_STATE_HOME"]!
        try FileManager.default.createDirectory(atPath: shared + "/trackwatch", withIntermediateDirectories: true)
        chmod(shared, 0o1777)
        chmod(shared + "/trackwatch", 0o777)
        try FileManager.default.createSymbolicLink(atPath: shared + "/trackwatch/trackwatch.lock", withDestinationPath: victim)

        // Yours but world-writable: made private, the link refused.
        var result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("trackwatch.lock in it is a symbolic link"), result.stderr)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")
        XCTAssertEqual(try mode(shared + "/trackwatch"), 0o700, "tightened")
        XCTAssertFalse(FileManager.default.fileExists(atPath: shared + "/trackwatch/state.sqlite"), "nothing written there")

        // The daemon the same.
        result = try workspace.trackwatch(["run"])
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")

        try XCTSkipUnless(geteuid() == 0, "planting as another user needs root (CI runs as root)")
        chmod(shared + "/trackwatch", 0o777)
        XCTAssertEqual(lchown(shared + "/trackwatch/trackwatch.lock", nobody, nobody), 0)
        XCTAssertEqual(chown(shared + "/trackwatch", nobody, nobody), 0)
        result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("refusing the state directory \(shared)/trackwatch: it belongs to uid 65534"), result.stderr)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")
        for arguments in [["status"], ["log"]] {
            XCTAssertEqual(try workspace.trackwatch(arguments).status, 74, "\(arguments) reads no state another user controls")
        }
    }

    /// Links instead of the state directory, a server profile's directory, or the database are refused; a
    /// state home others may write without the sticky bit too (they could swap the directory).
    func test_symlinkedStateDirectories_andAnUnsafeStateHome_areRefused() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let home = workspace.environment["XDG_STATE_HOME"]!
        let elsewhere = workspace.directory.appendingPathComponent("elsewhere").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)

        try FileManager.default.createSymbolicLink(atPath: home + "/trackwatch", withDestinationPath: elsewhere)
        var result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("refusing the state directory \(home)/trackwatch: it is a symbolic link"), result.stderr)
        try FileManager.default.removeItem(atPath: home + "/trackwatch")

        // A database link in a directory of yours.
        try FileManager.default.createDirectory(atPath: home + "/trackwatch", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: home + "/trackwatch/state.sqlite", withDestinationPath: elsewhere + "/db")
        result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("state.sqlite in it is a symbolic link"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: elsewhere + "/db"))
        try FileManager.default.removeItem(atPath: home + "/trackwatch/state.sqlite")

        // A [[server]] profile's directory.
        workspace.customConfig = """
            [[server]]
            name = "prod"
            url = "\(sim.url)"
            repo = "2.0.0"
            database = "SAMPL"
            username = "engineer"
            password_file = "\(workspace.passwordFile)"
            """
        try workspace.writeConfig()
        try FileManager.default.createDirectory(atPath: home + "/trackwatch/servers", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: home + "/trackwatch/servers/prod", withDestinationPath: elsewhere)
        result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("refusing the state directory \(home)/trackwatch/servers/prod: it is a symbolic link"),
                      result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), [], "nothing written through the link")
        try FileManager.default.removeItem(atPath: home + "/trackwatch/servers/prod")
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0, "a real directory is used")

        chmod(home, 0o777)
        result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(home) above it can be written by others (mode 777)"), result.stderr)
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1) & 0o7777
    }
}
