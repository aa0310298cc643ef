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

    /// Polls at `start`, fails one second later; returns when the next attempt is due.
    private func failedAttempt(_ schedule: inout PollSchedule, at start: Double, retryAfter: Double? = nil) -> Double {
        schedule.pollStarted(at: start, random: 0)
        schedule.pollFailed(startedAt: start, at: start + 1, retryAfter: retryAfter, random: 0)
        return schedule.dueAt!
    }

    func test_failures_retryWithDoublingDelays_cappedByTheRegularPoll() {
        var schedule = PollSchedule(interval: 300, jitterFraction: 0, firstRetry: 30)
        var at = 1_000.0
        var delays: [Double] = []
        for _ in 0..<6 {
            let due = failedAttempt(&schedule, at: at)
            delays.append(due - at)
            at = due
        }
        // 1 s for the failing request, then 30, 60, 120, 240; then the regular interval from the start.
        XCTAssertEqual(delays, [31, 61, 121, 241, 300, 300])
        XCTAssertEqual(schedule.failures, 6)
        schedule.pollStarted(at: at, random: 0)
        schedule.pollSucceeded()
        XCTAssertEqual(schedule.failures, 0)
        XCTAssertEqual(schedule.dueAt, at + 300, "after a success, the regular interval again")
    }

    func test_retryAfter_lengthensTheDelay_butNeverShortensIt_andIsBounded() {
        var schedule = PollSchedule(interval: 300, jitterFraction: 0, firstRetry: 30)
        XCTAssertEqual(failedAttempt(&schedule, at: 1_000, retryAfter: 120), 1_121, "server asked for 120 s")
        schedule = PollSchedule(interval: 300, jitterFraction: 0, firstRetry: 30)
        XCTAssertEqual(failedAttempt(&schedule, at: 1_000, retryAfter: 2), 1_031, "backoff is longer than 2 s")
        schedule = PollSchedule(interval: 300, jitterFraction: 0, firstRetry: 30)
        XCTAssertEqual(failedAttempt(&schedule, at: 1_000, retryAfter: 86_400), 1_001 + PollSchedule.longestRetryAfter)
    }

    func test_aRetryNeverComesLaterThanTheRegularPoll_whenTheFailureTookLong() {
        var schedule = PollSchedule(interval: 300, jitterFraction: 0, firstRetry: 30)
        schedule.pollStarted(at: 1_000, random: 0)
        // The request timed out after 290 s: the regular poll (1,300) comes before 290 + 30.
        schedule.pollFailed(startedAt: 1_000, at: 1_290, retryAfter: nil, random: 0)
        XCTAssertEqual(schedule.dueAt, 1_300)
    }
}

final class PollScheduleServerIntervalTests: XCTestCase {
    func test_aServerInterval_longerThanTheConfiguredOne_isHonoured_fromThePollsStart() {
        var schedule = PollSchedule(interval: 60, jitterFraction: 0)
        schedule.pollStarted(at: 1_000, random: 0)
        schedule.pollSucceeded(serverInterval: 300)
        XCTAssertEqual(schedule.dueAt, 1_300)
        XCTAssertEqual(schedule.standing, .serverAsked(seconds: 300))
        XCTAssertEqual(schedule.standing.note, "the server asked for 300 s")
    }

    func test_aServerInterval_shorterThanTheConfiguredOne_changesNothing_andIsBounded() {
        var schedule = PollSchedule(interval: 300, jitterFraction: 0)
        schedule.pollStarted(at: 1_000, random: 0)
        schedule.pollSucceeded(serverInterval: 60)
        XCTAssertEqual(schedule.dueAt, 1_300)
        XCTAssertEqual(schedule.standing, .regular)
        schedule.pollStarted(at: 2_000, random: 0)
        schedule.pollSucceeded(serverInterval: 1e12)
        XCTAssertEqual(schedule.dueAt, 2_000 + PollSchedule.longestServerInterval)
    }

    /// Issue 36, item 9: GitHub sent `X-Poll-Interval: 3600` once, and every later poll was an hour apart. One
    /// answer moves the next poll only, by at most 15 minutes; the poll after it is back on the interval.
    func test_aServerInterval_movesTheNextPollOnly_byAtMostFifteenMinutes() {
        var schedule = PollSchedule(interval: 60, jitterFraction: 0)
        schedule.pollStarted(at: 1_000, random: 0)
        schedule.pollSucceeded(serverInterval: 3_600)
        XCTAssertEqual(PollSchedule.longestServerInterval, 900)
        XCTAssertEqual(schedule.dueAt, 1_900, "bounded to 15 minutes")
        XCTAssertEqual(schedule.standing, .serverAsked(seconds: 900))
        schedule.pollStarted(at: 1_900, random: 0)
        schedule.pollSucceeded(serverInterval: nil)
        XCTAssertEqual(schedule.dueAt, 1_960, "the poll after is back on the interval")
        XCTAssertEqual(schedule.standing, .regular)
        schedule.pollStarted(at: 1_960, random: 0)
        schedule.pollFailed(startedAt: 1_960, at: 1_961, retryAfter: nil, random: 0)
        XCTAssertEqual(schedule.dueAt, 1_991, "a failure retries on its own rule, not the old server interval")
    }

    func test_standing_saysWhyTheNextPollIsThen() {
        var schedule = PollSchedule(interval: 300, jitterFraction: 0, firstRetry: 30)
        schedule.pollStarted(at: 1_000, random: 0)
        schedule.pollFailed(startedAt: 1_000, at: 1_001, retryAfter: nil, random: 0)
        XCTAssertEqual(schedule.standing, .retrying(failures: 1))
        XCTAssertEqual(schedule.standing.note, "retry 1")
        schedule.pollStarted(at: 1_031, random: 0)
        schedule.pollFailed(startedAt: 1_031, at: 1_032, retryAfter: 600, random: 0)
        XCTAssertEqual(schedule.standing, .serverAsked(seconds: 600))
        schedule.pollStarted(at: 1_632, random: 0)
        XCTAssertEqual(schedule.standing, .regular, "until the poll is known to have failed")
        XCTAssertNil(schedule.standing.note)
    }

    func test_aFailureThatWaitsForTheRegularPoll_isCounted_butNotRetriedSooner() {
        var schedule = PollSchedule(interval: 300, jitterFraction: 0, firstRetry: 30)
        schedule.pollStarted(at: 1_000, random: 0)
        schedule.pollFailedUntilTheRegularPoll()
        XCTAssertEqual(schedule.dueAt, 1_300)
        XCTAssertEqual(schedule.failures, 1)
    }
}
