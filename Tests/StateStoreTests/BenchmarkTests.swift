import StateStore
import TrackwatchCore
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Opt-in timings for the sizes the daemon must handle: `TRACKWATCH_BENCHMARK=1 swift test --filter
/// BenchmarkTests`. Not a pass/fail criterion: machines differ too much; the figures are printed for people.
final class BenchmarkTests: StoreTestCase {
    func test_benchmark_hundredThousandRecordBaseline_onePercentDelta_reload() throws {
        try XCTSkipUnless(getenv("TRACKWATCH_BENCHMARK") != nil, "set TRACKWATCH_BENCHMARK=1 to run")
        let store = try makeStore()
        let records = (1...100_000).map {
            record($0, extra: ["Owner": "me", "Severity": "3-Average", "Project": "P\($0 % 17)"])
        }
        let updated = stride(from: 1, through: 100_000, by: 200).map { record($0, state: "Resolved") }
        let added = (200_001...200_500).map { record($0) }
        let removed = stride(from: 3, through: 100_000, by: 200).map { recordID($0) }

        let baselineTime = try seconds { try store.commit(baseline(records)) }
        let deltaTime = try seconds { try store.commit(poll(upserts: updated + added, removals: removed)) }
        var loaded: Snapshot?
        let loadTime = try seconds { loaded = try store.snapshot(watch: "assigned") }
        XCTAssertEqual(loaded?.count, 100_000)
        // stdout of a test run is its report; the daemon itself never prints.
        print("benchmark: baseline 100k \(baselineTime) s, delta 1% \(deltaTime) s, load 100k \(loadTime) s")
    }

    private func seconds(_ body: () throws -> Void) throws -> Double {
        var start = timespec()
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        try body()
        clock_gettime(CLOCK_MONOTONIC, &end)
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    }
}
