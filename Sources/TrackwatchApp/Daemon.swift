import Dispatch
import Logging
import SourceKit
import StateStore
import TrackwatchCore

#if canImport(Glibc)
import Glibc
#endif

/// `trackwatch run`: polls on a schedule, delivers every change to the journal and the desktop exactly once,
/// and talks to systemd.
///
/// Concurrency: one loop (`loop()`, a task) owns a task group with a child task per poll under way, so that the due
/// sources are polled side by side and one slow server holds nobody else. The loop, the children's glue, timers,
/// signals and bubble clicks all run on one serial queue (`LoopExecutor`), so there is one place where the daemon's
/// state changes and it needs no lock; each poll's own work (parsing, diffing, its commit) runs on a thread of its own
/// (`PollThread`, the poll's executor), and its requests are awaited, not waited for. Each source's store commits one transaction at a time (its lock), and a
/// source is never polled twice at once. Only the watchdog runs elsewhere, so that it can tell a stuck loop.
///
/// Each source has its own schedule (`SourceSchedules`): one server's failures, backoff or `Retry-After` move only its
/// own next poll. Each poll is held to `[poll] deadline` (`PollDeadline`) and, however long it takes, delays no other
/// source's poll: what a poll found is delivered within a second of its end (`deliveryWait`), with what the polls
/// ending meanwhile found — one burst, one summary.
public final class Daemon: @unchecked Sendable {  // all mutable state is confined to `queue`
    private let queue = DispatchQueue(label: "trackwatch.loop")
    private lazy var executor = LoopExecutor(queue: queue)
    private let watchdogQueue = DispatchQueue(label: "trackwatch.watchdog")
    private let makeSession: () throws -> Session
    private let edges: DaemonEdges
    private let logger: Logger
    private let heartbeat = Heartbeat()
    private var session: Session
    private var schedules: SourceSchedules
    /// What each source's last poll found or how it failed, by source name: its part of systemd's status line.
    private var outcomes: [String: String] = [:]
    private var timers: [any DispatchSourceTimer] = []
    private var sources: [any DispatchSourceSignal] = []
    /// Per source (by name), kept across reloads: outages and marks still owed to its store.
    private var health: [String: ServerHealth] = [:]
    /// What wakes the loop: everything is sent from `queue` (timers, signals, the polls' tasks), and read by the loop.
    private let (events, mailbox) = AsyncStream.makeStream(of: Event.self)
    /// The polls under way, by source name, with when each started (boot-time seconds).
    private var inFlight: [String: (server: SourceSession, startedAt: Double)] = [:]
    /// Polls that ended and whose changes wait for the next delivery, in the order they ended.
    private var ended: [(server: SourceSession, outcome: PollOutcome)] = []
    /// Fires `deliveryWait` after the first poll of a burst ended while others were still under way.
    private var deliveryTimer: (any DispatchSourceTimer)?
    /// Trims the heap again once the loop's worker threads have ended (`rest`); put off when a poll starts first.
    private lazy var laterTrim: any DispatchSourceTimer = {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { IdleMemory.trimHeap() }
        timer.activate()
        return timer
    }()
    /// When the polls under way since the daemon last rested began (wall clock), for "Last poll 10:05".
    private var roundStartedAt: Double?
    /// What the daemon held while it waited before this round of polls, for the status line.
    private var waitedWith: (privateKiB: Int, proportionalKiB: Int)?
    private var stopping = false
    private var reloading = false
    /// Whether a wake-up has handed memory back: from then on the daemon waits, and its memory while waiting is news.
    private var hasRested = false
    /// `TRACKWATCH_FAILPOINT=after-journal` kills the process right after journaling a batch: the crash
    /// test uses it to hit that instant deterministically. `crash-after-poll` crashes (a Swift trap, SIGILL)
    /// after the first poll, while the password and the session token are in memory: the core dump test.
    private let failpoint: String?
    /// How long delivery waits for bubbles to reach the notification server before journaling them.
    static let bubbleHandOverTimeout = 5.0
    /// How long what one poll found waits for the polls still under way, to be delivered with theirs (one summary
    /// for a burst): never longer, so that a slow source delays another's news by at most this.
    static let deliveryWait = 1.0
    /// How long a stopping daemon waits for its cancelled polls to return before it exits all the same (a poll
    /// stuck outside its transport). Exiting then leaves nothing half-written: a commit is one SQLite transaction.
    static let stopWait = 10.0
    /// How long the loop's queue may take to answer the watchdog's probe: the longest it is ever held is a
    /// bubble hand-over to a hung notification server (`bubbleHandOverTimeout`, twice in a wake-up).
    static let livenessLimit = 30.0

    private enum Event: @unchecked Sendable {  // sent and read on `queue` alone
        /// A timer: a source may be due.
        case wake
        case pollAllNow
        case stop(signal: String)
        case reload
        case pollEnded(name: String, outcome: PollOutcome)
        case deliver
        case stopWaitOver
    }

