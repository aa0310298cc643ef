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
        XCTAssertTrue(heartbeat.tick(progressLimit: 45) == (true, true))
        heartbeat.probeReturned()
        clock.advance(3_600)
        XCTAssertTrue(heartbeat.tick(progressLimit: 45) == (true, true), "idle for an hour is fine: the probe came back")
    }

    func test_busyLoopMakingProgress_isAlive() {
        let clock = FakeClock()
        let heartbeat = Heartbeat(now: { clock.now() })
        _ = heartbeat.tick(progressLimit: 45)  // probe sent; the loop is busy polling
        clock.advance(30)
        heartbeat.beat()  // a request finished
        clock.advance(30)
        XCTAssertTrue(heartbeat.tick(progressLimit: 45) == (true, false))
    }

    func test_stuckLoop_isNotAlive() {
        let clock = FakeClock()
        let heartbeat = Heartbeat(now: { clock.now() })
        _ = heartbeat.tick(progressLimit: 45)
        clock.advance(46)
        XCTAssertTrue(heartbeat.tick(progressLimit: 45) == (false, false), "no probe back and no progress for 46 s")
    }
}
