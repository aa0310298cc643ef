import Foundation
import StateStore
import TrackwatchCore
import XCTest

/// A test case with a fresh temporary directory per test and builders for store inputs.
class StoreTestCase: XCTestCase {
    private(set) var directory = ""

    override func setUpWithError() throws {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("trackwatch-store-XXXXXX").path
        var bytes = Array(template.utf8CString)
        guard let created = mkdtemp(&bytes) else { throw XCTSkip("mkdtemp failed: errno \(errno)") }
        directory = String(cString: created)
    }

    override func tearDownWithError() throws {
        // Undo any chmod a test made so the tree can be removed.
        _ = chmod(directory, 0o700)
        try? FileManager.default.removeItem(atPath: directory)
    }

    func makeStore() throws -> StateStore { try StateStore(directory: directory) }

    var databasePath: String { directory + "/" + StateStore.fileName }

    func record(_ number: Int, state: String = "Opened", extra: [String: String] = [:]) -> Record {
        var fields = ["Headline": "Defect number \(number)", "State": state, "Priority": "2-High"]
        fields.merge(extra) { _, new in new }
        return Record(id: recordID(number), fields: fields)
    }

    func recordID(_ number: Int) -> RecordID {
        let digits = String(number)
        return RecordID("SAMPL" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits)
    }

    func log(at startedAt: Double = 1_700_000_000, records: Int = 0, changes: Int = 0, error: String? = nil)
        -> PollLogEntry
    {
        PollLogEntry(
            startedAt: startedAt, durationMilliseconds: 120, recordCount: records, changeCount: changes, error: error
        )
    }

    func key(_ number: Int, at timestamp: String, user: String = "alice", action: String = "Modify") -> HistoryKey {
        HistoryKey(record: recordID(number), action: action, timestamp: Timestamp(timestamp), user: user)
    }

    func change(_ number: Int, _ kind: ChangeKind = .modified) -> Change {
        Change(
            record: recordID(number), kind: kind, headline: "Defect number \(number)", by: "alice", action: "Resolve",
            changes: [FieldChange(field: "State", old: "Opened", new: "Resolved")],
            at: Timestamp("2025-03-01 10:00:00"), priority: "2-High", severity: nil
        )
    }

    func baseline(
        _ records: [Record], watch: String = "assigned", checkpoint: String? = "2025-03-01 09:00:00",
        at startedAt: Double = 1_700_000_000
    ) -> PollCommit {
        PollCommit(
            watch: watch, delta: SnapshotDelta(upserts: records), isBaseline: true, newlySeen: [],
            pruneSeenBefore: nil, checkpoint: checkpoint.map(Timestamp.init), changes: [],
            log: log(at: startedAt, records: records.count)
        )
    }

    func poll(
        watch: String = "assigned", upserts: [Record] = [], removals: [RecordID] = [], seen: [HistoryKey] = [],
        pruneBefore: String? = nil, checkpoint: String? = nil, changes: [Change] = [],
        at startedAt: Double = 1_700_000_300
    ) -> PollCommit {
        PollCommit(
            watch: watch, delta: SnapshotDelta(upserts: upserts, removals: removals), isBaseline: false,
            newlySeen: seen, pruneSeenBefore: pruneBefore.map(Timestamp.init),
            checkpoint: checkpoint.map(Timestamp.init), changes: changes,
            log: log(at: startedAt, changes: changes.count)
        )
    }

    /// The error `body` throws, as a `StoreError`; fails the test if it throws nothing or something else.
    func storeError(
        file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
    ) -> StoreError? {
        do {
            try body()
            XCTFail("expected a StoreError", file: file, line: line)
        } catch let error as StoreError {
            return error
        } catch {
            XCTFail("expected a StoreError, got \(error)", file: file, line: line)
        }
        return nil
    }
}