    /// One source's standing between polls.
    private final class ServerHealth {
        var consecutiveFailures = 0
        var outageAnnounced = false
        /// Boot-time seconds of the first of the rate-limited polls in a row, while they last.
        var rateLimitedSince: Double?
        /// Delivered changes the store has not yet recorded as delivered, with what goes along with marking.
        var awaitingMark = Set<Int64>()
        var awaitingHold = Set<Int64>()
        var awaitingMuted = Set<Int64>()
        var awaitingUnmute = Set<RecordID>()
    }

    private func health(of source: SourceSession) -> ServerHealth {
        if let known = health[source.settings.sourceName] { return known }
        let fresh = ServerHealth()
        health[source.settings.sourceName] = fresh
        return fresh
    }

    /// - Parameter makeSession: builds a session from the current configuration file; called at start and
    ///   on every SIGHUP.
    public init(makeSession: @escaping () throws -> Session, edges: DaemonEdges, logger: Logger) throws {
        self.makeSession = makeSession
        self.edges = edges
        self.logger = logger
        failpoint = getenv("TRACKWATCH_FAILPOINT").map { String(cString: $0) }
        session = try makeSession()
        schedules = SourceSchedules(
            names: session.sources.map(\.settings.sourceName), interval: Double(session.config.poll.interval),
            firstRetry: Double(session.config.poll.firstRetry))
    }

    /// Starts everything and never returns.
    public func run() -> Never {
        queue.async { [self] in
            installSignalHandlers()
            installTimers()
            edges.announcer.onAction { [weak self] action in
                guard let self else { return }
                queue.async { self.perform(action) }
            }
            startWatchdog()
            edges.service.ready()
            logger.info("started", metadata: [
                "interval_s": "\(session.config.poll.interval)",
                "sources": "\(session.config.sources.map(\.label).joined(separator: ", "))",
            ])
            deliver(session.sources, consultJournal: true)
            Task(executorPreference: executor) { await self.loop() }
        }
        dispatchMain()
    }

    // MARK: - The loop

    /// Starts the polls that are due, each as a child task, and handles what happens meanwhile — a poll ending, a
    /// timer, a signal — one event at a time, until the daemon stops: then the polls under way are cancelled (their
    /// requests cut, nothing half-written), awaited, and the process exits.
    ///
    /// Plain structured concurrency (a task group), weighed against swift-service-lifecycle's `ServiceGroup`: the
    /// daemon is one service whose children are short polls started and ended by its own schedule, not long-running
    /// services; its graceful shutdown is the group's cancellation, which reaches each poll's transport
    /// (`SourceSession.poll`); and its signals are Dispatch sources on the loop's own queue, as `ServiceGroup`'s are.
    private func loop() async {
        await withDiscardingTaskGroup { group in
            startDuePolls(in: &group)
            rearmTimers()
            events: for await event in events {
                switch event {
                case .wake: showQuietHoursSummaryIfOver()  // also the timer set for the end of quiet hours
                case .pollAllNow: schedules.pollAllNow()
                case .pollEnded(let name, let outcome): pollEnded(name, outcome)
                case .deliver: deliverEnded()
                case .stop(let signal):
                    if !stopping { beginStopping(signal: signal, group: &group) }
                case .reload:
                    beginReloading()
                case .stopWaitOver:
                    await exitLeavingPolls()
                }
                if stopping {
                    if inFlight.isEmpty { break events }
                    continue
                }
                if reloading {
                    guard inFlight.isEmpty else { continue }
                    await reload()
                }
                startDuePolls(in: &group)
                rearmTimers()
            }
        }
        if !ended.isEmpty { deliverEnded() }
        await session.logoff()
        exit(0)
    }

    /// Starts a poll of each source that is due (and those whose regular poll is almost due: `SourceSchedules.joins`),
    /// unless its poll is under way.
    private func startDuePolls(in group: inout DiscardingTaskGroup) {
        let now = SystemClocks.bootTime()
        let idle = session.sources.filter { inFlight[$0.settings.sourceName] == nil }
        guard idle.contains(where: { schedules.isDue($0.settings.sourceName, at: now) }) else { return }
        if inFlight.isEmpty, roundStartedAt == nil {
            laterTrim.schedule(deadline: .distantFuture)
            roundStartedAt = SystemClocks.wallTime()
            // What the daemon held while it waited, for the status line; only a round that polls reports it.
            waitedWith = hasRested ? IdleMemory.usage() : nil
        }
        for server in idle where schedules.joins(server.settings.sourceName, at: now) {
            let name = server.settings.sourceName
            schedules[name].pollStarted(at: now, random: Double.random(in: 0..<1))
            inFlight[name] = (server, now)
            let handed = Handed(server: server)
            group.addTask { [self] in
                let outcome = await Self.poll(handed.server)
                mailbox.yield(.pollEnded(name: name, outcome: outcome))
            }
        }
    }

