import TrackwatchCore
import XCTest

/// Issue 27, item 4: each source has its own schedule; what one server asks for moves no other.
final class SourceSchedulesTests: XCTestCase {
    private func schedules(_ names: [String] = ["devices", "issues"]) -> SourceSchedules {
        var schedules = SourceSchedules(names: names, interval: 10, firstRetry: 1)
        for name in names { schedules[name].jitterFraction = 0 }
        return schedules
    }

    func test_atStart_everySourceIsDue() {
        let schedules = schedules()
        XCTAssertTrue(schedules.isDue("devices", at: 5))
        XCTAssertTrue(schedules.isDue("issues", at: 5))
        XCTAssertEqual(schedules.delay(at: 5), 0)
    }

    /// The case: two lists at a 10 s interval, one answering 429 with `Retry-After: 600`. Before, the one
    /// schedule waited 600 s for both.
    func test_aRetryAfterFromOneServer_delaysOnlyThatSource() {
        var schedules = schedules()
        for name in ["devices", "issues"] { schedules[name].pollStarted(at: 1_000, random: 0) }
        schedules["devices"].pollFailed(startedAt: 1_000, at: 1_001, retryAfter: 600, random: 0)
        schedules["issues"].pollSucceeded()
        XCTAssertEqual(schedules["devices"].dueAt, 1_601)
        XCTAssertEqual(schedules["issues"].dueAt, 1_010)
        XCTAssertEqual(schedules.delay(at: 1_001), 9, "the timers wake at the earliest due source")
        XCTAssertTrue(schedules.isDue("issues", at: 1_010))
        XCTAssertFalse(schedules.isDue("devices", at: 1_010))
    }

    func test_aFailingSource_backsOffAlone() {
        var schedules = schedules()
        for name in ["devices", "issues"] { schedules[name].pollStarted(at: 1_000, random: 0) }
        schedules["devices"].pollFailed(startedAt: 1_000, at: 1_000, retryAfter: nil, random: 0)
        schedules["issues"].pollSucceeded()
        XCTAssertEqual(schedules["devices"].failures, 1)
        XCTAssertEqual(schedules["issues"].failures, 0)
        XCTAssertEqual(schedules["devices"].dueAt, 1_001, "its own retry")
        XCTAssertEqual(schedules["issues"].dueAt, 1_010, "the other keeps its interval")
    }

    func test_pollAllNow_makesEverySourceDue() {
        var schedules = schedules()
        schedules["devices"].pollStarted(at: 1_000, random: 0)
        schedules["devices"].pollFailed(startedAt: 1_000, at: 1_001, retryAfter: 600, random: 0)
        schedules["issues"].pollStarted(at: 1_000, random: 0)
        schedules.pollAllNow()
        XCTAssertTrue(schedules.isDue("devices", at: 1_002))
        XCTAssertTrue(schedules.isDue("issues", at: 1_002))
    }

    func test_aReload_keepsTheScheduleOfSourcesThatRemain_andMakesNewOnesDue() {
        var schedules = schedules()
        schedules["devices"].pollStarted(at: 1_000, random: 0)
        schedules["devices"].pollFailed(startedAt: 1_000, at: 1_001, retryAfter: 600, random: 0)
        schedules["issues"].pollStarted(at: 1_000, random: 0)
        schedules.reconcile(names: ["devices", "qase"], interval: 20, firstRetry: 2)
        XCTAssertEqual(schedules["devices"].dueAt, 1_601, "the server that asked to wait is still waited out")
        XCTAssertEqual(schedules["devices"].interval, 20)
        XCTAssertEqual(schedules["devices"].firstRetry, 2)
        XCTAssertTrue(schedules.isDue("qase", at: 1_002), "a new source takes its baseline at once")
        XCTAssertEqual(schedules.delay(at: 1_002), 0)
        schedules["qase"].pollStarted(at: 1_002, random: 0)
        XCTAssertEqual(schedules.delay(at: 1_002), 20, "issues is gone; qase is next")
    }

    /// Each source's jitter would otherwise pull them apart: one wake-up per source and interval instead of one.
    func test_aSourceDueWithinTheJitter_joinsAWakeUpThatPollsAnother_butNeverOneThatWaitsForItsServer() {
        var schedules = SourceSchedules(names: ["devices", "issues", "limited"], interval: 300, firstRetry: 30)
        for name in ["devices", "issues", "limited"] { schedules[name].pollStarted(at: 1_000, random: 0) }
        schedules["issues"].pollStarted(at: 1_000, random: 1)  // due at 1,315
        schedules["limited"].pollFailed(startedAt: 1_000, at: 1_001, retryAfter: 305, random: 0)  // due at 1,306
        XCTAssertTrue(schedules.joins("devices", at: 1_300))
        XCTAssertTrue(schedules.joins("issues", at: 1_300), "15 s early: within 5 % of 300 s")
        XCTAssertFalse(schedules.joins("limited", at: 1_300), "its server asked for 305 s")
        XCTAssertFalse(schedules.joins("issues", at: 1_280), "20 s early is too early")
    }
}
