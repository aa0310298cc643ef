import TrackwatchCore
import XCTest

final class PollScheduleTests: XCTestCase {
    func test_firstPollIsDueAtStart() {
        XCTAssertTrue(PollSchedule(interval: 300).isDue(at: 12))
    }

    func test_nextPollIsDueOneIntervalPlusJitterLater() {
        var schedule = PollSchedule(interval: 300, jitterFraction: 0.1)
        schedule.pollStarted(at: 1_000, random: 0.5)
        XCTAssertEqual(schedule.dueAt, 1_315)
        XCTAssertFalse(schedule.isDue(at: 1_200))
        XCTAssertEqual(schedule.delay(at: 1_200), 115)
        XCTAssertTrue(schedule.isDue(at: 1_314.5), "a timer firing slightly early still polls")
    }

    func test_afterSuspend_theOverduePollRunsAtOnce() {
        var schedule = PollSchedule(interval: 300, jitterFraction: 0)
        schedule.pollStarted(at: 1_000, random: 0)
        // Suspended for an hour: boot time moved on by 3600 s while the process was frozen.
        XCTAssertTrue(schedule.isDue(at: 4_600))
        XCTAssertEqual(schedule.delay(at: 4_600), 0)
    }

    func test_wallClockJumps_doNotMatter_becauseOnlyBootTimeIsUsed() {
        var schedule = PollSchedule(interval: 300, jitterFraction: 0)
        schedule.pollStarted(at: 1_000, random: 0)
        // A wake-up caused by the wall clock jumping forward is not a poll: boot time says 10 s passed.
        XCTAssertFalse(schedule.isDue(at: 1_010))
        XCTAssertEqual(schedule.delay(at: 1_010), 290)
    }

    func test_pollNow_makesThePollDueImmediately() {
        var schedule = PollSchedule(interval: 300)
        schedule.pollStarted(at: 1_000, random: 0.3)
        schedule.pollNow()
        XCTAssertTrue(schedule.isDue(at: 1_001))
    }
}
