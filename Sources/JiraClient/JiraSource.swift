import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// A Jira site or server as a source: my issues (assigned to me, reported by me, watched by me) and, for those that
/// changed, their changelog and comments, diffed by `ActivityDiff` and committed in one transaction.
///
/// A steady poll is one search: issues of mine updated since the last poll (with `[poll] overlap` for clocks and
/// Jira Cloud's eventually consistent search), and those that stopped being assigned to me meanwhile. Only issues
/// whose `updated` moved have their logs read (Cloud: one bulk changelog; Data Center: one search with the
/// changelog). Once an hour, or after a gap, every issue of mine is read again, which keeps the snapshot honest and
/// finds issues deleted or no longer visible (confirmed by asking for them, never inferred from an absence).
public final class JiraSource: Source {
    public static let watch = "issues"
    /// The state key of the local time (seconds since 1970) of the last full read.
    static let fullReadKey = "jira_full_read_at"
    /// The state keys of the flavour and my stable id, as the last full read found them.
    static let flavourKey = "jira_flavour", meKey = "jira_me"

    public let settings: any SourceSettings
    let jira: JiraSettings
    let api: JiraAPI
    private let reader: JiraReader
    private let state: any PollState
    private let poll: PollConfig
    let logger: Logger
    private let wallClock: () -> Double
    private let watchPoller: WatchPoller
    private var me: JiraUser?
    private var query: JiraQuery

    init(settings: JiraSettings, api: JiraAPI, context: SourceContext, logger: Logger) {
        self.settings = settings
        jira = settings
        self.api = api
        reader = JiraReader(api: api)
        state = context.state
        poll = context.poll
        self.logger = logger
        wallClock = context.wallClock
        watchPoller = WatchPoller(source: settings.name, state: context.state, logger: logger, wallClock: context.wallClock)
        query = JiraQuery(projects: settings.projects, narrowing: settings.jql)
    }

    public func closeIdleConnections() { api.transport.closeIdleConnections() }

    /// A token is no session: nothing to end.
    public func close() {}

    /// Who I am, asked once per process: my own changes are silent.
    func myself() throws -> JiraUser {
        if let me { return me }
        let found: JiraUser = try api.get(.myself)
        guard found.id != nil else {
            throw JiraError.invalidResponse(endpoint: "myself", detail: "no accountId or key for the signed-in user")
        }
        me = found
        return found
    }

    public func poll(dryRun: Bool) throws -> PollReport {
        let clock = ContinuousClock(), start = clock.now
        let started = wallClock()
        let previous = try state.snapshot(watch: Self.watch)
        let checkpoint = try state.checkpoint(watch: Self.watch)?.secondsSinceEpoch.map(Double.init)
        let lastFull = Double(try state.value(forKey: Self.fullReadKey) ?? "")
        let elapsed = checkpoint.map { started - $0 }
        let full = FullRead.isDue(hasSnapshot: previous != nil, sinceLastPoll: elapsed, lastFullRead: lastFull, now: started)
        if !full { try recallIdentity() }
        _ = try api.knownFlavour()
        let me = try myself()
        var failure: (any Error)?
        var assigned = 0
        let result = try watchPoller.poll(Self.watch, dryRun: dryRun) { () throws -> WatchResult in
            let windowStart = Int(started) - Int(elapsed ?? 0) - poll.overlap
            let read = try observe(
                full: full, previous: previous, me: me, minutes: (Int(elapsed ?? 0) + poll.overlap + 59) / 60,
                windowStart: Timestamp(secondsSinceEpoch: windowStart))
            failure = read.unavailable.map { JiraError.projectUnavailable(key: $0) }
            let rules = ActivityRules(
                me: me.id ?? "", ignoreApps: jira.ignoreApps, ignoredPeople: jira.ignoreUsers,
                comparedFields: JiraFields.compared, assignmentFields: [JiraFields.assignee])
            let outcome = ActivityDiff.compare(
                previous: previous, seen: try state.seenHistoryKeys(watch: Self.watch), observation: read.observation,
                rules: rules, seenUpTo: read.seenUpTo, checkpoint: Timestamp(secondsSinceEpoch: Int(started)))
            assigned = ActivityDiff.assignedCount(previous: previous, outcome: outcome)
            return WatchResult(
                outcome: outcome, recordCount: assigned,
                pruneSeenBefore: Timestamp(secondsSinceEpoch: Int(started) - 30 * 86_400))
        }
        if full, !dryRun {
            do {
                try state.setValue(String(Int(started)), forKey: Self.fullReadKey)
                try state.setValue(api.flavour == .cloud ? "cloud" : "datacenter", forKey: Self.flavourKey)
                try state.setValue(me.id, forKey: Self.meKey)
            } catch {
                logger.warning("could not store when Jira was last read whole", metadata: ["error": "\(error)"])
            }
        }
        var report = PollReport(
            changes: result.changes, isBaseline: result.isBaseline, recordCount: assigned,
            recordCountLabel: "assigned", durationMilliseconds: WatchPoller.milliseconds(clock.now - start),
            silentUpdates: result.silentUpdates,
            baselineNote: "Baseline: watching \(assigned) Jira issues assigned to you, and those you reported or "
                + "watch; changes by others are reported from the next check on.")
        report.failure = failure
        return report
    }

    /// The flavour and my id as the last full read found them, so that a steady poll (even `check`'s, in a fresh
    /// process) asks Jira one question; a full read asks both again.
    private func recallIdentity() throws {
        if api.flavour == nil, let flavour = try state.value(forKey: Self.flavourKey) {
            api.flavour = flavour == "cloud" ? .cloud : .dataCenter
        }
        if me == nil, let id = try state.value(forKey: Self.meKey), !id.isEmpty { me = JiraUser(accountId: id) }
    }
}
