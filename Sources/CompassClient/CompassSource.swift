import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// A Compass server as a source: each poll asks the built-in watch — *assigned to me*, then *modified by others* —
/// and then each saved query of a `[[watch]]`. Each watch is diffed against its stored snapshot and committed in
/// its own transaction (snapshot, seen history, checkpoint and changes together, `WatchPoller`), so one watch's
/// failure never touches another's state.
public final class CompassSource: Source {
    /// The built-in watch's name in the store.
    public static let assignedWatch = "assigned"
    /// Marks state kept with the zone-independent history window (`HistoryWindow`) and numbered keys for identical
    /// entries (`HistoryEntry.keys(of:)`). State without the mark — from the 10-minute window, which kept fewer
    /// keys, or from before numbering, which kept one key for two identical entries — has its first poll count
    /// every entry at or before the checkpoint as seen.
    static let windowKey = "history_window", wideWindow = "zone-independent, numbered"
    /// The most records one second look reads again; others keep their first reading.
    static let secondLookLimit = 200

    /// The forms of history timestamps the server printed last (logged when they change; for `probe`).
    public private(set) var timestampFormats: Set<TimestampFormat> = []
    /// A stored checkpoint later than any zone allows was logged (once per process).
    private var reportedStoredCheckpoint = false
    /// History entries older than the window came back (a server ignoring the filter) was logged (once per process).
    private var reportedIgnoredWindow = false

    public let server: ServerConfig
    public let client: CompassClient
    private let state: any PollState
    private let poll: PollConfig
    private var watches: [WatchConfig] { server.watches }
    private let logger: Logger
    private let wallClock: () -> Double
    private let watchPoller: WatchPoller

    public init(server: ServerConfig, client: CompassClient, state: any PollState, poll: PollConfig, logger: Logger,
                wallClock: @escaping () -> Double) {
        self.server = server
        self.client = client
        self.state = state
        self.poll = poll
        self.logger = logger
        self.wallClock = wallClock
        watchPoller = WatchPoller(source: server.sourceName, state: state, logger: logger, wallClock: wallClock)
    }

    public var settings: any SourceSettings { server }

    public func closeIdleConnections() { client.closeIdleConnections() }

    public func close() async { await client.logoff() }

