@testable import DesktopNotifier
import XCTest

/// libnotify is opened when a notifier is made, not linked: what a missing or wrong library says, and that the
/// real one opens with every function trackwatch calls (the bubbles themselves: `NotificationTests`).
final class LibNotifyTests: XCTestCase {
    func test_theInstalledLibraryOpensWithEveryFunction() throws {
        // Not notify_init: the library is the process's one, and its application name would stay for other tests.
        let lib = try LibNotify.open()
        let variant = try XCTUnwrap(lib.g_variant_new_string("read back"))
        XCTAssertEqual(lib.g_variant_classify(variant), LibNotify.variantClassString)
        XCTAssertEqual(lib.g_variant_get_string(variant, nil).map { String(cString: $0) }, "read back")
        lib.g_variant_unref(variant)
    }

    func test_aMissingLibrary_saysWhatToInstall() {
        XCTAssertThrowsError(try LibNotify.open("libnotify-absent.so.4")) { error in
            let said = "\(error)"
            XCTAssertTrue(said.hasPrefix("libnotify-absent.so.4 cannot be opened ("), said)
            XCTAssertTrue(said.hasSuffix("; install libnotify4"), said)
        }
    }

    func test_aLibraryWithoutLibnotifysFunctions_isRefused() {
        // Another library on every machine that runs the tests: it opens, but has no notify_init.
        XCTAssertThrowsError(try LibNotify.open("libsqlite3.so.0")) { error in
            XCTAssertTrue("\(error)".hasPrefix("libsqlite3.so.0 has no notify_init ("), "\(error)")
        }
    }
}
