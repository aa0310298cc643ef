import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// GitHub as a source: issues and pull requests assigned to me or opened by me, pull requests whose review is
/// requested from me, and for those that changed, their timelines — diffed by `ActivityDiff`, committed in one
/// transaction.
///
/// A steady poll is two conditional requests (`/issues` assigned and created, newest update first, `If-None-Match`:
/// a 304 costs no quota) and one search for review requests (its own per-minute quota). A list that moved is read
/// until its updates are older than the last poll (with `[poll] overlap`); stored items that should have been in
/// what was read and are not are asked for one by one (unassigned, closed, transferred, deleted). Once an hour every
/// open item of mine is read again.
public final class GitHubSource: Source {
    public static let watch = "items"
    static let fullReadKey = "github_full_read_at", meKey = "github_me"
    /// The most items asked for one by one in a poll; the rest wait for the next.
    static let mostLookups = 50

    public let settings: any SourceSettings
    let github: GitHubSettings
    let api: GitHubAPI
    let reader: GitHubReader
    let state: any PollState
    let poll: PollConfig
    let logger: Logger
    let wallClock: () -> Double
    private let watchPoller: WatchPoller
    private var me: GitHubUser?

    init(settings: GitHubSettings, api: GitHubAPI, context: SourceContext, logger: Logger) {
        self.settings = settings
        github = settings
        self.api = api
        reader = GitHubReader(api: api)
        state = context.state
        poll = context.poll
        self.logger = logger
        wallClock = context.wallClock
        watchPoller = WatchPoller(source: settings.name, state: context.state, logger: logger, wallClock: context.wallClock)
    }

    public func closeIdleConnections() { api.transport.closeIdleConnections() }
    public func close() {}

    /// Who I am: asked on a full read, remembered between (my own actions are silent).
    func myself(full: Bool) throws -> GitHubUser {
        if let me { return me }
        if !full, let stored = try state.value(forKey: Self.meKey), let found = Self.user(stored) {
            me = found
            return found
        }
        let answer = try api.get(.user)
        let found = try api.decode(GitHubUser.self, answer, .user)
        guard found.id != nil else { throw GitHubError.invalidResponse(endpoint: "user", detail: "no id") }
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
        var etags: [String: String] = [:]
        var assigned = 0
        let result = try watchPoller.poll(Self.watch, dryRun: dryRun) { () throws -> WatchResult in
            let windowStart = Timestamp(secondsSinceEpoch: Int(started - max(elapsed, 0)) - poll.overlap)
            let read = try observe(full: full, previous: previous, me: me, windowStart: windowStart)
            etags = read.etags
            let rules = ActivityRules(
                me: me.id.map(String.init) ?? "", ignoreApps: github.ignoreBots, comparedFields: GitHubFields.compared,
                assignmentFields: GitHubFields.assignment)
            let outcome = ActivityDiff.compare(
                previous: previous, seen: try state.seenHistoryKeys(watch: Self.watch), observation: read.observation,
                rules: rules, seenUpTo: read.seenUpTo, checkpoint: Timestamp(secondsSinceEpoch: Int(started)))
            assigned = ActivityDiff.assignedCount(previous: previous, outcome: outcome)
            return WatchResult(
                outcome: outcome, recordCount: assigned,
                pruneSeenBefore: Timestamp(secondsSinceEpoch: Int(started) - 30 * 86_400))
        }
        if !dryRun { remember(etags: etags, me: me, fullReadAt: full ? started : nil) }
        var report = PollReport(
            changes: result.changes, isBaseline: result.isBaseline, recordCount: assigned,
            recordCountLabel: "assigned", durationMilliseconds: WatchPoller.milliseconds(clock.now - start),
            silentUpdates: result.silentUpdates,
            baselineNote: "Baseline: watching \(assigned) GitHub issues and pull requests assigned to you or "
                + "awaiting your review, and those you opened; changes by others are reported from the next check on.")
        report.serverInterval = api.pollInterval
        return report
    }

    /// After a committed poll: the lists' ETags (a 304 then means nothing moved since what was committed), who I am,
    /// and when everything was last read.
    private func remember(etags: [String: String], me: GitHubUser, fullReadAt: Double?) {
        do {
            for (key, etag) in etags { try state.setValue(etag, forKey: key) }
            if let fullReadAt {
                try state.setValue(String(Int(fullReadAt)), forKey: Self.fullReadKey)
                try state.setValue(Self.encode(me), forKey: Self.meKey)
            }
        } catch {
            logger.warning("could not store what GitHub's lists were at", metadata: ["error": "\(error)"])
        }
    }

    static func encode(_ me: GitHubUser) -> String {
        [me.id.map(String.init) ?? "", me.login ?? "", me.name ?? "", me.email ?? ""]
            .map { $0.replacingTabs }.joined(separator: "\t")
    }

    static func user(_ stored: String) -> GitHubUser? {
        let parts = stored.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, let id = Int64(parts[0]) else { return nil }
        return GitHubUser(id: id, login: parts[1], type: "User", name: parts[2].isEmpty ? nil : parts[2],
                          email: parts[3].isEmpty ? nil : parts[3])
    }
}

extension String {
    fileprivate var replacingTabs: String { String(map { $0 == "\t" || $0.isNewline ? " " : $0 }) }
}
