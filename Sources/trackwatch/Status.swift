import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StateStore
import TrackwatchApp
import TrackwatchCore

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the last poll, the record count and the last error of each source, from the state store.")

    @OptionGroup var options: ConfigOptions

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        do {
            let stores = try options.stores()
            if stores.count == 1 {
                let status = try stores[0].store.status()
                json ? Console.json(StatusJSON(status).text) : describe(status).forEach(Console.line)
                return
            }
            // Several servers: one section (or one JSON object per line) each, named.
            for (label, store) in stores {
                let status = try store.status()
                if json {
                    Console.json(StatusJSON(status, server: label).text)
                } else {
                    Console.line(label ?? "")
                    for line in describe(status) { Console.line("  " + line) }
                }
            }
        } catch {
            throw fail(error)
        }
    }

    /// One entry per line; an entry holding the server's text stays one line when printed (see `Console`).
    private func describe(_ status: StoreStatus) -> [String] {
        guard let last = status.lastPoll else { return ["No poll yet. Run `trackwatch check` or start the daemon."] }
        let outcome = last.error == nil ? "ok" : "failed"
        var lines = ["Last poll:    \(StatusJSON.time(last.startedAt)) (\(outcome), \(last.durationMilliseconds) ms)"]
        if let success = status.lastSuccess {
            lines.append("Last success: \(StatusJSON.time(success.startedAt)): \(success.recordCount) records, \(success.changeCount) changes")
        }
        if let next = status.nextPoll { lines.append("Next poll:    \(describe(next))") }
        for (watch, count) in status.recordCounts.sorted(by: { $0.key < $1.key }) {
            // The built-in watch has a history checkpoint; a [[watch]] (stored as "watch:<name>") has none.
            if watch.hasPrefix("watch:") {
                let failing = status.failingWatches[watch].map { "; its last poll failed: \($0)" } ?? ""
                lines.append("Watching:     \(count) records in \(watch.dropFirst("watch:".count))\(failing)")
            } else {
                // A list has no history, so no checkpoint either.
                let checkpoint = status.checkpoints[watch].map { ", checkpoint \($0.rawValue)" } ?? ""
                lines.append("Watching:     \(count) records (\(watch))\(checkpoint)")
            }
        }
        for (watch, error) in status.failingWatches.sorted(by: { $0.key < $1.key }) where status.recordCounts[watch] == nil && watch.hasPrefix("watch:") {
            lines.append("Failing:      \(watch.dropFirst("watch:".count)): \(error)")
        }
        if status.consecutiveFailures > 0, let error = status.lastError {
            lines.append("Failing:      \(status.consecutiveFailures) poll(s) in a row; last error: \(error.error ?? "")")
        } else if let error = status.lastError?.error, status.lastError?.startedAt == last.startedAt,
            !status.failingWatches.values.contains(error)
        {
            // The poll was made, but a part of it failed (a project it cannot read): said unless a watch says it.
            lines.append("Failing:      part of the last poll: \(error)")
        }
        if status.undelivered > 0 { lines.append("Undelivered:  \(status.undelivered) change(s), delivered at the next start") }
        return lines
    }
}

extension Status {
    /// `2026-11-22T10:15:00Z (the server asked for 600 s)`: each source has its own schedule. The daemon left it
    /// there after its last poll; a time long past means no daemon is polling.
    private func describe(_ next: NextPoll) -> String {
        let now = Date().timeIntervalSince1970
        var notes = next.why.map { [$0] } ?? []
        if next.at < now - 60 { notes.append("overdue: is the daemon running?") }
        return StatusJSON.time(next.at) + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
    }
}

/// `trackwatch status --json`.
struct StatusJSON: Encodable {
    let lastPoll: String?
    let lastPollOK: Bool?
    let lastSuccess: String?
    let records: [String: Int]
    let checkpoints: [String: String]
    let consecutiveFailures: Int
    let lastError: String?
    let lastErrorAt: String?
    let undelivered: Int
    /// The `[[server]]` profile, when there are several.
    let server: String?
    /// Watches whose last poll failed, with the error.
    let failingWatches: [String: String]
    /// When the daemon polls this source next, and why then (`nil`: at its interval).
    let nextPoll: String?
    let nextPollWhy: String?

    init(_ status: StoreStatus, server: String? = nil) {
        self.server = server
        failingWatches = status.failingWatches
        lastPoll = status.lastPoll.map { Self.time($0.startedAt) }
        lastPollOK = status.lastPoll.map { $0.error == nil }
        lastSuccess = status.lastSuccess.map { Self.time($0.startedAt) }
        records = status.recordCounts
        checkpoints = status.checkpoints.mapValues(\.rawValue)
        consecutiveFailures = status.consecutiveFailures
        lastError = status.lastError?.error
        lastErrorAt = status.lastError.map { Self.time($0.startedAt) }
        undelivered = status.undelivered
        nextPoll = status.nextPoll.map { Self.time($0.at) }
        nextPollWhy = status.nextPoll?.why
    }

    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// ISO 8601 in UTC, e.g. `2026-11-22T10:05:00Z`.
    static func time(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    }
}