    private func rearmTimers() {
        var delay = schedules.delay(at: SystemClocks.bootTime(), excluding: Set(inFlight.keys))
        if let quietEnd = secondsUntilQuietHoursEnd() { delay = min(delay, quietEnd) }  // for the summary bubble
        let nanoseconds = Int(min(delay, 86_400) * 1e9)
        timers[0].schedule(wallDeadline: .now() + .nanoseconds(nanoseconds), leeway: .seconds(1))
        timers[1].schedule(deadline: .now() + .nanoseconds(nanoseconds), leeway: .seconds(1))
    }

    /// Two timers wake the loop: one on the wall clock (it jumps forward across a suspend, so the overdue
    /// poll runs on resume) and one on the monotonic clock (unaffected when someone sets the wall clock
    /// back). Each source's `PollSchedule` decides on the boot-time clock whether a wake-up polls it.
    private func installTimers() {
        for _ in 0..<2 {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [mailbox] in mailbox.yield(.wake) }
            timer.activate()
            timers.append(timer)
        }
    }

    // MARK: - Polling and delivery

    /// A session handed to its poll's task: the loop touches its source again only when the poll has ended.
    private struct Handed: @unchecked Sendable {
        let server: SourceSession
    }

    /// What one source's poll left for its delivery.
    private struct PollOutcome {
        var report: PollReport?
        var error: (any Error)?
        var foundChanges: Bool { !(report?.changes.isEmpty ?? true) }
        /// Told after delivery: what a poll found is delivered even when a watch failed (it is committed), and the
        /// outage bubble says when the next try is.
        var failure: (any Error)? { error ?? report?.failure }
    }

    /// One poll of `server`, on its own thread (`SourceSession.poll`); its changes wait in the outbox.
    private static func poll(_ server: SourceSession) async -> PollOutcome {
        do {
            return PollOutcome(report: try await server.poll(dryRun: false))
        } catch {
            return PollOutcome(error: error)
        }
    }

    /// A poll ended: its schedule and standing are settled now; its changes are delivered at once when no other poll
    /// is under way, else within `deliveryWait` together with those of the polls that end meanwhile.
    private func pollEnded(_ name: String, _ outcome: PollOutcome) {
        guard let entry = inFlight.removeValue(forKey: name) else { return }
        let (server, startedAt) = (entry.server, entry.startedAt)
        if server.deadline.wasCancelled {
            // Stopped by a reload (or the stop): no failure of the source's; polled again at once after the reload.
            schedules[name].pollNow()
        } else if let error = outcome.error {
            reschedule(server, after: error, startedAt: startedAt)
            outcomes[name] = "failed: \(error)"
        } else if let report = outcome.report {
            if report.isBaseline { logger.notice("baseline taken", metadata: ["records": "\(report.recordCount)"]) }
            for watch in report.baselineWatches { logger.notice("baseline taken", metadata: ["watch": "\(watch)"]) }
            if let failure = report.failure {
                reschedule(server, after: failure, startedAt: startedAt)
                outcomes[name] = "\(failure)"
            } else {
                schedules[name].pollSucceeded(serverInterval: report.serverInterval)
                pollSucceeded(server)  // "Connected again" before the changes of the meantime
                outcomes[name] = report.summary
            }
        }
        ended.append((server, outcome))
        if inFlight.isEmpty || stopping || reloading {
            deliverEnded()
        } else if deliveryTimer == nil {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [mailbox] in mailbox.yield(.deliver) }
            timer.schedule(deadline: .now() + Self.deliveryWait)
            timer.activate()
            deliveryTimer = timer
        }
    }

    /// A failed poll of `server` is retried on its own schedule. A rejected login or a broken config does not heal
    /// in seconds, and retrying a password quickly locks accounts; a server too slow for the deadline would only
    /// be slow again: those wait for the regular poll. Everything else is retried sooner.
    private func reschedule(_ server: SourceSession, after error: any Error, startedAt: Double) {
        let name = server.settings.sourceName
        if Self.needsPerson(error) || server.deadline.ranOut {
            schedules[name].pollFailedUntilTheRegularPoll()
        } else {
            schedules[name].pollFailed(
                startedAt: startedAt, at: SystemClocks.bootTime(), retryAfter: (error as? any SourceFailure)?.retryAfter,
                random: Double.random(in: 0..<1))
        }
    }

    /// Delivers what the polls that ended found, together; then, when no poll is under way any more, rests.
    private func deliverEnded() {
        deliveryTimer?.cancel()
        deliveryTimer = nil
        // In the configuration's order, whatever order the polls ended in: the summary names the sources so.
        let order = Dictionary(session.sources.enumerated().map { ($1.settings.sourceName, $0) }) { first, _ in first }
        func rank(_ server: SourceSession) -> Int { order[server.settings.sourceName, default: .max] }
        let batch = ended.sorted { rank($0.server) < rank($1.server) }
        ended = []
        if !batch.isEmpty { pollsEnded(batch) }
        showQuietHoursSummaryIfOver()
        guard !batch.isEmpty else { return }
        let started = roundStartedAt ?? SystemClocks.wallTime()
        guard inFlight.isEmpty, !stopping else {
            edges.service.status(statusLine(started: started))
            return
        }
        roundStartedAt = nil
        rest(afterPollsStartedAt: started, waitedWith: waitedWith)
    }

    /// After polls ended: their changes delivered together, failures told, the page of recent changes, each
    /// source's next poll for `status`; then their idle connections closed (`rest` follows once no poll is under way).
    private func pollsEnded(_ polled: [(server: SourceSession, outcome: PollOutcome)]) {
        // The page first, so that a click on the bubbles finds what they announce; again after delivery, which
        // decides what a mute kept off the desktop (its badge), and for the "Updated" line.
        if polled.contains(where: \.outcome.foundChanges) { refreshChangesPage() }
        deliver(polled.map(\.server))
        refreshChangesPage()
        for (server, outcome) in polled {
            prune(server)
            if let failure = outcome.failure, !server.deadline.wasCancelled { pollFailed(server, failure) }
        }
        let polled = polled.map(\.server)
        for server in polled { recordNextPoll(server) }
        // Connections closed: their idle timer would otherwise wake the loop after the poll.
        for server in polled { server.source?.closeIdleConnections() }
    }

    /// The last thing a round of polls does, when none is under way any more: systemd's status line, with what the
    /// daemon held while it waited before this round (`systemctl --user status`; none before the first poll), then
    /// memory handed back. Nothing but the way back to the idle wait runs after that, so that little of the code is
    /// mapped again (reading /proc and formatting the figures here mapped ~2 MB of it again).
    private func rest(afterPollsStartedAt started: Double, waitedWith usage: (privateKiB: Int, proportionalKiB: Int)?) {
        edges.service.status(statusLine(started: started) + (usage.map(Self.memoryNote) ?? ""))
        // Handed back once this turn of the loop has ended and it waits again: the way back to the wait (the task
        // group, the event stream, the timers) maps ~2.5 MB of code, which a release made here left mapped while idle.
        let stores = session.sources.map(\.store)
        queue.async {
            for store in stores { store.releaseMemory() }
            IdleMemory.release()
        }
        // The loop's libdispatch worker threads keep freed chunks in their malloc caches (tcache), which pin heap pages
        // until each thread ends, 5 s after its last work; only a trim after that hands those pages back (~0.5 MB of
        // the idle daemon's private memory, docs/performance.md). One more wake-up per round, seconds after it.
        laterTrim.schedule(deadline: .now() + .seconds(IdleMemory.workerLifetime + 1), leeway: .seconds(1))
        hasRested = true
        if failpoint == "crash-after-poll" { fatalError("TRACKWATCH_FAILPOINT=crash-after-poll") }
    }

    /// `; idle 3.1 MB private, 9.8 MB PSS`: what the waiting daemon costs (docs/performance.md).
    static func memoryNote(_ usage: (privateKiB: Int, proportionalKiB: Int)) -> String {
        func megabytes(_ kib: Int) -> String {
            let tenths = (kib * 10 + 512) / 1024
            return "\(tenths / 10).\(tenths % 10) MB"
        }
        return "; idle \(megabytes(usage.privateKiB)) private, \(megabytes(usage.proportionalKiB)) PSS"
    }

    private func pollSucceeded(_ server: SourceSession) {
        let health = health(of: server)
        if health.outageAnnounced {
            let (summary, body) = OutageMessage.recovered(
                tracker: server.settings.trackerName, server: session.sources.count > 1 ? server.settings.label : nil)
            edges.announcer.announceServiceProblem(summary: summary, body: [body], resolved: true,
                                                   server: server.settings.label, settings: session.config.notify)
            edges.recorder.recordServiceProblem(summary, detail: "", resolved: true, server: server.settings.url)
        }
        health.consecutiveFailures = 0
        health.outageAnnounced = false
        health.rateLimitedSince = nil
    }

    private func pollFailed(_ server: SourceSession, _ error: any Error) {
        let health = health(of: server)
        health.consecutiveFailures += 1
        if let failure = error as? any SourceFailure, failure.isRateLimited {
            rateLimited(server, failure, health)
            return
        }
        health.rateLimitedSince = nil
        var metadata: Logger.Metadata = [
            "server": "\(server.settings.label)", "error": "\(error)", "failures_in_a_row": "\(health.consecutiveFailures)",
        ]
        // Which source ran out of its deadline, in so many words, and for how many polls in a row.
        if server.deadline.ranOut {
            metadata["deadline_s"] = "\(session.config.poll.deadline)"
            metadata["slow_polls_in_a_row"] = "\(server.slowPolls)"
        }
        logger.error(server.deadline.ranOut ? "poll ran out of its deadline" : "poll failed", metadata: metadata)
        // Credentials and configuration do not heal by waiting: say so at once; network trouble only after
        // several failures in a row.
        let threshold = Self.needsPerson(error) ? 1 : session.config.notify.alertAfterFailures
        if health.consecutiveFailures >= threshold && !health.outageAnnounced {
            health.outageAnnounced = true
            let message = OutageMessage(error, tracker: server.settings.trackerName, label: server.settings.label,
                                        several: session.sources.count > 1)
            edges.announcer.announceServiceProblem(summary: message.summary, body: message.body,
                                                   resolved: false, server: server.settings.label,
                                                   settings: session.config.notify)
            edges.recorder.recordServiceProblem(message.summary, detail: message.detail, resolved: false,
                                                server: server.settings.url)
        }
    }

    /// A rate limit is no outage: the server said when to come back, and the schedule waits that long. Waited out
    /// before a regular interval has passed, it cost nothing and nobody is told. One that has held the source for
    /// `alert_after_failures` polls in a row and for longer than the interval is said once, with the next try (issue
    /// 36, item 8: GitHub out of quota for hours was never announced); its end is said as an outage's is.
    private func rateLimited(_ server: SourceSession, _ failure: any SourceFailure, _ health: ServerHealth) {
        let now = SystemClocks.bootTime()
        let since = health.rateLimitedSince ?? now
        health.rateLimitedSince = since
        logger.warning("rate limited; polling again when the server said", metadata: [
            "server": "\(server.settings.label)", "error": "\(failure)",
            "retry_after_s": "\(failure.retryAfter.map { Int($0.rounded(.up)) } ?? 0)",
            "failures_in_a_row": "\(health.consecutiveFailures)",
        ])
        guard !health.outageAnnounced, health.consecutiveFailures >= session.config.notify.alertAfterFailures,
            now - since >= Double(session.config.poll.interval)
        else { return }
        health.outageAnnounced = true
        let schedule = schedules[server.settings.sourceName]
        let nextTry = SystemClocks.clockTime(SystemClocks.wallTime() + schedule.delay(at: now))
        let message = OutageMessage(
            rateLimited: failure, tracker: server.settings.trackerName, label: server.settings.label,
            several: session.sources.count > 1, nextTry: nextTry)
        edges.announcer.announceServiceProblem(summary: message.summary, body: message.body, resolved: false,
                                               server: server.settings.label, settings: session.config.notify)
        edges.recorder.recordServiceProblem(message.summary, detail: message.detail, resolved: false,
                                            server: server.settings.url)
    }

    /// Errors that only a person can fix: credentials and configuration.
    private static func needsPerson(_ error: any Error) -> Bool {
        [.credentials, .configuration].contains(ExitStatus.forError(error))
    }

    /// `Last poll 10:05: 6 in devices, 0 changes; next 10:15`; with several sources each one's last outcome and
    /// each one's next poll, as each has its own schedule.
    private func statusLine(started: Double) -> String {
        let time = SystemClocks.clockTime(started)
        guard session.sources.count > 1 else {
            let only = session.sources.first.flatMap { outcomes[$0.settings.sourceName] } ?? ""
            let next = session.sources.first.map(nextPoll) ?? ""
            return only.hasPrefix("failed: ") ? "Last poll \(time) \(only) Next \(next)" : "Last poll \(time): \(only); next \(next)"
        }
        let lines = session.sources.map { source in
            let name = source.settings.sourceName
            if let outcome = outcomes[name] { return "\(source.settings.label): \(outcome)" }
            // Not "label: …" until it has an outcome of its own: a reader waiting for "qase: " waits for its poll.
            let label = source.settings.label
            return inFlight[name] == nil ? "\(label): not polled yet" : "\(label) (first poll under way)"
        }
        let next = session.sources.map { "\($0.settings.label) \(nextPoll($0))" }
        return "Last poll \(time): \(lines.joined(separator: "; ")); next \(next.joined(separator: ", "))"
    }

    /// `10:15`, or `10:15 (retry 2)`, `10:15 (the server asked for 600 s)`; `under way since 10:05` for a poll that
    /// has not returned yet.
    private func nextPoll(_ server: SourceSession) -> String {
        if let running = inFlight[server.settings.sourceName] {
            let since = SystemClocks.wallTime() - (SystemClocks.bootTime() - running.startedAt)
            return "under way since \(SystemClocks.clockTime(since))"
        }
        let schedule = schedules[server.settings.sourceName]
        let time = SystemClocks.clockTime(SystemClocks.wallTime() + schedule.delay(at: SystemClocks.bootTime()))
        return schedule.standing.note.map { "\(time) (\($0))" } ?? time
    }

    /// Stores when `server` is polled next, and why then, for `trackwatch status`. A failure (disk full) costs only
    /// that line of the status.
    private func recordNextPoll(_ server: SourceSession) {
        let schedule = schedules[server.settings.sourceName]
        let at = SystemClocks.wallTime() + schedule.delay(at: SystemClocks.bootTime())
        do {
            try server.store.recordNextPoll(at: at, why: schedule.standing.note)
        } catch {
            logger.warning("could not store when the next poll is", metadata: ["error": "\(error)"])
        }
    }

    /// Delivers the outboxes of `servers` together: first the desktop (more than `summary_threshold` changes of
    /// them all are one summary), then the journal (the durable record, and the proof of delivery after a crash),
    /// then each store marks its changes delivered. Marking can fail (disk full): the ids wait in memory and are
    /// marked with the next batch, so this process never delivers them twice.
    ///
    /// The order is what the crash test measured: journaling first lost about one bubble in a hundred kills
    /// (a kill during the D-Bus hand-over left a journal entry that vouched for a bubble never shown). Now a
    /// kill before the journal entry redelivers both, and only a kill in the microseconds between the
    /// hand-over and the journal write can show a bubble twice.
    ///
    /// - Parameter consultJournal: after a restart, changes whose journal entry exists were delivered by the
    ///   previous process, which died before it could mark them; they are marked, not delivered again.
    private func deliver(_ servers: [SourceSession], consultJournal: Bool = false) {
        let outboxes = servers.compactMap { server in
            pending(server, consultJournal: consultJournal).map { (server: server, pending: $0) }
        }
        let bubbles = outboxes.map { SourceChanges(tracker: $0.server.settings.trackerName, changes: decide($0)) }
        if bubbles.contains(where: { !$0.changes.isEmpty }) {
            edges.announcer.announce(bubbles, settings: session.config.notify)
            // Journal only once the bubbles left the process, but never wait long for a hung server.
            if !edges.announcer.flush(timeout: Self.bubbleHandOverTimeout) {
                logger.warning("the notification server is slow; journaling the changes without waiting for it")
            }
        }
        for (server, pending) in outboxes { journalAndMark(pending, of: server) }
    }

    /// The changes of `server`'s outbox this process has not delivered; `nil` when the store cannot say.
    private func pending(_ server: SourceSession, consultJournal: Bool) -> [StoredChange]? {
        let health = health(of: server)
        let store = server.store
        let outbox: [StoredChange]
        do {
            outbox = try store.undeliveredChanges().filter { !health.awaitingMark.contains($0.id) }
        } catch {
            logger.error("could not read the changes to deliver", metadata: ["error": "\(error)"])
            return nil
        }
        guard consultJournal, !outbox.isEmpty else { return outbox }
        let recorded = edges.recorder.recordedChangeIDs(among: outbox.map(store.globalID))
        health.awaitingMark.formUnion(outbox.filter { recorded.contains(store.globalID(of: $0)) }.map(\.id))
        let pending = outbox.filter { !recorded.contains(store.globalID(of: $0)) }
        logger.notice("changes from before the restart", metadata: [
            "delivered_before": "\(outbox.count - pending.count)", "delivering_now": "\(pending.count)",
        ])
        return pending
    }

    /// Which of a source's pending changes become bubbles now; the others are held for after quiet hours or kept
    /// off the desktop (muted, below min_priority), as the rules decide. Every change is journaled all the same. A
    /// change that lifts a record's mute is decided as unmuted.
    private func decide(_ outbox: (server: SourceSession, pending: [StoredChange])) -> [Change] {
        let health = health(of: outbox.server)
        let muted = (try? outbox.server.store.mutedRecords()) ?? [:]
        let minute = SystemClocks.localMinuteOfDay(SystemClocks.wallTime())
        var bubbles: [Change] = []
        for stored in outbox.pending {
            let (verdict, liftsMute) = session.config.notify.rules.verdict(
                for: stored.change, muted: muted[stored.change.record] != nil, minuteOfDay: minute,
                ownerAndState: outbox.server.settings.ownerAndStateFields)
            if liftsMute { health.awaitingUnmute.insert(stored.change.record) }
            switch verdict {
            case .show: bubbles.append(stored.change)
            case .hold: health.awaitingHold.insert(stored.id)
            case .journalOnly: if muted[stored.change.record] != nil, !liftsMute { health.awaitingMuted.insert(stored.id) }
            }
        }
        return bubbles
    }

    /// Journals `pending` and marks it delivered in `server`'s store, with the decisions that go along.
    private func journalAndMark(_ pending: [StoredChange], of server: SourceSession) {
        let health = health(of: server)
        let store = server.store
        for stored in pending {
            edges.recorder.record(stored.change, id: store.globalID(of: stored), server: server.settings.url)
        }
        if failpoint == "after-journal", !pending.isEmpty { kill(getpid(), SIGKILL) }
        health.awaitingMark.formUnion(pending.map(\.id))
        guard !health.awaitingMark.isEmpty else { return }
        do {
            try store.markDelivered(health.awaitingMark.sorted(), held: health.awaitingHold, muted: health.awaitingMuted,
                                    unmuted: health.awaitingUnmute.sorted(), at: SystemClocks.wallTime())
            health.awaitingMark.removeAll()
            health.awaitingHold.removeAll()
            health.awaitingMuted.removeAll()
            health.awaitingUnmute.removeAll()
        } catch {
            logger.error("could not mark changes delivered; trying again after the next poll",
                         metadata: ["error": "\(error)", "count": "\(health.awaitingMark.count)"])
        }
    }

    /// Deletes what `[log]` no longer keeps; a failure (disk full) is logged and tried again after the next poll.
    private func prune(_ source: SourceSession) {
        do {
            try source.store.prune(session.config.log, now: SystemClocks.wallTime())
        } catch {
            logger.warning("could not prune the change log", metadata: ["error": "\(error)"])
        }
    }

    /// After quiet hours: one bubble for everything they held back.
    private func showQuietHoursSummaryIfOver() {
        let rules = session.config.notify.rules
        if let quiet = rules.quiet, quiet.contains(minuteOfDay: SystemClocks.localMinuteOfDay(SystemClocks.wallTime())) { return }
        do {
            let held = try session.sources.map { try $0.store.heldChanges() }
            let changes = held.flatMap { $0.map(\.change) }
            guard !changes.isEmpty else { return }
            edges.announcer.announceQuietHoursSummary(changes, tracker: session.trackerName, settings: session.config.notify)
            _ = edges.announcer.flush(timeout: Self.bubbleHandOverTimeout)
            for (source, changes) in zip(session.sources, held) where !changes.isEmpty { try source.store.releaseHeld() }
            logger.info("quiet hours over", metadata: ["changes": "\(changes.count)"])
        } catch {
            logger.error("could not show the quiet-hours summary", metadata: ["error": "\(error)"])
        }
    }

    /// Seconds until quiet hours end, or `nil` outside them.
    private func secondsUntilQuietHoursEnd() -> Double? {
        guard let quiet = session.config.notify.rules.quiet else { return nil }
        let wall = SystemClocks.wallTime()
        let minutes = quiet.minutesUntilEnd(from: SystemClocks.localMinuteOfDay(wall))
        guard minutes > 0 else { return nil }
        return Double(minutes * 60) - SystemClocks.localSecondOfMinute(wall) + 1
    }

    /// Rewrites the page of recent changes in the state directory (see `ChangesPage`). A failure (disk full)
    /// costs only the page: it is logged, and the next poll writes it again.
    private func refreshChangesPage() {
        let file = ChangesPageFile(stateDirectory: session.stateDirectory)
        do {
            try file.save(RecentChanges.page(stores: session.sources.map { ($0.settings, $0.store) },
                                             now: SystemClocks.wallTime()))
        } catch {
            logger.error("could not write the page of recent changes",
                         metadata: ["path": "\(file.path)", "error": "\(error)"])
        }
    }

    /// A click on a bubble or one of its buttons.
    private func perform(_ action: BubbleAction) {
        switch action {
        case .open(let record, let source):
            // With several sources, the bubble was about the one that detected a change of this record.
            guard let known = sources(knowing: record, named: source).first else { return }
            // Its latest change carries the link where the source took it from the record; a source that makes
            // links from its configuration needs only the record's key.
            let change = (try? known.store.changes(since: nil, record: record, limit: 1).first?.change)
                ?? Change(record: record, kind: .modified, headline: "")
            guard let url = known.settings.link(for: change) else {
                logger.warning("the record has no web page to open", metadata: ["record": "\(record)"])
                return
            }
            runOpener(on: url, about: "\(record)")
        case .mute(let record, let source):
            do {
                for known in sources(knowing: record, named: source) {
                    try known.store.mute(record, at: SystemClocks.wallTime())
                }
                logger.notice("muted until it changes owner or state", metadata: ["record": "\(record)"])
            } catch {
                logger.error("could not mute", metadata: ["record": "\(record)", "error": "\(error)"])
            }
        case .showAll:
            let file = ChangesPageFile(stateDirectory: session.stateDirectory)
            if access(file.path, R_OK) != 0 { refreshChangesPage() }
            runOpener(on: file.url, about: "the page of recent changes")
        }
    }

    /// The source named `name` (the bubble's), or without a name those whose store saw a change of `record`.
    private func sources(knowing record: RecordID, named name: String?) -> [SourceSession] {
        let sources = session.sources.count == 1
            ? session.sources
            : session.sources.filter { source in
                name.map { source.settings.sourceName == $0 } ?? ((try? source.store.hasChanges(of: record)) == true)
            }
        if sources.isEmpty {
            logger.warning("a bubble's button names a record no source knows", metadata: ["record": "\(record)"])
        }
        return sources
    }

    /// Runs the opener on `url`; `what` names it in the log.
    private func runOpener(on url: String, about what: String) {
        do {
            // INVOCATION_ID: started by systemd, so sandboxed (see openInBrowser).
            let underSystemd = getenv("INVOCATION_ID") != nil
            let opener = session.config.notify.opener
            try openInBrowser(url, program: opener, viaUserManager: underSystemd) { [logger] status in
                if status != 0 {
                    logger.warning("the opener failed", metadata: ["opened": "\(what)", "exit_status": "\(status)"])
                }
            }
            logger.info("opened", metadata: ["opened": "\(what)", "url": "\(url)"])
        } catch {
            logger.error("could not open", metadata: ["opened": "\(what)", "error": "\(error)"])
        }
    }

    // MARK: - Signals

    private func installSignalHandlers() {
        let handlers: [(Int32, () -> Void)] = [
            (SIGTERM, { [mailbox] in mailbox.yield(.stop(signal: "SIGTERM")) }),
            (SIGINT, { [mailbox] in mailbox.yield(.stop(signal: "SIGINT")) }),
            (SIGHUP, { [mailbox] in mailbox.yield(.reload) }),
            (SIGUSR1, { [logger, mailbox] in
                logger.info("poll requested (SIGUSR1)")
                mailbox.yield(.pollAllNow)
            }),
        ]
        for (number, handler) in handlers {
            signal(number, SIG_IGN)  // Dispatch sources see the signal only when the default action is off.
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: handler)
            source.activate()
            sources.append(source)
        }
    }

    /// Cancels the polls under way (each one's request is cut, and it commits nothing it had not committed yet);
    /// the loop exits once they have returned, or after `stopWait` for one stuck outside its transport.
    private func beginStopping(signal: String, group: inout DiscardingTaskGroup) {
        stopping = true
        edges.service.stopping()
        logger.info("stopping", metadata: ["signal": "\(signal)", "polls_under_way": "\(inFlight.count)"])
        group.cancelAll()
        guard !inFlight.isEmpty else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [mailbox] in mailbox.yield(.stopWaitOver) }
        timer.schedule(deadline: .now() + Self.stopWait)
        timer.activate()
        timers.append(timer)
    }

    /// Exits at once, leaving the polls still under way: a commit is one SQLite transaction, so none is half-written.
    private func exitLeavingPolls() async -> Never {
        logger.warning("stopping without waiting longer for polls still under way", metadata: [
            "sources": "\(inFlight.values.map(\.server.settings.label).sorted().joined(separator: ", "))",
        ])
        for server in session.sources where inFlight[server.settings.sourceName] == nil { await server.source?.close() }
        exit(0)
    }

    /// SIGHUP: the polls under way are cancelled (a reload is likely a new configuration for them) and the reload
    /// happens once they have returned; they are polled again right after it.
    private func beginReloading() {
        guard !reloading else { return }
        reloading = true
        edges.service.reloading()
        for (server, _) in inFlight.values { server.deadline.cancel() }
    }

    private func reload() async {
        reloading = false
        do {
            // Made on a thread of its own: reading credentials may run a password_command for seconds.
            let fresh = try await PollThread.run { [makeSession] in try makeSession() }
            let waiting = Set(session.sources.filter { $0.setupFailure != nil }.map(\.settings.sourceName))
            for server in fresh.sources {
                let name = server.settings.sourceName
                server.slowPolls = session.sources.first { $0.settings.sourceName == name }?.slowPolls ?? 0
            }
            await session.logoff()
            session = fresh
            // Sources that remain keep their schedule: a server that asked to wait is still waited out.
            schedules.reconcile(
                names: fresh.sources.map(\.settings.sourceName), interval: Double(fresh.config.poll.interval),
                firstRetry: Double(fresh.config.poll.firstRetry))
            // A source that waited for its credential is tried at once: the reload is likely the fix.
            for name in waiting where fresh.sources.contains(where: { $0.settings.sourceName == name }) {
                schedules[name].pollNow()
            }
            outcomes = outcomes.filter { name, _ in fresh.sources.contains { $0.settings.sourceName == name } }
            logger.notice("configuration reloaded", metadata: ["interval_s": "\(fresh.config.poll.interval)"])
            showQuietHoursSummaryIfOver()
        } catch {
            logger.error("configuration not reloaded; keeping the previous one", metadata: ["error": "\(error)"])
        }
        edges.service.ready()
    }

    // MARK: - Watchdog

    /// Pings systemd at half the watchdog interval from its own queue, but only while the loop is alive: a probe sent
    /// to its queue comes back within `livenessLimit`. Polls run on their own threads, so no source's progress —
    /// or lack of it — feeds or starves the watchdog: only the daemon itself stuck does.
    private func startWatchdog() {
        guard let interval = edges.service.watchdogInterval else { return }
        let timer = DispatchSource.makeTimerSource(queue: watchdogQueue)
        timer.schedule(deadline: .now(), repeating: .milliseconds(Int(interval * 500)), leeway: .milliseconds(200))
        timer.setEventHandler { [heartbeat, queue, edges, logger] in
            let (alive, sendProbe) = heartbeat.tick(limit: Self.livenessLimit)
            if alive { edges.service.watchdog() } else { logger.critical("the daemon's loop is stuck; not feeding the watchdog") }
            if sendProbe { queue.async { heartbeat.probeReturned() } }
        }
        timer.activate()
        timers.append(timer)
    }
}
