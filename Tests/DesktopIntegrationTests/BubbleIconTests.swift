import DesktopNotifier
import XCTest

/// Issue 20, item 6 and issue 21, item 5: where the bubbles' icon is looked for, and what they name.
final class BubbleIconTests: XCTestCase {
    private func find(_ executable: String, dataDirectories: String? = nil, files: Set<String>) -> BubbleIcon.Source {
        BubbleIcon.find(executable: executable, dataDirectories: dataDirectories, exists: files.contains)
    }

    func test_theIcon_byNameInASystemTheme_byPathElsewhere_andAThemedFallback() {
        let system = "/usr/share/icons/hicolor/scalable/apps/trackwatch.svg"
        let local = "/home/ann/.local/share/icons/hicolor/scalable/apps/trackwatch.svg"
        let tree = "/src/trackwatch/data/icons/hicolor/scalable/apps/trackwatch.svg"
        XCTAssertEqual(
            find("/usr/bin/trackwatch", files: [system]).appIcon, "trackwatch", "a package: every server finds it")
        XCTAssertEqual(find("/home/ann/.local/bin/trackwatch", files: [system, local]).appIcon, "trackwatch")
        XCTAssertEqual(
            find("/home/ann/.local/bin/trackwatch", files: [local]), .file(local),
            "make install: stock dunst does not look in ~/.local/share/icons")
        XCTAssertEqual(
            find("/src/trackwatch/.build/x86_64-unknown-linux-gnu/debug/trackwatch", files: [tree]), .file(tree),
            "the build tree: the source tree's file")
        XCTAssertEqual(
            find("/opt/tw/trackwatch", files: []).appIcon, "dialog-information", "nowhere: a name every theme has")
        XCTAssertEqual(
            find("/opt/bin/trackwatch", dataDirectories: "/opt/share", files: [system]).appIcon, "dialog-information",
            "the system data directories are XDG_DATA_DIRS")
    }
}
