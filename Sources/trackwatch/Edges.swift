import Logging
import SystemdIntegration
import TrackwatchApp
import TrackwatchCore

extension SystemdNotify: ServiceManager {}

/// The daemon's logger: stderr for now (journal handler to come with the desktop/journal adapters).
func makeDaemonLogger(verbose: Bool) -> Logger {
    var logger = Logger(label: "trackwatch") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = verbose ? .debug : .info
    return logger
}

func makeDaemonEdges(logger: Logger) -> DaemonEdges {
    DaemonEdges(announcer: LogAnnouncer(logger: logger), recorder: LogRecorder(logger: logger), service: SystemdNotify())
}

/// Writes each change's sentence to the log.
final class LogRecorder: ChangeRecorder {
    let logger: Logger
    init(logger: Logger) { self.logger = logger }
    func record(_ change: Change) {
        logger.notice("\(change.sentence)", metadata: ["record": "\(change.record)", "change": "\(change.kind.rawValue)"])
    }
}

final class LogAnnouncer: ChangeAnnouncer {
    let logger: Logger
    init(logger: Logger) { self.logger = logger }
    func announce(_ changes: [Change]) {}
    func announceServiceProblem(summary: String, body: String, resolved: Bool) {
        logger.warning("\(summary)", metadata: ["detail": "\(body)"])
    }
}
