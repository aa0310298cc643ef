import Foundation
import XCTest

/// What a newcomer copies (issue 32.10): the example configuration and the README's minimal tables. Each tracker's
/// minimal table works on its own, against that tracker's server of ours, with only what a person fills in changed
/// (the URL, the e-mail, the secret in the file the table names); the example as copied, every table commented,
/// asks for a tracker and names them all.
final class FirstSetupTests: XCTestCase {
    /// A tracker of ours: the header of its table, and what a person fills in.
    private struct Tracker {
        let header: String
        let url: String
        let secret: String
        let server: AnyObject
    }

    private func tracker(_ header: String) throws -> Tracker {
        switch header {
        case "[[github]]":
            let sim = try GitHubSim()
            return Tracker(header: header, url: sim.url, secret: "ghp_sim_engineer", server: sim)
        case "[[gitlab]]":
            let sim = try GitLabSim()
            return Tracker(header: header, url: sim.url, secret: "glpat-sim-engineer", server: sim)
        case "[[forgejo]]":
            let sim = try ForgejoSim()
            return Tracker(header: header, url: sim.url, secret: "fj_sim_engineer", server: sim)
        case "[[azure_devops]]":
            let sim = try AzureDevOpsSim()
            return Tracker(header: header, url: sim.url, secret: "adosim-pat-engineer", server: sim)
        case "[[jira]]":
            let sim = try JiraSim()
            return Tracker(header: header, url: sim.url, secret: "jira-sim-engineer-token", server: sim)
        case "[[qase]]":
            let sim = try QaseSim()
            return Tracker(header: header, url: sim.apiURL, secret: "qase-sim-engineer-token", server: sim)
        case "[server]":
            let sim = try Simulator()
            return Tracker(header: header, url: sim.url, secret: "engineer", server: sim)
        default:
            throw XCTSkip("no server of ours for \(header)")
        }
    }

