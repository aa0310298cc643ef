// Times the in-process part of a poll at scale, without HTTP: diff a snapshot of N records (default
// 100,000) with 1% changed by a colleague, and persist it the way a poll does (one transaction). Prints one
// line per figure. scripts/bench.sh runs it (release build) next to the end-to-end measurements.
//
//   trackwatch-bench [RECORDS]
#if canImport(Glibc)
import Glibc
#endif
import CompassClient
import StateStore
import TrackwatchCore

let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 100_000
let watch = "assigned"
let clock = ContinuousClock()

func milliseconds(_ duration: Duration) -> String {
    let ms = Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    return String(Int(ms.rounded()))
}

func record(_ n: Int, state: String) -> Record {
    let id = "SAMPL" + String(repeating: "0", count: max(0, 8 - String(n).count)) + String(n)
    return Record(id: RecordID(id), fields: [
        "Headline": "Crash on save & exit <b>now</b> (\(n))", "State": state, "Priority": "2-Give High Attention",
        "Severity": "3-Average", "Submitter": "alice", "Owner": "engineer",
    ])
}

var directory = Array("/tmp/trackwatch-bench-XXXXXX".utf8CString)
guard mkdtemp(&directory) != nil else { fatalError("mkdtemp failed") }
let path = String(decoding: directory.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
defer { _ = system("rm -rf '\(path)'") }
let store = try StateStore(directory: path)

let baseline = (1...count).map { record($0, state: "Opened") }
var started = clock.now
let first = SnapshotDiff.compare(previous: nil, seen: [], observation: PollObservation(records: baseline, history: []),
                                 previousCheckpoint: nil, me: "engineer")
let log = PollLogEntry(startedAt: 0, durationMilliseconds: 0, recordCount: count, changeCount: 0, error: nil)
try store.commit(PollCommit(watch: watch, delta: first.delta, isBaseline: true, newlySeen: first.newlySeen,
                            pruneSeenBefore: nil, checkpoint: first.checkpoint, changes: [], log: log))
print("baseline of \(count) records, diff + persist: \(milliseconds(clock.now - started)) ms")

// 1% resolved by a colleague, each with its history entry.
var current = baseline
var history: [HistoryEntry] = []
for index in stride(from: 0, to: count, by: 100) {
    current[index] = record(index + 1, state: "Resolved")
    history.append(HistoryEntry(record: current[index].id, headline: current[index].headline, action: "Resolve",
                                timestamp: Timestamp("2026-11-23 10:00:00"), user: "lead", oldState: "Opened",
                                newState: "Resolved"))
}

started = clock.now
let previous = try store.snapshot(watch: watch)
let seen = try store.seenHistoryKeys(watch: watch)
let loaded = clock.now - started
started = clock.now
let outcome = SnapshotDiff.compare(previous: previous, seen: seen, observation: PollObservation(records: current, history: history),
                                   previousCheckpoint: nil, me: "engineer")
let diffed = clock.now - started
started = clock.now
let stored = try store.commit(PollCommit(
    watch: watch, delta: outcome.delta, isBaseline: false, newlySeen: outcome.newlySeen, pruneSeenBefore: nil,
    checkpoint: outcome.checkpoint, changes: outcome.changes, log: log))
let persisted = clock.now - started
guard stored.count == history.count else { fatalError("expected \(history.count) changes, found \(stored.count)") }
print("\(count) records, 1% changed (\(stored.count) changes): load snapshot \(milliseconds(loaded)) ms, diff \(milliseconds(diffed)) ms, persist \(milliseconds(persisted)) ms, total \(milliseconds(loaded + diffed + persisted)) ms")

// The history window's in-process cost (docs/performance.md): a poll whose window returns `rows` entries it has
// all seen before — the steady state — numbering identical entries and looking each key up.
let windowRows = 3_000
let windowRecords = Array(baseline.prefix(1_000))
let window = (0..<windowRows).map { index in
    HistoryEntry(record: windowRecords[index % windowRecords.count].id, headline: "", action: "Modify",
                 timestamp: Timestamp(secondsSinceEpoch: 1_795_000_000 + index * 17), user: "lead",
                 oldState: "Opened", newState: "Opened")
}
let windowSeen = Set(window.map(\.key))  // every entry distinct: each the first of its kind
let windowSnapshot = Snapshot(windowRecords)
let rounds = 20
started = clock.now
for _ in 0..<rounds {
    let polled = SnapshotDiff.compare(
        previous: windowSnapshot, seen: windowSeen,
        observation: PollObservation(records: windowRecords, history: window), previousCheckpoint: nil, me: "engineer")
    guard polled.changes.isEmpty, polled.newlySeen.isEmpty else { fatalError("the window's entries were all seen") }
}
let windowTime = clock.now - started
let microseconds = Double(windowTime.components.seconds) * 1e6 + Double(windowTime.components.attoseconds) / 1e12
let perRow = (microseconds / Double(rounds * windowRows) * 100).rounded() / 100
print("history window of \(windowRows) seen entries over \(windowRecords.count) records, diff: \(perRow) µs per row")
