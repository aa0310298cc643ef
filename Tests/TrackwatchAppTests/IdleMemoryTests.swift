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

    func test_codeRanges_areTheFilesExecutableMappings_notTheKernelsOrWritableOnes() {
        let maps = """
            556900c04000-556900c06000 r--p 00000000 fe:00 253911                     /usr/bin/cat
            556900c06000-556900c0b000 r-xp 00002000 fe:00 253911                     /usr/bin/cat
            7f3a10000000-7f3a10021000 rw-p 00000000 00:00 0
            7f3a1a2b0000-7f3a1a2d8000 r-xp 00028000 fe:00 2637                       /opt/a dir/lib x.so (deleted)
            7ffd5a9f0000-7ffd5a9f2000 r-xp 00000000 00:00 0                          [vdso]
            ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]
            7f3a1a2d8000-7f3a1a2d0000 r-xp 00000000 fe:00 2637                       /backwards
            zz-7f r-xp 00000000 fe:00 2637                                           /not-hex
            """
        XCTAssertEqual(IdleMemory.codeRanges(inMaps: Array(maps.utf8)), [
            0x5569_00c0_6000..<0x5569_00c0_b000, 0x7f3a_1a2b_0000..<0x7f3a_1a2d_8000,
        ])
    }

    func test_codeRanges_ofThisProcess_areWhatALineByLineReadingFinds() {
        let maps = IdleMemory.procFile("/proc/self/maps")  // Foundation reads a /proc file only in part
        let expected = String(decoding: maps, as: UTF8.self).split(separator: "\n").compactMap { line -> Range<UInt>? in
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "r-xp", fields[5].hasPrefix("/") else { return nil }
            let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            return bounds[0]..<bounds[1]
        }
        XCTAssertGreaterThan(expected.count, 2, "the test binary and its libraries")
        XCTAssertEqual(IdleMemory.codeRanges(inMaps: maps), expected)
    }
}