    /// Polls once. A failure of the built-in watch is thrown (nothing else is polled then: the server or the
    /// session is in trouble); a failure of a `[[watch]]` is in `PollReport.failure`, and only a watch's own
    /// problem (its query missing or without an id column) lets the next watch be polled. Failed watches'
    /// stored state is untouched, and the failure is logged unless `dryRun`.
    public func poll(dryRun: Bool, fullRead: Bool) async throws -> PollReport {
        let clock = ContinuousClock()
        let start = clock.now
        let wideWindow = try state.value(forKey: Self.windowKey) == Self.wideWindow
        let builtIn = try await watchPoller.poll(Self.assignedWatch, dryRun: dryRun) { () throws -> WatchResult in
            let extra = try await extraFields(dryRun: dryRun)
            // Assigned first: a record that becomes mine between the two queries then shows up in the
            // history rows but not in the set, and is left for the next poll instead of looking self-assigned.
            let observed = try await observe(stored: try state.checkpoint(watch: Self.assignedWatch), extra: extra)
            let checkpoint = observed.checkpoint, latest = observed.latest
            var observation = observed.observation
            // The stored snapshot is loaded only now, after the raw rows are gone: at 100,000 records holding
            // both at once is what sets the poll's peak memory.
            let previous = try state.snapshot(watch: Self.assignedWatch)
            let seen = try state.seenHistoryKeys(watch: Self.assignedWatch)
            try await lookAgain(at: SnapshotDiff.secondLook(previous: previous, seen: seen, observation: observation),
                          in: &observation, extra: extra)
            // State without the mark (see `wideWindow`): what it had seen lies at or before its checkpoint, and
            // must not come back as new.
            let me = WatchQueries.currentUser(in: observation.records) ?? client.loginName
            var outcome = SnapshotDiff.compare(
                previous: previous, seen: seen, observation: observation, previousCheckpoint: checkpoint,
                me: me,
                seenUpTo: wideWindow ? nil : checkpoint, latestPlausible: latest,
                compared: WatchQueries.comparedFields(extra: extra))
            if let first = outcome.implausible.first {
                // Once: the entry is remembered as seen, so a later window does not log it again.
                logger.warning(
                    Logger.Message(stringLiteral: "history entry dated later than any time zone allows; it does "
                        + "not move the checkpoint (ask the Compass administrator to check the server's clock and "
                        + "this entry)"),
                    metadata: Self.describe(first, count: outcome.implausible.count, latest: latest))
            }
            if outcome.unexplained > 0 {
                logger.warning("changes without a history entry; reported without who made them",
                               metadata: ["count": "\(outcome.unexplained)"])
            }
            outcome.changes = try await namingWhoTookThem(
                outcome.changes, since: HistoryWindow.since(checkpoint: checkpoint, overlap: poll.overlap), me: me)
            return WatchResult(
                outcome: outcome.outcome, recordCount: observation.records.count,
                pruneSeenBefore: HistoryWindow.pruneBoundary(checkpoint: outcome.checkpoint, overlap: poll.overlap))
        }
        if !wideWindow, !dryRun {
            // Not fatal: the poll is committed, and migrating again next time only marks entries seen again.
            do { try state.setValue(Self.wideWindow, forKey: Self.windowKey) } catch {
                logger.warning("could not store the history window's version", metadata: ["error": "\(error)"])
            }
        }
        var report = PollReport(
            changes: builtIn.changes, isBaseline: builtIn.isBaseline, recordCount: builtIn.recordCount,
            recordCountLabel: "assigned", durationMilliseconds: 0, silentUpdates: builtIn.silentUpdates,
            baselineNote: "Baseline: watching \(builtIn.recordCount) records assigned to you; "
                + "changes are reported from the next check on.")
        for watch in watches {
            do {
                let polled = try await watchPoller.poll(watch.storeKey, dryRun: dryRun) { () throws -> WatchResult in
                    let result = try await client.run(savedQuery: watch.query, pageSize: poll.pageSize)
                    let records: [Record], compared: [String]
                    do {
                        records = try SavedQueryRows.records(columns: result.columns, rows: result.rows, query: watch.query)
                        compared = try SavedQueryRows.comparedFields(watch, columns: result.columns)
                    } catch let error as WatchQueries.RowError {
                        throw CompassError.invalidConfiguration("[[watch]] \(watch.name): \(error.message)")
                    }
                    let previous = try state.snapshot(watch: watch.storeKey)
                    let outcome = SavedQueryDiff.compare(previous: previous, records: records, watch: watch, comparedFields: compared)
                    return WatchResult(outcome: outcome, recordCount: records.count)
                }
                report.changes += polled.changes
                report.watchedRecordCount += polled.recordCount
                report.silentUpdates += polled.silentUpdates
                if polled.isBaseline { report.baselineWatches.append(watch.name) }
            } catch {
                logger.error("watch failed", metadata: ["watch": "\(watch.name)", "query": "\(watch.query)", "error": "\(error)"])
                if report.failure == nil { report.failure = error }
                // A watch's own problem spares the others; trouble with the server or the session does not.
                guard (error as? any SourceFailure)?.failureKind.remedy == .fixConfiguration else { break }
            }
        }
        report.durationMilliseconds = WatchPoller.milliseconds(clock.now - start)
        return report
    }

