import AzureDevOpsClient
import CompassClient
import ForgejoClient
import GitHubClient
import GitLabClient
#if canImport(Glibc)
import Glibc
#endif
import JiraClient
import JSONListClient
import Logging
import QaseClient
import SourceKit
import StateStore
import TrackerHTTP
import TrackwatchCore

extension StateStore: PollState {}
extension StoreError: StateStoreFailure {}
extension StateDirectoryError: StateStoreFailure {}

/// Every kind of source trackwatch knows, in the order their tables are read. A new tracker is one more
/// factory here, in its own module; nothing else in the application names a tracker.
public enum SourceRegistry {
    public static let factories: [any SourceFactory] = [
        CompassFactory(), QaseFactory(), JSONListFactory(), JiraFactory(), GitHubFactory(), GitLabFactory(),
        ForgejoFactory(), AzureDevOpsFactory(),
    ]

    /// Their configuration tables (`Config.parse`).
    public static var kinds: [any SourceKind] { factories.map(\.kind) }
}

/// Everything one configuration polls: a session per source.
public struct Session {
    public let config: Config
    /// The state directory: each source's store is in it (or below it), and the page of recent changes.
    public let stateDirectory: String
    /// In configuration order.
    public let sources: [SourceSession]

    /// Loads every source's credentials, opens its HTTP transport and its state store. A source whose credential
    /// cannot be read is still in `sources`, waiting for the fix (`SourceSession.setupFailure`); anything else wrong
    /// with a table (a file others could change, a `ca_file` that does not load) stops here, as a configuration
    /// error does.
    public init(config: Config, stateDirectory: String, environment: [String: String], logger: Logger) throws {
        self.config = config
        self.stateDirectory = stateDirectory
        sources = try config.sources.map { settings in
            try SourceSession(settings: settings, config: config, stateDirectory: stateDirectory,
                              environment: environment, logger: logger)
        }
    }

    /// Ends every source's server session.
    public func logoff() async {
        for server in sources { await server.source?.close() }
    }

    /// `logoff`, waited for on the calling thread: for a command.
    public func logoffWaiting() { _ = try? waitForTask { await self.logoff() } }

    /// What the sources' changes call their tracker: its name when all sources are of one tracker.
    public var trackerName: String? { config.trackerName }
}

/// A table of the configuration that could not be made into a source, named as it is written
/// (`[[github]] work: token_file /home/me/.config/trackwatch/github: No such file or directory`), so that one of
/// several says which.
public struct SourceSetupError: Error, CustomStringConvertible {
    /// `[[github]] work`, or `[server]` for a single Compass server.
    public let table: String
    public let underlying: any Error

    public var description: String { "\(table): \(underlying)" }

    /// A credential that cannot be read (a missing token file, a failing `token_command`, no keyring) stops only
    /// its own source, which waits for the fix: a person may write the file later. Anything else stops the command.
    var waitsForTheFix: Bool { ExitStatus.forError(underlying) == .credentials }
}

/// One source's parts: the source (its client, with its own credentials) and its state store.
///
/// A source whose credential cannot be read is not made: it waits for the fix while the others are polled, and
/// each of its polls tries again to make it (`poll` throws the `SourceSetupError` meanwhile, which the daemon and
/// `check` handle as they handle a refused login). Every poll that is not a dry run is recorded in the store as a
/// whole (`StateStore.recordSourcePoll`), the failure to make the source included, for `trackwatch status`.
///
/// One poll at a time: the daemon hands the session to the poll's task and touches its source again only when the
/// poll has returned (its `store` and `settings` are safe at any time).
public final class SourceSession {
    public let settings: any SourceSettings
    /// `nil` while it cannot be made (`setupFailure`).
    public private(set) var source: (any Source)?
    /// Why the source could not be made, until it is.
    public private(set) var setupFailure: SourceSetupError?
    public let store: StateStore
    /// What holds each poll of this source to `[poll] deadline`.
    public let deadline: PollDeadline
    private let deadlineSeconds: Double
    private let make: () throws -> any Source
    /// `setupFailure` is from making it just now, with the session: the next poll says it rather than try again
    /// at once (a failing `token_command` would run twice in one `check`).
    private var failedJustNow = false
    private let logger: Logger
    /// Polls in a row that ran out of the deadline: "has been slow for 3 polls" (kept across a reload by the daemon).
    var slowPolls = 0

    init(settings: any SourceSettings, config: Config, stateDirectory: String, environment: [String: String],
         logger: Logger) throws {
        self.settings = settings
        self.logger = logger.forSource(settings.sourceName)
        try FileTrust.checkFiles(of: settings, environment: environment)
        let store = try StateStore.openRecovering(directory: Self.stateDirectory(of: settings, in: stateDirectory)) {
            aside in
            logger.warning("the state database was damaged; moved it aside and starting a new baseline",
                           metadata: ["moved_to": "\(aside)"])
        }
        self.store = store
        let deadline = PollDeadline(source: settings.label, now: SystemClocks.bootTime)
        self.deadline = deadline
        deadlineSeconds = Double(config.poll.deadline)
        let context = SourceContext(
            state: store, poll: config.poll, environment: environment, logger: logger,
            secret: { try loadSecret($0, environment: environment) },
            wrap: { DeadlineTransport($0, deadline: deadline) },
            wallClock: SystemClocks.wallTime)
        make = { try SourceRegistry.makeSource(settings, context: context) }
        do {
            source = try make()
        } catch let error as SourceSetupError where error.waitsForTheFix {
            setupFailure = error  // said by its first poll, which fails with it (`check` and the daemon name it)
            failedJustNow = true
        }
    }