    private func text(_ path: String) throws -> String {
        try String(contentsOf: sourceRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The lines of the example's table `header` a person uncomments: the header and the `# key = value` lines
    /// after it, up to the first other line.
    private func minimalTable(_ header: String, in example: String) -> [String] {
        let lines = example.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "# \(header)") else { return [] }
        let table = lines[(start + 1)...].prefix { $0.firstMatch(of: #/^# [a-z_]+ = /#) != nil }
        return ([lines[start]] + table).map { String($0.dropFirst(2)) }
    }

    /// `check` in a fresh home whose configuration is `table` with what a person fills in: the baseline.
    private func assertWatched(_ table: [String], of tracker: Tracker, from origin: String,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trackwatch-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let directory = home.appendingPathComponent(".config/trackwatch")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var secretFiles: [String] = []
        let filled = table.map { entry -> String in
            if entry.hasPrefix("url = ") { return "url = \"\(tracker.url)\"" }
            if entry.hasPrefix("email = ") { return "email = \"engineer@example.com\"" }
            if let path = entry.firstMatch(of: /^(token_file|password_file) = "~\/([^"]+)"/) { secretFiles.append(String(path.2)) }
            return entry
        }
        XCTAssertEqual(secretFiles.count, 1, "\(origin): one secret file in \(table)", file: file, line: line)
        for path in secretFiles {
            let secret = home.appendingPathComponent(path)
            try Data("\(tracker.secret)\n".utf8).write(to: secret)
            chmod(secret.path, 0o600)
        }
        let config = directory.appendingPathComponent("config.toml")
        try Data((filled.joined(separator: "\n") + "\n").utf8).write(to: config)
        chmod(config.path, 0o600)
        let check = try runProduct("trackwatch", ["check"], environment: [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path,
        ])
        XCTAssertEqual(check.status, 0, "\(origin):\n\(filled.joined(separator: "\n"))\n\(check.stderr)", file: file, line: line)
        XCTAssertTrue(check.stdout.hasPrefix("Baseline: watching "), "\(origin): \(check.stdout)", file: file, line: line)
    }

    func test_example_eachTrackersMinimalTableUncommented_isWatchedOnItsOwn() throws {
        let example = try text("etc/config.example.toml")
        for header in ["[[github]]", "[[gitlab]]", "[[forgejo]]", "[[azure_devops]]", "[[jira]]", "[[qase]]", "[server]"] {
            let table = minimalTable(header, in: example)
            XCTAssertGreaterThan(table.count, 1, "config.example.toml has no commented \(header) table")
            try assertWatched(table, of: try tracker(header), from: "config.example.toml's \(header)")
        }
    }

    func test_example_asCopied_asksForATracker_namingEach() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trackwatch-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let config = home.appendingPathComponent("config.toml")
        try Data(try text("etc/config.example.toml").utf8).write(to: config)
        chmod(config.path, 0o600)
        let check = try runProduct("trackwatch", ["check", "--config", config.path], environment: ["HOME": home.path])
        XCTAssertEqual(check.status, 78, check.stderr)
        XCTAssertTrue(check.stderr.contains("no tracker to watch; uncomment or add your tracker's table"), check.stderr)
        for table in ["[[github]]", "[[gitlab]]", "[[forgejo]]", "[[azure_devops]]", "[[jira]]", "[[qase]]", "[[json]]", "[server]"] {
            XCTAssertTrue(check.stderr.contains(table), "names \(table): \(check.stderr)")
        }
        XCTAssertFalse(check.stderr.contains("password"), "no tracker's secret is asked for: \(check.stderr)")
    }

    /// doctor's fix for a token it cannot use names the action for that token's source (issue 32.13): not "put a
    /// token on the first line of that file" for a file of mode 644, a failing command or a keyring.
    func test_doctor_eachTokenSourceProblem_saysItsOwnFix() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trackwatch-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let token = home.appendingPathComponent("github-token"), config = home.appendingPathComponent("config.toml")
        try Data("ghp_sim_engineer\n".utf8).write(to: token)
        chmod(token.path, 0o644)
        let cases: [(source: String, says: String, fix: String)] = [
            ("token_file = \"\(token.path)\"", "✘ token_file \(token.path): refusing token_file", "chmod 600 \(token.path)"),
            ("token_command = \"echo nope >&2; exit 3\"", "(token_command): token_command failed (exit status 3): nope",
             "run the token_command in a terminal as the user trackwatch runs as"),
            ("keyring = true", "cannot start secret-tool", "apt install libsecret-tools"),
        ]
        for (source, says, fix) in cases {
            try Data("[[github]]\nurl = \"http://127.0.0.1:9/api/v3\"\n\(source)\n".utf8).write(to: config)
            chmod(config.path, 0o600)
            // A PATH without secret-tool: the keyring's tool is missing.
            let doctor = try runProduct("trackwatch", ["doctor", "--config", config.path], environment: [
                "HOME": home.path, "PATH": "/nonexistent", "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            ])
            XCTAssertEqual(doctor.status, 1, source)
            let lines = doctor.stdout.split(separator: "\n").map(String.init)
            let failed = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("✘") && $0.contains(says) }, "\(source): \(doctor.stdout)")
            XCTAssertEqual(lines[failed + 1], "    fix: \(fix)" + (fix.hasPrefix("run") ? ": it must exit 0 and print the secret alone on its first line" : ""),
                           source)
            XCTAssertFalse(doctor.stdout.contains("password_command"), "\(source): \(doctor.stdout)")
            XCTAssertFalse(doctor.stdout.contains("✔ token_file"), "\(source): \(doctor.stdout)")
        }
    }

    /// The README's Set up: each ```toml block is one tracker's minimal table, watched on its own.
    func test_readme_eachTrackersMinimalTable_isWatchedOnItsOwn() throws {
        let readme = try text("README.md")
        let setUp = try XCTUnwrap(readme.firstRange(of: "\n## Set up\n").map { readme[$0.upperBound...] })
        let section = setUp.firstRange(of: "\n## ").map { setUp[..<$0.lowerBound] } ?? setUp
        var headers: [String] = []
        for block in section.matches(of: /```toml\n((?:.*\n)*?)```/) {
            let lines = block.1.split(separator: "\n").map { String($0.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            guard let header = lines.first else { continue }
            headers.append(header)
            try assertWatched(lines, of: try tracker(header), from: "README.md's \(header)")
        }
        XCTAssertEqual(headers, ["[[github]]", "[[gitlab]]", "[[forgejo]]", "[[azure_devops]]", "[[jira]]", "[[qase]]", "[server]"])
    }
}