    /// Reads *assigned to me*, then the history window measured from the `stored` checkpoint. Returns what it saw,
    /// the checkpoint the window was measured from (`nil` for a stored one later than any zone allows) and the
    /// latest plausible history timestamp.
    private func observe(
        stored: Timestamp?, extra: [String]
    ) async throws -> (observation: PollObservation, checkpoint: Timestamp?, latest: Timestamp?) {
        do {
            // Rows become records page by page: the raw rows of a large result are never all held at once.
            let records = try await client.run(
                WatchQueries.assignedToMe(extra: extra), storedAs: WatchQueries.assignedQueryName, lifetime: .reused,
                pageSize: poll.pageSize, transform: { try WatchQueries.records(fromRows: $0, extra: extra) })
            // Only now: the answers so far carry the server's `Date`.
            let latest = HistoryWindow.latestPlausible(now: client.serverDate ?? wallClock())
            let checkpoint = HistoryWindow.plausible(stored, latest: latest)
            if let stored, checkpoint == nil, !reportedStoredCheckpoint {
                // An earlier version took it from a future-dated entry: every window since has been empty.
                reportedStoredCheckpoint = true
                logger.warning(
                    Logger.Message(stringLiteral: "stored history checkpoint is later than any time zone allows; "
                        + "measuring the window again from the newest plausible entry"),
                    metadata: ["checkpoint": "\(stored)", "latest_plausible": "\(latest.map(\.rawValue) ?? "")"])
            }
            let since = HistoryWindow.since(checkpoint: checkpoint, overlap: poll.overlap)
            let history = try await history(since: since, latest: latest)
            return (PollObservation(records: records, history: history), checkpoint, latest)
        } catch let error as WatchQueries.RowError {
            throw CompassError.invalidResponse(endpoint: "result page", detail: error.message)
        }
    }

    /// The history window's entries. Without a checkpoint (the first poll, or none of my records had history)
    /// the newest plausible entry (not later than `latest`) is read first and the window is measured back from
    /// it: the baseline then marks as seen exactly what the next poll's window returns again, however much older
    /// history there is.
    private func history(since: Timestamp?, latest: Timestamp?) async throws -> [HistoryEntry] {
        var since = since
        if since == nil {
            let newest = try await historyRows(WatchQueries.historyOfMyRecords(since: nil, until: latest), maxRows: 1)
            guard let checkpoint = newest.first?.timestamp else { return [] }
            since = HistoryWindow.since(checkpoint: checkpoint, overlap: poll.overlap)
        }
        let entries = try await historyRows(WatchQueries.historyOfMyRecords(since: since), maxRows: nil)
        // A server that ignores the filter returns older entries too, whose keys were pruned long ago: they are not
        // news, and would be reported again every poll. The window's start is in the checkpoint's own terms.
        guard let since else { return entries }
        let inWindow = entries.filter { $0.timestamp > since }
        if inWindow.count < entries.count, !reportedIgnoredWindow {
            reportedIgnoredWindow = true
            logger.warning("the server returned history entries older than the window asked for; ignoring them",
                           metadata: ["since": "\(since)", "older_entries": "\(entries.count - inWindow.count)"])
        }
        return inWindow
    }

    /// Log metadata for a future-dated entry: its values quoted (server text), and how many there were.
    static func describe(_ entry: HistoryEntry, count: Int, latest: Timestamp?) -> Logger.Metadata {
        let quote = WatchQueries.RowError.quote
        return [
            "record": "\(quote(entry.record.rawValue))", "action": "\(quote(entry.action))",
            "user": "\(quote(entry.user))", "timestamp": "\(entry.timestamp)",
            "latest_plausible": "\(latest.map(\.rawValue) ?? "")", "count": "\(count)",
        ]
    }

    private func historyRows(_ query: QueryDefinition, maxRows: Int?) async throws -> [HistoryEntry] {
        let rows = try await client.run(query, storedAs: WatchQueries.historyQueryName, lifetime: .temporary,
                                  pageSize: poll.pageSize, maxRows: maxRows)
        let history = try WatchQueries.historyRows(rows)
        logger.debug("history read", metadata: ["rows": "\(rows.count)", "part": "\(maxRows == nil ? "window" : "newest entry")"])
        if history.formats != timestampFormats, !history.formats.isEmpty {
            timestampFormats = history.formats
            let forms = history.formats.map(\.description).sorted().joined(separator: ", ")
            logger.info("history timestamps", metadata: ["timestamp_format": "\(forms)"])
        }
        return history.entries
    }

