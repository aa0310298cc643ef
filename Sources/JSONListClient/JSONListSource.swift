import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// A JSON list as a source: each poll reads the list whole (`ListReader`), compares its items with the stored
/// snapshot (`ListDiff`: entered, left, changed as `notify` asks) and commits in one transaction (`WatchPoller`).
/// An unchanged list answers a conditional request with 304 and costs nothing more.
public final class JSONListSource: Source {
    /// The list's one watch in its own store.
    public static let watch = "items"

    public let config: JSONListConfig
    private let reader: ListReader
    private let transport: any HTTPTransport
    private let state: any PollState
    private let logger: Logger
    private let watchPoller: WatchPoller
    private let conditional: ConditionalState

    init(config: JSONListConfig, reader: ListReader, transport: any HTTPTransport, context: SourceContext) {
        self.config = config
        self.reader = reader
        self.transport = transport
        state = context.state
        var logger = context.logger
        logger[metadataKey: "source"] = "\(config.name)"
        self.logger = logger
        watchPoller = WatchPoller(
            source: config.name, state: context.state, logger: logger, wallClock: context.wallClock)
        conditional = ConditionalState(config: config, state: context.state, logger: logger)
    }

    public var settings: any SourceSettings { config }

    public func closeIdleConnections() { transport.closeIdleConnections() }

    public func close() async {}

    public func poll(dryRun: Bool, fullRead: Bool) async throws -> PollReport {
        let clock = ContinuousClock()
        let start = clock.now
        let stored = conditional.load()
        var answered: ConditionalState.Stored?
        var notModified = false
        let polled: WatchPoll
        do {
            polled = try await watchPoller.poll(Self.watch, dryRun: dryRun) { () throws -> WatchResult in
                switch try await reader.read(validators: stored?.validators) {
                case .notModified:
                    notModified = true
                    return WatchResult(outcome: Self.unchanged, recordCount: stored?.count ?? 0)
                case .list(let read):
                    // Forgotten before the commit, stored again after it: validators never vouch for an answer
                    // whose items were not committed (a dry run, a failed commit, a crash in between).
                    if !dryRun, stored != nil { try conditional.forget() }
                    let result = try compare(read)
                    if read.pages == 1, let validators = read.first?.validators {
                        answered = ConditionalState.Stored(validators: validators, count: result.recordCount)
                    }
                    return result
                }
            }
        } catch {
            // A 304 for a list without a baseline (its state was reset): ask unconditionally next time.
            if notModified, !dryRun { try? conditional.forget() }
            throw error
        }
        if !dryRun, let answered { conditional.store(answered) }
        var report = PollReport(
            changes: polled.changes, isBaseline: polled.isBaseline, recordCount: polled.recordCount,
            recordCountLabel: "in \(config.name)", durationMilliseconds: 0, silentUpdates: polled.silentUpdates,
            baselineNote: "Baseline: watching \(polled.recordCount) items of \(config.name); changes are reported "
                + "from the next check on.")
        report.durationMilliseconds = WatchPoller.milliseconds(clock.now - start)
        logger.debug("list read", metadata: ["not_modified": "\(notModified)", "items": "\(polled.recordCount)"])
        return report
    }

    static let unchanged = DiffOutcome(
        changes: [], delta: SnapshotDelta(), isBaseline: false, newlySeen: [],
        checkpoint: nil, silentUpdates: 0)

    /// The list compared with the stored snapshot. A key shared by items that differ keeps what was stored for it
    /// (a baseline keeps its first item; a later poll that had none keeps none), so that it is never reported as
    /// entered or left while it is ambiguous.
    private func compare(_ read: ListRead) throws -> WatchResult {
        let collector = read.collector
        warnAboutUnkeyed(collector)
        let previous = try state.snapshot(watch: Self.watch)
        var records = Array(collector.records.values)
        if let previous {
            records += collector.conflicting.keys.compactMap { previous.record(RecordID($0)) }
        } else {
            records += collector.firstOfConflicting.values
        }
        // Each key once: sorted here, the snapshot takes them as they are instead of sorting their positions.
        records.sort { $0.id < $1.id }
        let describer = ItemDescriber(config: config)
        var outcome = ListDiff.compare(
            previous: previous, records: records, rule: config.rule, isCompared: reader.shape.isCompared,
            watch: config.name, facts: describer.facts)
        outcome.changes = outcome.changes.map(describer.worded)
        return WatchResult(outcome: outcome, recordCount: records.count)
    }

    /// One warning per poll names the items left out: without a key, or sharing one with different fields.
    private func warnAboutUnkeyed(_ collector: ItemCollector) {
        guard collector.keylessCount > 0 || !collector.conflicting.isEmpty else { return }
        var metadata: Logger.Metadata = ["list": "\(config.name)"]
        if collector.keylessCount > 0 {
            let more = collector.keylessCount - collector.keyless.count
            metadata["without_key"] =
                "\(collector.keyless.joined(separator: ", "))\(more > 0 ? " and \(more) more" : "")"
        }
        if !collector.conflicting.isEmpty {
            let keys = collector.conflicting.sorted { $0.key < $1.key }
            let named = keys.prefix(5).map { "\(SafeText.oneLine($0.key, limit: 60)) (\($0.value) items)" }
            metadata["duplicated_keys"] =
                "\(named.joined(separator: ", "))\(keys.count > 5 ? " and \(keys.count - 5) more" : "")"
        }
        logger.warning(
            "items without a key, or sharing one, are left out: never reported as entered or left",
            metadata: metadata)
    }
}

/// How a change describes its item: the headline from `title` (else the key), who from `by`, the link from `link`.
struct ItemDescriber {
    let config: JSONListConfig

    func facts(_ record: Record) -> ItemFacts {
        func value(_ field: FieldPath) -> String? { field == config.key ? record.id.rawValue : record[field.name] }
        let title = config.title.map { $0.render(value) } ?? ""
        let headline = title.trimmingSpaces.isEmpty ? record.id.rawValue : title
        return ItemFacts(
            headline: headline, by: config.by.flatMap(value).flatMap { $0.isEmpty ? nil : $0 },
            link: config.link.flatMap { link(from: $0, value) })
    }

    /// `change` in the list's words: its item named by its title (or as `Item <key>`, never a bare number first),
    /// its fields and values by their readable names.
    func worded(_ change: Change) -> Change {
        var worded = Change(
            record: change.record, kind: change.kind, headline: change.headline, by: change.by, action: change.action,
            changes: change.changes.map(config.readable), at: change.at, priority: change.priority,
            severity: change.severity, state: change.state, watch: change.watch, source: change.source,
            link: change.link)
        worded.naming = change.headline == change.record.rawValue ? .key : .title
        return worded
    }

    /// `{html_url}` alone is the server's link as it is; in a longer template each value is percent-encoded. Only
    /// http(s) links are kept.
    private func link(from template: Template, _ value: (FieldPath) -> String?) -> String? {
        let text =
            template.singleField.flatMap(value)
            ?? template.render { value($0).map(ListURL.percentEncoded) }
        let lower = text.lowercased()
        return (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && ListURL(text) != nil ? text : nil
    }
}
