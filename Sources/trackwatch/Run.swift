import ArgumentParser
import Logging
import TrackwatchApp
import TrackwatchCore

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
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
            let lock = try InstanceLock(stateDirectory: stateDirectory)
            let edges = makeDaemonEdges(logger: logger)
            daemon = try Daemon(
                makeSession: { heartbeat in
                    _ = lock  // held for the life of the process
                    let config = try options.loadConfiguration()
                    return try Session(config: config, stateDirectory: stateDirectory, environment: environment,
                                       logger: logger, heartbeat: heartbeat)
                },
                edges: edges, logger: logger)
        } catch {
            logger.error("cannot start", metadata: ["error": "\(error)"])
            throw fail(error)
        }
        daemon.run()
    }
}
