import Synchronization
import TrackwatchApp
import XCTest

final class HeartbeatTests: XCTestCase {
    private final class FakeClock: Sendable {
        let time = Mutex(100.0)
        func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
        func now() -> Double { time.withLock { $0 } }
    }

    func test_idleLoop_answersProbes_andIsAlive() {
        let clock = FakeClock()
        let heartbeat = Heartbeat(now: { clock.now() })
        XCTAssertTrue(heartbeat.tick(limit: 30) == (true, true))
        heartbeat.probeReturned()
        clock.advance(3_600)
        XCTAssertTrue(heartbeat.tick(limit: 30) == (true, true), "idle for an hour is fine: the probe came back")
    }

    /// A poll that holds its server for its whole deadline runs on its own thread: the loop answers meanwhile.
    func test_loopAnsweringLate_isAliveWithinTheLimit() {
        let clock = FakeClock()
        let heartbeat = Heartbeat(now: { clock.now() })
        _ = heartbeat.tick(limit: 30)  // probe sent
        clock.advance(20)
        XCTAssertTrue(heartbeat.tick(limit: 30) == (true, false), "out for 20 s: alive, no second probe")
        heartbeat.probeReturned()
        clock.advance(40)
        XCTAssertTrue(heartbeat.tick(limit: 30) == (true, true), "came back: a new probe")
    }

    func test_stuckLoop_isNotAlive() {
        let clock = FakeClock()
        let heartbeat = Heartbeat(now: { clock.now() })
        _ = heartbeat.tick(limit: 30)
        clock.advance(31)
        XCTAssertTrue(heartbeat.tick(limit: 30) == (false, false), "no probe back for 31 s")
    }
}
