import Foundation
import XCTest

/// `scripts/install.sh` (what `make install` and the Debian package run) into a staging directory.
final class InstallTests: XCTestCase {
    /// Issue 13, item 8: the icon in the hicolor theme and a desktop entry that names it, valid by
    /// desktop-file-validate, so that the bubbles' `desktop-entry` hint resolves; uninstall removes both.
    func test_installsTheIconAndAValidDesktopEntry_andUninstallRemovesThem() throws {
        let stage = FileManager.default.temporaryDirectory.appendingPathComponent("tw-install-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: stage) }
        let home = stage.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let environment = ["HOME": home.path, "PREFIX": "/usr", "DESTDIR": stage.appendingPathComponent("root").path,
                           "BIN": productsDirectory.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path]
        let script = packageRoot.appendingPathComponent("scripts/install.sh").path
        let installed = try runProduct("/bin/bash", [script, "install"], environment: environment)
        XCTAssertEqual(installed.status, 0, installed.stderr)

        let root = stage.appendingPathComponent("root/usr/share")
        let icon = root.appendingPathComponent("icons/hicolor/scalable/apps/trackwatch.svg")
        let desktop = root.appendingPathComponent("applications/trackwatch.desktop")
        let svg = try String(contentsOf: icon, encoding: .utf8)
        XCTAssertTrue(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""), "an SVG image")
        XCTAssertLessThan(svg.utf8.count, 4_096, "small")
        let entry = try String(contentsOf: desktop, encoding: .utf8)
        XCTAssertTrue(entry.contains("\nIcon=trackwatch\n"), "named by the same theme name the bubbles use")
        XCTAssertTrue(entry.contains("\nNoDisplay=true\n"), "a daemon: not in the application menu")
        XCTAssertTrue(entry.contains("\nExec=/usr/bin/trackwatch status\n"), "the installed binary: \(entry)")
        XCTAssertTrue(entry.contains("\nTryExec=/usr/bin/trackwatch\n"), "by its absolute path, as Exec=: \(entry)")
        let validation = try runProduct("/usr/bin/desktop-file-validate", [desktop.path])
        XCTAssertEqual(validation.status, 0, validation.stdout + validation.stderr)
        XCTAssertEqual(validation.stdout + validation.stderr, "", "no warnings either")

        let removed = try runProduct("/bin/bash", [script, "uninstall"], environment: environment)
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: icon.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: desktop.path))
    }
}
