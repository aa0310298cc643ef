import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SourceKit
import TrackwatchApp
import TrackwatchCore

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Poll every source once now and print each change.",
        discussion: """
            Prints one line per change, e.g. "acme/web#7 assigned to you by bob: Refactor the router" or \
            "WEB-42 changed by Bob Brown: Crash on save (Priority: Medium → High)". The first check takes a \
            silent baseline and prints one summary line. \
            On failure nothing is stored except the failure itself, and the next successful check reports \
            what happened meanwhile, once.
            """)

    @OptionGroup var options: ConfigOptions

    @Flag(help: "Print one JSON object per change and line.")
    var json = false

    @Flag(help: "Poll and print, but persist nothing.")
    var dryRun = false

    @Flag(help: "Read every item of mine again now, as the hourly full read does (Jira, GitHub, GitLab, Azure DevOps): after a long suspend, or when the snapshot is in doubt.")
    var full = false

    func run() throws {
        let logger = options.logger()
        do {
            // Two pollers diffing the same snapshot would report the same change twice.
            let lock = dryRun ? nil : try InstanceLock(stateDirectory: options.paths().stateDirectory)
            defer { withExtendedLifetime(lock) {} }
            let session = try Session(
                config: try options.loadConfiguration(), stateDirectory: options.paths().stateDirectory,
                environment: environment, logger: logger)
            defer { session.logoffWaiting() }
            // Every source is polled; the exit status is the first failure's. With several sources each
            // failure is named, so that one source's trouble does not hide another's changes: a credential that
            // cannot be read included, whose source is not polled while the others are.
            var firstFailure: (any Error)?
            for server in session.sources {
                let failure: (any Error)?
                do {
                    let report = try server.pollWaiting(dryRun: dryRun, fullRead: full)
                    print(report)
                    if !dryRun {
                        try server.store.markDelivered(report.changes.map(\.id), at: SystemClocks.wallTime())
                        try server.store.prune(session.config.log, now: SystemClocks.wallTime())
                    }
                    failure = report.failure
                } catch {
                    failure = error
                }
                if let failure, session.sources.count > 1 {
                    // A source that could not be made names its table already.
                    let name = failure is SourceSetupError ? "" : "\(server.settings.label): "
                    Console.error("trackwatch: \(name)\(failure)")
                    firstFailure = firstFailure ?? ExitCode(ExitStatus.forError(failure).rawValue)
                } else if let failure {
                    firstFailure = firstFailure ?? failure
                }
            }
            if let firstFailure { throw firstFailure }
        } catch let code as ExitCode {
            throw code
        } catch {
            throw fail(error)
        }
    }

    private func print(_ report: PollReport) {
        var notes: [String] = []
        if report.isBaseline { notes.append(report.baselineNote) }
        for watch in report.baselineWatches {
            notes.append("Baseline: watching the query \(watch); its changes are reported from the next check on.")
        }
        // With --json, stdout holds only JSON lines.
        for note in notes { json ? Console.error(note) : Console.line(note) }
        for stored in report.changes {
            json ? Console.json(ChangeLine(stored.change).json) : Console.line(stored.change.sentence)
        }
    }
}

/// The `--json` shape of a change: `{"record","kind","headline","by","action","changes","at","priority","severity","watch",
/// "source"}`.
struct ChangeLine: Encodable {
    let record: String
    let kind: String
    let headline: String
    let by: String?
    let action: String?
    let changes: [FieldChange]
    let at: String?
    let priority: String?
    let severity: String?
    /// The `[[watch]]` or list it was seen in; `null` for a source's own questions.
    let watch: String?
    /// The source that saw it (its table's `name`); `null` in changes stored before sources had names.
    let source: String?
    /// When trackwatch detected it (`log --json` only).
    let detected: String?
    /// The `[[server]]` profile (`log --json` with several servers only).
    let server: String?
    /// A mute kept it off the desktop (`log --json` only).
    let muted: Bool?

    init(_ change: Change, detectedAt: String? = nil, server: String? = nil, muted: Bool? = nil) {
        detected = detectedAt
        self.server = server
        self.muted = muted
        record = change.record.rawValue
        kind = change.kind.rawValue
        headline = change.headline
        by = change.by
        action = change.action
        changes = change.changes
        at = change.at?.rawValue
        priority = change.priority
        severity = change.severity
        watch = change.watch
        source = change.source
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(record, forKey: .record)
        try container.encode(kind, forKey: .kind)
        try container.encode(headline, forKey: .headline)
        try container.encode(by, forKey: .by)  // explicit null: the key is always there
        try container.encode(action, forKey: .action)
        try container.encode(changes, forKey: .changes)
        try container.encode(at, forKey: .at)
        try container.encode(priority, forKey: .priority)
        try container.encode(severity, forKey: .severity)
        try container.encode(watch, forKey: .watch)
        try container.encode(source, forKey: .source)
        try container.encodeIfPresent(detected, forKey: .detected)
        try container.encodeIfPresent(server, forKey: .server)
        try container.encodeIfPresent(muted, forKey: .muted)
    }

    enum CodingKeys: String, CodingKey {
        case record, kind, headline, by, action, changes, at, priority, severity, watch, source, detected, server, muted
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
