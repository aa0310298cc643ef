#if canImport(Glibc)
import Glibc
#endif
import DesktopNotifier
import Logging
import SystemdIntegration
import TrackwatchApp
import TrackwatchCore

extension SystemdNotify: ServiceManager {}

/// The daemon logs natively to the journal when its stderr is the journal (under systemd), else to stderr.
func makeDaemonLogger(verbose: Bool) -> Logger {
    let native = JournalLogHandler.stderrIsJournal(environment: environment)
    var logger = Logger(label: "trackwatch") { label -> any LogHandler in
        native ? JournalLogHandler(label: label) : TerminalLogHandler(label: label)
    }
    // The journal keeps the per-poll debug entry (filter with journalctl -p info); a terminal shows less.
    logger.logLevel = verbose || native ? .debug : .info
    return logger
}

/// - Parameter desktop: whether the configuration asks for bubbles (`[notify] desktop`): without libnotify, a warning
///   if it does, a note if not.
func makeDaemonEdges(logger: Logger, desktop: Bool) -> DaemonEdges {
    let announcer: any ChangeAnnouncer
    do {
        announcer = DesktopAnnouncer(notifier: try DesktopNotifier(logger: logger, whereChangesStillGo: whereChangesStillGo))
    } catch {
        logger.log(level: desktop ? .warning : .info, "desktop notifications unavailable; \(whereChangesStillGo())",
                   metadata: ["reason": "\(error)"])
        announcer = NoBubbles()
    }
    return DaemonEdges(
        announcer: announcer,
        recorder: JournalRecorder(alsoLog: JournalLogHandler.stderrIsJournal(environment: environment) ? nil : logger),
        service: SystemdNotify())
}

/// What is true of a change that no bubble shows: it is journaled when journald runs (libsystemd drops entries
/// silently when it does not, so look); it is always in the state database, and outside systemd on stderr too.
@Sendable func whereChangesStillGo() -> String {
    if access(Journal.socketPath, W_OK) == 0 { return "changes are still journaled (journalctl --user -t trackwatch)" }
    let here = JournalLogHandler.stderrIsJournal(environment: environment) ? "" : "printed here and "
    return "no journald runs either (no \(Journal.socketPath)): changes are only \(here)kept for `trackwatch log`"
}

/// Changes go to the journal as structured entries; outside systemd, their sentence also goes to the log
/// (stderr), so that a terminal run shows them too.
final class JournalRecorder: ChangeRecorder {
    private let logger: Logger?

    init(alsoLog logger: Logger?) { self.logger = logger }

    func record(_ change: Change, id: String, server: String) {
        ChangeJournal(server: server).record(change, id: id)
        logger?.notice("\(change.sentence)", metadata: ["record": "\(change.record)", "change": "\(change.kind.rawValue)"])
    }

    func recordedChangeIDs(among ids: [String]) -> Set<String> { ChangeJournal.recordedChangeIDs(among: ids) }

    func recordServiceProblem(_ summary: String, detail: String, resolved: Bool, server: String) {
        ChangeJournal(server: server).recordServiceProblem(summary, detail: detail, resolved: resolved)
        if resolved {
            logger?.notice("\(summary)")
        } else {
            logger?.error("\(summary)", metadata: ["error": "\(detail)"])
        }
    }
}

/// Where bubbles go when libnotify cannot be opened: nowhere (said once at start); changes still reach the journal.
final class NoBubbles: ChangeAnnouncer {
    func announce(_ sources: [SourceChanges], settings: NotifyConfig) {}
    func announceQuietHoursSummary(_ changes: [Change], tracker: String?, settings: NotifyConfig) {}
    func announceServiceProblem(summary: String, body: [String], resolved: Bool, server: String,
                                settings: NotifyConfig) {}
    func flush(timeout: Double) -> Bool { true }
    func onAction(_ handler: @escaping @Sendable (BubbleAction) -> Void) {}
}

/// Desktop bubbles, unless `desktop = false`.
final class DesktopAnnouncer: ChangeAnnouncer {
    private let notifier: DesktopNotifier

    init(notifier: DesktopNotifier) { self.notifier = notifier }

    func announce(_ sources: [SourceChanges], settings: NotifyConfig) {
        guard settings.desktop else { return }
        notifier.announce(sources, summaryThreshold: settings.summaryThreshold)
    }

    func announceQuietHoursSummary(_ changes: [Change], tracker: String?, settings: NotifyConfig) {
        guard settings.desktop else { return }
        notifier.announceQuietHoursSummary(changes, tracker: tracker)
    }

    func announceServiceProblem(summary: String, body: [String], resolved: Bool, server: String,
                                settings: NotifyConfig) {
        guard settings.desktop else { return }
        notifier.announceServiceProblem(summary: summary, body: body, resolved: resolved, server: server)
    }

    func flush(timeout: Double) -> Bool { notifier.drain(timeout: timeout) }

    func onAction(_ handler: @escaping @Sendable (BubbleAction) -> Void) { notifier.onAction(handler) }
}
