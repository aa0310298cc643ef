@testable import TrackwatchApp
import XCTest

/// What a command started from a shell puts into `SWIFT_BACKTRACE` before it restarts itself (the whole path, a
/// real crash, is `CoreDumpTests.test_crashReportFromTheCommandLine_showsNoRegistersOrMemory`).
final class CrashReportTests: XCTestCase {
    func test_backtraceSetting_addsRegistersNone_unlessRegistersOrReportsAreAlreadyDecided() {
        XCTAssertEqual(CrashReports.setting(nil), "registers=none")
        XCTAssertEqual(CrashReports.setting(""), "registers=none")
        XCTAssertEqual(CrashReports.setting("interactive=no"), "interactive=no,registers=none")
        XCTAssertNil(CrashReports.setting("registers=none"), "the unit's own: no restart")
        XCTAssertNil(CrashReports.setting("interactive=no, Registers=all"), "a person debugging asked for them")
        XCTAssertNil(CrashReports.setting("enable=no"), "no report at all")
        XCTAssertNil(CrashReports.setting("enable=off,interactive=no"))
    }

    func test_restart_onlyWhereTheRuntimeCouldReport() {
        let installed: Set = ["/opt/swift/usr/bin/../libexec/swift/linux/swift-backtrace-static",
                              "/root/libexec/swift/linux/swift-backtrace-static"]
        func mayRun(_ executable: String, root: String? = nil, shared: Bool = false) -> Bool {
            CrashReports.reporterMayRun(executable: executable, swiftRoot: root, sharedRuntime: shared,
                                        exists: { installed.contains($0) })
        }
        XCTAssertFalse(mayRun("/usr/bin/trackwatch"), "the package: a static runtime and no reporter to find")
        XCTAssertTrue(mayRun("/usr/bin/trackwatch", shared: true), "the shared runtime finds its reporter")
        XCTAssertTrue(mayRun("/opt/swift/usr/bin/trackwatch"), "beside a toolchain's static reporter")
        XCTAssertTrue(mayRun("/usr/bin/trackwatch", root: "/root"), "SWIFT_ROOT names a root with one")
        XCTAssertTrue(CrashReports.reporterMayRun(executable: nil, swiftRoot: nil, sharedRuntime: false,
                                                  exists: { _ in false }), "unknown: restart to be safe")
    }
}
