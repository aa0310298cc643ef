import SourceKit
import XCTest

/// When an activity-log source reads everything again: first, after a gap or a clock set back, and hourly.
final class FullReadTests: XCTestCase {
    func test_whenAFullReadIsDue() {
        let now = 100_000.0
        let cases: [(Bool, Double?, Double?, Bool, String)] = [
            (false, 300, now - 600, true, "no snapshot: the baseline"),
            (true, nil, now - 600, true, "no poll committed yet"),
            (true, 300, nil, true, "no full read known"),
            (true, 300, now - 600, false, "a steady poll"),
            (true, 300, now - 3_600, true, "an hour since the last full read"),
            (true, 4_000, now - 600, true, "a gap longer than an hour (a suspended laptop)"),
            (true, -5, now - 600, true, "the clock went back"),
            (true, 300, now + 60, true, "a full read in the future: the clock went back"),
        ]
        for (snapshot, since, last, due, why) in cases {
            XCTAssertEqual(
                FullRead.isDue(hasSnapshot: snapshot, sinceLastPoll: since, lastFullRead: last, now: now), due, why)
        }
    }
}
