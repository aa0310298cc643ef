import Foundation
import XCTest

/// scripts/install.sh (`make install`, and the package's staging tree) with the built binary, in a scratch home.
final class InstallScriptTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trackwatch-install-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try ".TH TRACKWATCH 1\n".write(to: scratch.appendingPathComponent("trackwatch.1"), atomically: false, encoding: .utf8)
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: scratch) }

    private var home: String { scratch.appendingPathComponent("home").path }

    @discardableResult
    private func install(_ action: String, _ environment: [String: String]) throws -> RunResult {
        var env = ["HOME": home, "BIN": productsDirectory.path, "MAN": scratch.appendingPathComponent("trackwatch.1").path,
                   "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent",
                   "XDG_RUNTIME_DIR": scratch.path]
        env.merge(environment) { $1 }
        let result = try runProduct("/bin/bash", [sourceRoot.appendingPathComponent("scripts/install.sh").path, action],
                                    environment: env, timeout: 120)
        XCTAssertEqual(result.status, 0, "install.sh \(action): \(result.stdout)\(result.stderr)")
        return result
    }

    /// The lines of `installed` that differ from the unit in the tree.
    private func changedLines(_ installed: String) throws -> [String] {
        let original = try String(contentsOf: sourceRoot.appendingPathComponent("systemd/trackwatch.service"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let rendered = try String(contentsOfFile: installed, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(original.count, rendered.count, "install.sh added or removed lines of the unit")
        return zip(original, rendered).filter { $0 != $1 }.map { String($0.1) }
    }

    func test_installWithAPrefix_pointsOnlyExecStartAndDocumentationThere() throws {
        let prefix = scratch.appendingPathComponent("opt/trackwatch").path
        let output = try install("install", ["PREFIX": prefix])
        let unit = home + "/.config/systemd/user/trackwatch.service"
        XCTAssertEqual(try changedLines(unit), [
            "Documentation=file:\(prefix)/share/doc/trackwatch/README.md",
            "ExecStart=\(prefix)/bin/trackwatch run",
        ], "the state lines (ExecStartPre=, ReadWritePaths=) and the comments are the daemon's, not PREFIX's")
        XCTAssertTrue(output.stdout.contains("systemctl --user enable --now trackwatch"), output.stdout)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: prefix + "/bin/trackwatch"))
    }

    /// Under the home directory, which the sandbox hides, the bind mounts of the binary and of the icon (which the
    /// daemon names by its path) follow it too, relative to %h.
    func test_installWithAPrefixUnderHome_movesTheBinarysLinesRelativeToH() throws {
        try install("install", ["PREFIX": home + "/apps/trackwatch"])
        XCTAssertEqual(try changedLines(home + "/.config/systemd/user/trackwatch.service"), [
            "Documentation=file:%h/apps/trackwatch/share/doc/trackwatch/README.md",
            "ExecStart=%h/apps/trackwatch/bin/trackwatch run",
            "BindReadOnlyPaths=-%h/apps/trackwatch/bin/trackwatch",
            "BindReadOnlyPaths=-%h/apps/trackwatch/share/icons/hicolor/scalable/apps/trackwatch.svg",
        ])
    }

    func test_installUnderHome_staysRelativeToH_andUninstallKeepsConfigAndState() throws {
        let before = Set(try FileManager.default.subpathsOfDirectory(atPath: scratch.path))
        try install("install", [:])
        let unit = home + "/.config/systemd/user/trackwatch.service"
        XCTAssertEqual(try changedLines(unit), [], "PREFIX=~/.local is what the unit in the tree says")
        let binary = home + "/.local/bin/trackwatch"
        XCTAssertFalse(try sectionNames(binary).contains(".debug_info"), "the installed binary is stripped")
        XCTAssertTrue(try sectionNames(productsDirectory.appendingPathComponent("trackwatch").path).contains(".debug_info"),
                      "the build keeps its debug information")
        XCTAssertEqual(try runProduct(binary, ["--version"]).status, 0, "the stripped binary runs")
        let config = home + "/.config/trackwatch/config.toml"
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: config)[.posixPermissions] as? Int, 0o600)
        try FileManager.default.createDirectory(atPath: home + "/.local/state/trackwatch", withIntermediateDirectories: true)

        let uninstalled = try install("uninstall", [:])
        let left = Set(try FileManager.default.subpathsOfDirectory(atPath: scratch.path)).subtracting(before)
        XCTAssertEqual(left.filter { !$0.hasPrefix("home/.config/trackwatch") && !$0.hasPrefix("home/.local/state") }
            .filter { !["home", "home/.local", "home/.local/bin", "home/.local/share", "home/.config", "home/.config/systemd",
                        "home/.config/systemd/user"].contains($0) && !$0.hasPrefix("home/.local/share/") }, [],
                       "uninstall left files behind: \(uninstalled.stdout)")
        let share = (try? FileManager.default.subpathsOfDirectory(atPath: home + "/.local/share")) ?? []
        XCTAssertEqual(share.filter { !FileManager.default.isDirectory(atPath: home + "/.local/share/" + $0) }, [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: config), "the configuration stays")
        XCTAssertTrue(uninstalled.stdout.contains("kept your configuration"), uninstalled.stdout)
    }

    /// What scripts/deb.sh packages: DESTDIR staging with PREFIX=/usr puts everything at the system locations.
    func test_stagingForAPackage_usesTheSystemLocations_andTouchesNothingOutside() throws {
        let stage = scratch.appendingPathComponent("stage").path
        let output = try install("install", ["DESTDIR": stage, "PREFIX": "/usr"])
        let files = Set(try FileManager.default.subpathsOfDirectory(atPath: stage)
            .filter { !FileManager.default.isDirectory(atPath: stage + "/" + $0) })
        for expected in ["usr/bin/trackwatch", "usr/lib/systemd/user/trackwatch.service",
                         "usr/lib/systemd/catalog/trackwatch.catalog", "usr/share/man/man1/trackwatch.1",
                         "usr/share/bash-completion/completions/trackwatch", "usr/share/zsh/vendor-completions/_trackwatch",
                         "usr/share/fish/vendor_completions.d/trackwatch.fish", "usr/share/doc/trackwatch/README.md",
                         "usr/share/doc/trackwatch/config.example.toml", "usr/share/doc/trackwatch/docs/configuration.md"] {
            XCTAssertTrue(files.contains(expected), "\(expected) not staged: \(files.sorted())")
        }
        XCTAssertEqual(files.filter { !$0.hasPrefix("usr/") }, [], "outside /usr")
        XCTAssertEqual(try changedLines(stage + "/usr/lib/systemd/user/trackwatch.service"), [
            "Documentation=file:/usr/share/doc/trackwatch/README.md",
            "ExecStart=/usr/bin/trackwatch run",
        ])
        XCTAssertFalse(FileManager.default.fileExists(atPath: home), "a staging install touches no home: \(output.stdout)")
    }

    private func sectionNames(_ binary: String) throws -> String {
        try runProduct("/usr/bin/readelf", ["-S", "-W", binary]).stdout
    }
}

extension FileManager {
    func isDirectory(atPath path: String) -> Bool {
        var directory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
