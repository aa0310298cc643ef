import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// GitLab as a source: issues and merge requests assigned to me or authored by me, merge requests where I am a
/// reviewer, and for those that changed, their notes and resource events — diffed by `ActivityDiff`, committed in
/// one transaction.
///
/// A steady poll reads five short lists: the first page of my assigned issues, assigned merge requests and review
/// requests (newest update first: what left them is asked for one by one), and what I authored updated since the last
/// poll (with `[poll] overlap`). GitLab's REST API has no "assigned or authored" filter. Once an hour everything open
/// of mine is read again.
public final class GitLabSource: Source {
    public static let watch = "items"
    static let fullReadKey = "gitlab_full_read_at", meKey = "gitlab_me"
    static let mostLookups = 50
    /// The stored project id of an item, to ask for it by path (`/projects/:id/issues/:iid`).
    static let projectField = "_project"
    /// GitLab's id of the item now (a moved issue's differs from the stable id it keeps).
    static let currentIDField = "_gitlab"

    public let settings: any SourceSettings
    let gitlab: GitLabSettings
    let api: GitLabAPI
    let state: any PollState
    let poll: PollConfig
    let logger: Logger
    let wallClock: () -> Double
    private let watchPoller: WatchPoller
    private var me: GitLabUser?
    /// Whether the server has resource events (an old GitLab answers 404; its state changes are then notes).
    var hasResourceEvents = true
    /// A configured project GitLab refused at the last full read: named in every poll's report until the next.
    private var unavailable: GitLabError?

    init(settings: GitLabSettings, api: GitLabAPI, context: SourceContext, logger: Logger) {
        self.settings = settings
        gitlab = settings
        self.api = api
        state = context.state
        poll = context.poll
        self.logger = logger
        wallClock = context.wallClock
        watchPoller = WatchPoller(source: settings.name, state: context.state, logger: logger, wallClock: context.wallClock)
    }

    public func closeIdleConnections() { api.transport.closeIdleConnections() }
    public func close() {}

    func myself(full: Bool) throws -> GitLabUser {
        if let me { return me }
        if !full, let stored = try state.value(forKey: Self.meKey) {
            let parts = stored.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 2, let id = Int64(parts[0]) {
                me = GitLabUser(id: id, username: parts[1], name: nil, bot: false)
                return me!
            }
        }
        let found = try api.get(GitLabUser.self, .user)
        guard found.id != nil else { throw GitLabError.invalidResponse(endpoint: "user", detail: "no id") }
        me = found
        return found
    }

    public func poll(dryRun: Bool) throws -> PollReport {
        let clock = ContinuousClock(), start = clock.now
        let started = wallClock()
        let previous = try state.snapshot(watch: Self.watch)
        let checkpoint = try state.checkpoint(watch: Self.watch)?.secondsSinceEpoch.map(Double.init)
        let lastFull = Double(try state.value(forKey: Self.fullReadKey) ?? "")
        let elapsed = checkpoint.map { started - $0 } ?? -1
        let full = FullRead.isDue(
            hasSnapshot: previous != nil, sinceLastPoll: checkpoint.map { started - $0 }, lastFullRead: lastFull, now: started)
        let me = try myself(full: full)
        var assigned = 0
        var failure: (any Error)?
        let result = try watchPoller.poll(Self.watch, dryRun: dryRun) { () throws -> WatchResult in
            let windowStart = Timestamp(secondsSinceEpoch: Int(started - max(elapsed, 0)) - poll.overlap)
            let read = try observe(full: full, previous: previous, me: me, windowStart: windowStart)
            if full { unavailable = read.unavailable }
            failure = unavailable
            let rules = ActivityRules(
                me: me.id.map(String.init) ?? "", ignoreApps: gitlab.ignoreBots, comparedFields: GitLabFields.compared,
                assignmentFields: GitLabFields.assignment)
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
                try state.setValue("\(me.id ?? 0)\t\(me.username ?? "")", forKey: Self.meKey)
            } catch {
                logger.warning("could not store when GitLab was last read whole", metadata: ["error": "\(error)"])
            }
        }
        var report = PollReport(
            changes: result.changes, isBaseline: result.isBaseline, recordCount: assigned,
            recordCountLabel: "assigned", durationMilliseconds: WatchPoller.milliseconds(clock.now - start),
            silentUpdates: result.silentUpdates,
            baselineNote: "Baseline: watching \(assigned) GitLab issues and merge requests assigned to you or awaiting "
                + "your review, and those you authored; changes by others are reported from the next check on.")
        report.failure = failure
        return report
    }
}
