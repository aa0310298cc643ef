import ArgumentParser
import DesktopNotifier
import Logging
import SystemdIntegration
import TrackwatchApp
import TrackwatchCore
#if canImport(Glibc)
import Glibc
#endif

struct NotifyTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify-test",
        abstract: "Send a sample desktop notification and a sample journal entry.",
        discussion: """
            Shows what a change looks like and proves both paths work. Exit status 0 when the notification \
            server took the bubble and the journal the entry; 69 when either did not (no session bus or \
            notification server, no journald).
            """)

    @Flag(name: .shortAndLong, help: "Log progress to stderr.")
    var verbose = false

    func run() throws {
        var logger = Logger(label: "trackwatch") { TerminalLogHandler(label: $0) }
        logger.logLevel = verbose ? .debug : .critical
        let sample = Change(
            record: RecordID("SAMPL00000042"), kind: .modified, headline: "trackwatch test: this is how a change looks",
            by: "trackwatch", action: "Resolve",
            changes: [FieldChange(field: "State", old: "Opened", new: "Resolved")], priority: "3-Normal Queue")
        // libsystemd reports success when there is no journald at all (it drops the entry silently): look first.
        let journal = access(Journal.socketPath, W_OK) == 0
            ? ChangeJournal(server: "notify-test").recordTest("trackwatch notify-test: journal entries work") : -ENOENT
        Console.line(journal == 0
            ? "✔ journal entry written (journalctl --user -t trackwatch MESSAGE_ID=\(ChangeJournal.testMessageID))"
            : "✘ journal entry not written: \(String(cString: strerror(-journal))); is systemd-journald running?")
        let notifier: DesktopNotifier
        do {
            notifier = try DesktopNotifier(logger: logger)
        } catch {
            Console.line("✘ no bubbles: \(error)")
            throw ExitCode(ExitStatus.unavailable.rawValue)
        }
        guard let server = notifier.serverInformation(timeout: 10) else {
            Console.line("✘ no notification server answered on the session bus (\(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "no DBUS_SESSION_BUS_ADDRESS"))")
            Console.line("  run this inside your desktop session, where a notification daemon (GNOME Shell, Plasma, dunst, mako) runs")
            throw ExitCode(ExitStatus.unavailable.rawValue)
        }
        if let failure = notifier.showNow([sample], timeout: 10) {
            Console.line("✘ \(server.name) did not show the bubble: \(failure)")
            throw ExitCode(ExitStatus.unavailable.rawValue)
        }
        Console.line("✔ bubble shown by \(server.name) \(server.version) (capabilities: \(server.capabilities.sorted().joined(separator: ", ")))")
        if journal != 0 { throw ExitCode(ExitStatus.unavailable.rawValue) }
    }
}
