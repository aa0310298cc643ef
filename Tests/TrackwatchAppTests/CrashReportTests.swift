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
}
