@testable import TrackwatchApp
import XCTest

/// What the daemon says it holds while it waits (systemd's status line), read from this very process.
final class IdleMemoryTests: XCTestCase {
    func test_usage_readsPrivateAndProportionalMemoryOfThisProcess() throws {
        let usage = try XCTUnwrap(IdleMemory.usage(), "/proc/self/status and smaps_rollup give RssAnon and Pss")
        XCTAssertGreaterThan(usage.privateKiB, 0)
        XCTAssertGreaterThan(usage.proportionalKiB, 0)
        let held = [UInt8](repeating: 1, count: 64 << 20)  // 64 MiB of private, touched memory
        let after = try XCTUnwrap(IdleMemory.usage())
        XCTAssertGreaterThan(after.privateKiB, usage.privateKiB + 60 * 1024, "\(held.count) bytes held")
    }

    func test_memoryNote_inMegabytesToOneDecimal() {
        XCTAssertEqual(Daemon.memoryNote((privateKiB: 3174, proportionalKiB: 10035)), "; idle 3.1 MB private, 9.8 MB PSS")
        XCTAssertEqual(Daemon.memoryNote((privateKiB: 0, proportionalKiB: 1024)), "; idle 0.0 MB private, 1.0 MB PSS")
    }

    func test_release_keepsTheCodeRunning() {
        IdleMemory.release()  // the code pages are unmapped, not lost: this very test goes on
        IdleMemory.release()
        XCTAssertNotNil(IdleMemory.usage())
    }
}
