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

    /// This test bundle links the runtime as a shared library, which finds its reporter in the toolchain and
    /// catches crashes; the static release binary's handler is checked end to end by `CoreDumpTests`.
    func test_crashHandler_isSeenWhereTheRuntimeInstalledOne() {
        XCTAssertTrue(CrashReports.crashHandlerInstalled(), "the shared runtime's crash handler")
        var saved = sigaction()
        var none = sigaction()
        XCTAssertEqual(sigaction(SIGSEGV, &none, &saved), 0)  // SIG_DFL, as the static runtime leaves it
        XCTAssertFalse(CrashReports.crashHandlerInstalled(), "nothing catches a crash: no report, no restart")
        XCTAssertEqual(sigaction(SIGSEGV, &saved, nil), 0)
        XCTAssertTrue(CrashReports.crashHandlerInstalled())
    }
}