    /// Replaces the records in `ids` with a fresh read (`SnapshotDiff.secondLook`). A record no longer in the
    /// set keeps its first reading: leaving is for the next poll to see.
    private func lookAgain(at ids: [RecordID], in observation: inout PollObservation, extra: [String]) async throws {
        guard !ids.isEmpty else { return }
        let fresh: [Record]
        do {
            fresh = try await client.run(
                WatchQueries.assignedRecords(Array(ids.prefix(Self.secondLookLimit)), extra: extra),
                storedAs: WatchQueries.assignedQueryName + " again", lifetime: .temporary, pageSize: poll.pageSize,
                transform: { try WatchQueries.records(fromRows: $0, extra: extra) })
        } catch let error as WatchQueries.RowError {
            throw CompassError.invalidResponse(endpoint: "result page", detail: error.message)
        }
        let byID = Dictionary(fresh.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        observation.records = observation.records.map { byID[$0.id] ?? $0 }
    }

    // MARK: - Compared fields

    /// How long the record type's field names are trusted before they are asked again.
    static let fieldNamesLifetime = 86_400.0

    /// The fields compared besides the six: `extra_fields`, or the defaults the record type has. A configured field
    /// the record type lacks is a configuration error that lists what it has; a server that will not say which
    /// fields it has gets the configured ones tried and no defaults.
    private func extraFields(dryRun: Bool) async throws -> [String] {
        let wanted = server.extraFields ?? WatchQueries.defaultExtraFields
        guard !wanted.isEmpty else { return [] }
        guard let known = try await fieldNames(dryRun: dryRun) else { return server.extraFields ?? [] }
        guard let configured = server.extraFields else { return wanted.filter(known.contains) }
        let missing = configured.filter { !known.contains($0) }
        guard missing.isEmpty else {
            throw CompassError.invalidConfiguration(
                "extra_fields lists \(missing.map(WatchQueries.RowError.quote).joined(separator: ", ")), which the "
                    + "record type \(WatchQueries.entity) does not have; it has "
                    + known.prefix(60).map(WatchQueries.RowError.quote).joined(separator: ", "))
        }
        return configured
    }

    /// The record type's field names, asked once a day and remembered in the store (a steady poll asks nothing
    /// more); `nil` when the server will not say.
    private func fieldNames(dryRun: Bool) async throws -> [String]? {
        let key = "record_fields \(server.url) \(server.repo) \(server.database)"
        let now = wallClock()
        if let stored = try state.value(forKey: key) {
            let lines = stored.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let asked = lines.first.flatMap(Double.init), now - asked >= 0, now - asked < Self.fieldNamesLifetime {
                return lines.count > 1 && lines[1] == "?" ? nil : Array(lines.dropFirst())
            }
        }
        let names = try await client.fieldNames(of: WatchQueries.entity)
        if names == nil { logger.info("the server does not say which fields a record has; comparing the built-in six") }
        if !dryRun {
            let value = ([String(now)] + (names ?? ["?"])).joined(separator: "\n")
            do { try state.setValue(value, forKey: key) } catch {
                logger.warning("could not remember the record type's fields", metadata: ["error": "\(error)"])
            }
        }
        return names
    }

    // MARK: - Who took a record

    /// The records no longer assigned to me, named with the colleague whose action took them, where the history
    /// since `since` tells it (their history is no longer among my records': it is asked for these records alone).
    /// My own last action (I gave it away) names nobody.
    private func namingWhoTookThem(_ changes: [Change], since: Timestamp?, me: String) async throws -> [Change] {
        let gone = changes.filter { $0.kind == .unassigned }.map(\.record)
        guard !gone.isEmpty, let since else { return changes }
        let entries: [HistoryEntry]
        do {
            entries = try await historyRows(WatchQueries.historyOfRecords(Array(gone.prefix(Self.secondLookLimit)), since: since),
                                      maxRows: nil).filter { $0.timestamp > since }
        } catch let error as WatchQueries.RowError {
            throw CompassError.invalidResponse(endpoint: "result page", detail: error.message)
        }
        var newest: [RecordID: HistoryEntry] = [:]
        for entry in entries where newest[entry.record].map({ entry.timestamp > $0.timestamp }) ?? true {
            newest[entry.record] = entry
        }
        return changes.map { change in
            guard change.kind == .unassigned, let entry = newest[change.record],
                entry.user.lowercased() != me.lowercased()
            else { return change }
            var named = Change(
                record: change.record, kind: change.kind, headline: change.headline, by: entry.user,
                action: entry.action, changes: change.changes, at: entry.timestamp, priority: change.priority,
                severity: change.severity, state: change.state, watch: change.watch, source: change.source)
            named.link = change.link
            return named
        }
    }
}