    /// Polls the source once, within `[poll] deadline` (`PollDeadline`), and records how it went in the store
    /// (unless `dryRun`). A source not made yet is made first; while it cannot be, the poll throws why. Cancelling
    /// the task cuts the poll where it waits (`PollDeadline.cancel`): it throws `PollCancelled`, having committed
    /// nothing it had not committed yet, and is not recorded as a failure.
    public func poll(dryRun: Bool, fullRead: Bool = false) async throws -> PollReport {
        let started = SystemClocks.wallTime()
        let clock = ContinuousClock(), start = clock.now
        do {
            let report = try await pollOnce(dryRun: dryRun, fullRead: fullRead)
            slowPolls = 0
            if !dryRun {
                record(PollLogEntry(startedAt: started, durationMilliseconds: report.durationMilliseconds,
                                    recordCount: report.recordCount, changeCount: report.changes.count, error: nil),
                       partialFailure: report.failure.map { "\($0)" })
            }
            return report
        } catch {
            let error = counted(error)
            if !dryRun, !deadline.wasCancelled {
                let duration = WatchPoller.milliseconds(clock.now - start)
                record(PollLogEntry(startedAt: started, durationMilliseconds: duration, recordCount: 0, changeCount: 0,
                                    error: "\(error)"))
            }
            throw error
        }
    }

    /// The poll, waited for on the calling thread: for a command (`check`), which has nothing else to do meanwhile.
    public func pollWaiting(dryRun: Bool, fullRead: Bool = false) throws -> PollReport {
        try LoopExecutor(label: "trackwatch.check").wait { try await self.poll(dryRun: dryRun, fullRead: fullRead) }
    }

    private func pollOnce(dryRun: Bool, fullRead: Bool) async throws -> PollReport {
        // Armed first, so that what `ranOut` and `wasCancelled` say is about this poll even when making it fails.
        deadline.arm(seconds: deadlineSeconds)
        defer { deadline.disarm() }
        return try await withTaskCancellationHandler {
            // All of it on the poll's own thread, never on the daemon's loop: making the source (a password_command
            // or the keyring may take seconds), then parsing, diffing and the commit while the requests are awaited.
            try await PollThread.run {
                try await self.ready().poll(dryRun: dryRun, fullRead: fullRead)
            }
        } onCancel: { [deadline] in
            deadline.cancel()
        }
    }

    /// `error`, with the polls in a row that ran out of the deadline counted in it: the sentence then says "has been
    /// slow for 3 polls", in the journal, the status line and `trackwatch status` alike.
    private func counted(_ error: any Error) -> any Error {
        guard deadline.ranOut, !deadline.wasCancelled else {
            slowPolls = 0
            return error
        }
        slowPolls += 1
        guard var exceeded = error as? PollDeadlineExceeded else { return error }
        exceeded.pollsInARow = slowPolls
        return exceeded
    }

    /// The source, made now if it could not be before (its credential may have been written since).
    private func ready() throws -> any Source {
        if let source { return source }
        if failedJustNow, let setupFailure {
            failedJustNow = false
            throw setupFailure
        }
        do {
            let made = try make()
            source = made
            setupFailure = nil
            logger.notice("source made: its credential can be read now")
            return made
        } catch let error as SourceSetupError {
            setupFailure = error
            throw error
        }
    }

    /// A failure to record costs only `status`'s view of this poll (the poll itself is committed or not already).
    private func record(_ log: PollLogEntry, partialFailure: String? = nil) {
        do {
            try store.recordSourcePoll(log, partialFailure: partialFailure)
        } catch {
            logger.warning("could not record the poll for trackwatch status", metadata: ["error": "\(error)"])
        }
    }

    /// The state directory of `settings`: its folder below `root` (a single `[server]` keeps its state in the
    /// root itself).
    public static func stateDirectory(of settings: any SourceSettings, in root: String) -> String {
        settings.stateFolder.isEmpty ? root : "\(root)/\(settings.stateFolder)"
    }
}

extension SourceRegistry {
    /// The source for `settings`, from the factory of its kind; what goes wrong is named with its table.
    static func makeSource(_ settings: any SourceSettings, context: SourceContext) throws -> any Source {
        for factory in factories {
            do {
                if let source = try factory.makeSource(settings, context: context) { return source }
            } catch {
                throw SourceSetupError(table: table(of: settings, kind: factory.kind), underlying: error)
            }
        }
        preconditionFailure("no factory for the source \(settings.sourceName)")
    }

    /// `[[github]] work`, or `[server]` for a single Compass server (whose state is the root's): the kind's table
    /// that holds a `url` (Compass's `[[watch]]` does not), as the configuration spells it.
    static func table(of settings: any SourceSettings, kind: any SourceKind) -> String {
        let name = kind.tables.filter { $0.value.contains("url") }.keys.sorted().first ?? "source"
        return settings.stateFolder.isEmpty ? "[\(name)]" : "[[\(name)]] \(settings.sourceName)"
    }
}

extension Config {
    /// What the changes of these sources call their tracker: its name when every source is of the same one.
    public var trackerName: String? {
        let names = Set(sources.map(\.trackerName))
        return names.count == 1 ? names.first : nil
    }
}
