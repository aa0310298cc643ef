import ArgumentParser
import Logging
import SystemdIntegration
import TrackwatchApp
import TrackwatchCore

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run as a daemon: poll every interval and report changes to the desktop and the journal.",
        discussion: """
            Meant to run as the systemd user unit trackwatch.service (Type=notify). Signals: SIGTERM or \
            SIGINT stop after the running poll and log off; SIGHUP reloads the configuration (a bad one is \
            reported and the old one kept); SIGUSR1 polls now. One daemon per state directory.
            """)

    @OptionGroup var options: ConfigOptions

    func run() throws {
        let logger = makeDaemonLogger(verbose: options.verbose)
        let stateDirectory = options.paths().stateDirectory
        let daemon: Daemon
        do {
            // The configuration before the lock: a broken file is reported without creating anything on disk.
            var firstConfig: Config? = try options.loadConfiguration()
            let lock = try InstanceLock(stateDirectory: stateDirectory)
            let edges = makeDaemonEdges(logger: logger, desktop: firstConfig?.notify.desktop ?? true)
            daemon = try Daemon(
                makeSession: {
                    _ = lock  // held for the life of the process
                    let config = try firstConfig.take() ?? options.loadConfiguration()
                    return try Session(config: config, stateDirectory: stateDirectory, environment: environment,
                                       logger: logger)
                },
                edges: edges, logger: logger)
        } catch {
            throw failToStart(error, logger: logger)
        }
        daemon.run()
    }

    /// Says once why the daemon cannot start: as a journal entry with its fields under systemd (where stderr
    /// would be a second copy of it), on stderr otherwise.
    private func failToStart(_ error: any Error, logger: Logger) -> ExitCode {
        guard JournalLogHandler.stderrIsJournal(environment: environment) else { return fail(error) }
        logger.error("cannot start", metadata: ["error": "\(error)"])  // MESSAGE=cannot start: <error>
        return ExitCode(ExitStatus.forError(error).rawValue)
    }
}
