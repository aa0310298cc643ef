import ArgumentParser
import DesktopNotifier
import Logging
import SourceKit
import StateStore
import SystemdIntegration
import TrackwatchApp
import TrackwatchCore
#if canImport(Glibc)
import Glibc
#endif

struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the whole setup and say how to fix what is wrong.",
        discussion: """
            Checks, in order: the configuration file, each source's password or token and server (reachable, \
            login, query support), the state directory, the session bus, the notification server, the desktop \
            entry and the icon, the journal, the user unit (installed, enabled, watchdog). Prints ✔ for what \
            works, ⚠ for what works with a caveat \
            and ✘ with the fix for what does not. Exit status 0 when nothing is ✘, 1 otherwise. Safe while the \
            daemon runs: it changes nothing.
            """)

    @OptionGroup var options: ConfigOptions

    func run() throws {
        var report = DoctorReport()
        let logger = Logger(label: "trackwatch") { _ in SwiftLogNoOpLogHandler() }
        let paths = options.paths()
        let configPath = options.config ?? paths.configFile

        // Configuration, credentials, server.
        let config = report.check("configuration \(configPath)", { try loadConfig(path: configPath) }, fix: { error in
            if let untrusted = error as? UntrustedFile { return untrusted.fix }
            if (error as? ConfigFileError)?.missing == true {
                return "copy the example named above to \(configPath) and uncomment your tracker's table (each "
                    + "tracker's minimal table is in README.md, section Set up, also in /usr/share/doc/trackwatch/)"
            }
            return "correct the line and key named above (etc/config.example.toml documents every key)"
        })
        if let config {
            let context = DiagnosisContext(
                poll: config.poll, environment: environment, logger: logger,
                secret: { try loadSecret($0, environment: environment) }, wallClock: SystemClocks.wallTime)
            for source in config.sources {
                // Nothing is read from, or sent because of, a file another user could have changed.
                guard checkFiles(of: source, report: &report) else {
                    report.skip("secret and server of \(source.label) (a file it reads is refused above)")
                    continue
                }
                for factory in SourceRegistry.factories {
                    // A command's thread waits: nothing else runs meanwhile.
                    if let found = try waitForTask({ await factory.diagnose(source, context: context) }) {
                        report.append(found)
                    }
                }
                LoopbackCheck.run(source, report: &report)
            }
        } else {
            report.skip("password source and server (need the configuration)")
        }

        // State: looked at, never created (doctor changes nothing).
        let root = paths.stateDirectory
        let sources = config?.sources ?? []
        for state in sources.isEmpty ? [root] : sources.map({ SourceSession.stateDirectory(of: $0, in: root) }) {
            let database = state + "/" + StateStore.fileName
            var info = stat()
            if lstat(state, &info) == 0, report.check("state directory \(state) (yours, private, no links)", {
                try checkStateDirectory(state)
            }, fix: { ($0 as? StateDirectoryError)?.fix ?? "make \(state) a directory of yours: chmod 700 \(state)" }) == nil {
                continue
            }
            if access(database, F_OK) != 0 {
                report.warn("state directory \(state) has no state yet: the first `trackwatch check` or the daemon creates it")
            } else if report.check("state database \(database)", { try StateStore(path: database).status() },
                                   fix: "make \(database) yours and readable (chmod 600), or move it aside: the next poll starts a new baseline") != nil, access(state, W_OK) != 0 {
                report.fail("state directory \(state) is not writable", fix: "chmod u+w \(state)")
            } else if let slow = Self.slowness(database) {
                report.warn(slow)
            }
        }

        // Desktop.
        let bus = environment["DBUS_SESSION_BUS_ADDRESS"] ?? environment["XDG_RUNTIME_DIR"].map { "unix:path=\($0)/bus" }
        if let bus, Self.busSocketExists(bus) {
            report.pass("session bus \(bus)")
            do {
                let notifier = try DesktopNotifier(logger: logger)
                if let server = notifier.serverInformation(timeout: 10) {
                    report.pass("notification server \(server.name) \(server.version) (\(server.vendor))")
                    if !server.capabilities.contains("actions") {
                        report.warn("the notification server has no action buttons: Open and Mute are not offered")
                    }
                    if !server.capabilities.contains("body-markup") { report.warn("the notification server shows plain text only") }
                } else {
                    report.fail("no notification server answers on the session bus",
                                fix: "run in your desktop session, or start a notification daemon (dunst, mako); changes still reach the journal")
                }
            } catch {
                report.fail("desktop notifications: \(error)", fix: "then restart trackwatch (systemctl --user restart trackwatch)")
            }
        } else {
            report.fail("no session bus (\(bus ?? "DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR unset"))",
                        fix: "run trackwatch in your desktop session (systemctl --user sets the bus for the unit)")
        }
        DesktopChecks.run(&report, environment: environment)
        if access(Journal.socketPath, W_OK) == 0 {
            report.pass("journal socket \(Journal.socketPath)")
        } else {
            report.fail("no journal socket at \(Journal.socketPath)", fix: "systemd-journald must run; changes are then only in `trackwatch log`")
        }

        // The unit.
        let unitPaths = [environment["XDG_CONFIG_HOME"].map { "\($0)/systemd/user" } ?? expandTilde("~/.config/systemd/user", environment: environment),
                         "/etc/systemd/user", "/usr/local/lib/systemd/user", "/usr/lib/systemd/user"].map { "\($0)/trackwatch.service" }
        if let unit = unitPaths.first(where: { access($0, R_OK) == 0 }) {
            report.pass("user unit \(unit)")
            // What the manager applies, drop-ins included; the file's own line when no manager answers.
            let text = (try? String(contentsOfFile: unit, encoding: .utf8)) ?? ""
            let watchdog = Self.systemctl(["--user", "show", "-p", "WatchdogUSec", "--value", "trackwatch"])
                ?? text.split(separator: "\n").first { $0.hasPrefix("WatchdogSec=") }.map { String($0.dropFirst("WatchdogSec=".count)) }
            if let watchdog, !["0", "infinity", ""].contains(watchdog) {
                report.pass("watchdog: WatchdogSec=\(watchdog)")
            } else {
                report.warn("the unit sets no watchdog (WatchdogSec=\(watchdog ?? "")): a hung daemon is not restarted (the shipped unit has 3min)")
            }
            if let config { checkSandboxShows(config, configPath: configPath, unitText: text, report: &report) }
            switch Self.systemctl(["--user", "is-enabled", "trackwatch"]) {
            case "enabled"?: report.pass("unit enabled")
            case let state?: report.fail("unit \(state)", fix: "systemctl --user enable --now trackwatch")
            case nil: report.warn("cannot ask the user manager whether the unit is enabled (no systemctl --user here)")
            }
        } else {
            report.fail("user unit trackwatch.service not installed", fix: "make install, then systemctl --user enable --now trackwatch")
        }

        report.lines.forEach(Console.line)
        if report.failed { throw ExitCode(1) }
    }

    /// Each file the source reads, held to the configuration's rule (`FileTrust`): ✘ with the fix for one that
    /// another user could change. False when any is refused.
    private func checkFiles(of source: any SourceSettings, report: inout DoctorReport) -> Bool {
        var trusted = true
        for (key, path) in source.files {
            let path = expandTilde(path, environment: environment)
            let checked: Void? = report.check(
                "\(key) \(path)", { try FileTrust.checkFile(key: key, path: path) },
                fix: { ($0 as? UntrustedFile)?.fix ?? "make \(path) a file of yours that only you can change (chmod 600), not a link" })
            trusted = trusted && checked != nil
        }
        return trusted
    }

    /// The unit hides the home directory (ProtectHome=tmpfs) but for what it binds: a file the daemon needs
    /// elsewhere under it is missing in the daemon (✘, with the drop-in line that shows it).
    private func checkSandboxShows(_ config: Config, configPath: String, unitText: String, report: inout DoctorReport) {
        guard let home = environment["HOME"], home != "/" else { return }
        var files: [(key: String, path: String)] = options.config == nil ? [("configuration", configPath)] : []
        for source in config.sources { files += source.files }
        // What the manager applies, drop-ins included; the unit file's own lines when no manager answers.
        let applied = ["BindReadOnlyPaths", "BindPaths"].compactMap {
            Self.systemctl(["--user", "show", "-p", $0, "--value", "trackwatch"])
        }
        let written = unitText.split(separator: "\n").filter { $0.hasPrefix("BindReadOnlyPaths=") || $0.hasPrefix("BindPaths=") }
            .map { $0.drop { $0 != "=" }.dropFirst().replacing("%h", with: home) }
        let bound = Self.boundSources(applied.isEmpty ? written.map(String.init) : applied)
        let directory = parentDirectory(of: configPath)
        for (key, path) in files {
            let path = expandTilde(path, environment: environment)
            guard path.hasPrefix(home + "/"), !bound.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else { continue }
            report.fail("\(key) \(path) is hidden from the unit's sandbox (ProtectHome=tmpfs shows only what it binds of your home)",
                        fix: "keep it in \(directory)/, or run systemctl --user edit trackwatch and add: [Service] BindReadOnlyPaths=\(path)")
        }
    }

    /// The source paths of `BindPaths=`/`BindReadOnlyPaths=` values: `[-]source[:destination[:options]]`, several
    /// per value separated by spaces.
    static func boundSources(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: " ") }.map { entry in
            String(entry.drop { $0 == "-" }.prefix { $0 != ":" })
        }.filter { !$0.isEmpty }
    }


    /// A source whose last polls ran out of the poll deadline, as its last poll recorded it ("GitLab has been slow
    /// for 3 polls: each took the whole deadline (5 min)…"); `nil` otherwise.
    static func slowness(_ database: String) -> String? {
        guard let status = try? StateStore(path: database).status(), status.consecutiveFailures > 0,
            let error = status.lastError?.error,
            error.contains("has been slow for") || error.contains("ran out of its poll deadline")
        else { return nil }
        return SafeText.oneLine(error)
    }

    static func busSocketExists(_ address: String) -> Bool {
        guard let range = address.split(separator: ",").first, range.hasPrefix("unix:path=") else { return true }  // abstract or TCP: trust it
        return access(String(range.dropFirst("unix:path=".count)), F_OK) == 0
    }

    /// The first line systemctl prints, or nil when it cannot run or reach the manager.
    static func systemctl(_ arguments: [String]) -> String? {
        var output: [Int32] = [0, 0]
        guard pipe(&output) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = (["systemctl"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let started = posix_spawnp(&pid, "systemctl", &actions, nil, argv, environ) == 0
        close(output[1])
        defer { close(output[0]) }
        guard started else { return nil }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = read(output[0], &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let line = String(decoding: bytes.prefix { $0 != 10 }, as: UTF8.self)
        // is-enabled prints a state and exits non-zero for "disabled"; no output means no manager.
        return line.isEmpty ? nil : line
    }
}
