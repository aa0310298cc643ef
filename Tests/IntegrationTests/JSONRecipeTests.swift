import Foundation
import XCTest

/// Every recipe of docs/recipes.md, read from the page itself and run against json-sim's route in that API's
/// documented shape: only the URL's origin and the credentials' files are replaced.
final class JSONRecipeTests: JSONSimTestCase {
    /// Where each recipe's URL points in the doc, and json-sim's path for it.
    private static let origins = [
        "devices": ("https://devices.example.com", ""), "directory": ("https://directory.example.com", ""),
        "github": ("https://api.github.com", "/github"), "gitlab": ("https://gitlab.example.com", "/gitlab"),
        "jira": ("https://jira.example.com", "/jira"),
    ]
    /// The secret each recipe's file holds, as json-sim's fixtures accept it.
    private static let secrets = [
        "directory": "pw-dl123", "github": "ghp_jsonsimDana0000000000000000000000000",
        "gitlab": "glpat-jsonsim-dana-0000", "jira": "jira-api-token-dana",
    ]

    /// The `[[json]]` block named `name` in docs/recipes.md.
    private func recipe(_ name: String) throws -> String {
        let page = productsDirectory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/recipes.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        let blocks = text.components(separatedBy: "```toml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        return try XCTUnwrap(blocks.first { $0.contains("name = \"\(name)\"") }, "no recipe \(name) in \(page.path)")
    }

    /// A workspace running the recipe `name`, its URL on json-sim, `replacing` applied to the block.
    private func workspace(_ name: String, replacing: [(String, String)] = []) throws -> Workspace {
        var block = try recipe(name)
        let (origin, prefix) = try XCTUnwrap(Self.origins[name])
        block = block.replacingOccurrences(of: "url = \"\(origin)", with: "url = \"\(sim.url)\(prefix)")
        let workspace = try Workspace(serverURL: sim.url)
        if let secret = Self.secrets[name] {
            let file = try workspace.secretFile("\(name)-secret", secret)
            block = block.replacingOccurrences(
                of: #"(password_file|token_file) = "[^"]*""#, with: "$1 = \"\(file)\"", options: .regularExpression)
        }
        for (old, new) in replacing {
            XCTAssertTrue(block.contains(old), "\(name): \(old)")
            block = block.replacingOccurrences(of: old, with: new)
        }
        workspace.customConfig = block
        try workspace.writeConfig()
        return workspace
    }

    private func baseline(_ workspace: Workspace, items: Int, _ file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let result = try workspace.trackwatch(["check"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stdout.contains("watching \(items) items"), result.stdout, file: file, line: line)
    }

    func test_deviceTracker() throws {
        let workspace = try workspace("devices")
        try baseline(workspace, items: 6)
        try sim.act("checkout", "--device", "2", "--as", "Dana Lee")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["2 changed"])
        XCTAssertEqual(fieldChanges(changes.first), ["Last checked out by: Chris Evans → Dana Lee"])
        XCTAssertEqual(changes.first?["by"] as? String, "Dana Lee")
        // Issue 27, item 11: the sentence names the device by its title and says who, in the recipe's words
        // (before: `1 changed in devices: Pixel 8 (Android 14) (isCheckedOut: false → true, …)`).
        try sim.act("checkout", "--device", "1", "--as", "Sam Carter")
        let check = try workspace.trackwatch(["check"])
        XCTAssertEqual(
            check.stdout.split(separator: "\n").first.map(String.init),
            "Pixel 8 (Android 14) changed by Sam Carter in devices (Checked out: no → yes, Last checked out by: "
                + "Sam Carter)", check.stdout)
    }

    func test_classDirectory() throws {
        let workspace = try workspace("directory")
        try baseline(workspace, items: 14)
        try sim.act(
            "join", "--netid", "nj902", "--duid", "1000021", "--first", "Ola", "--last", "Berg", "--team",
            "Team Kestrel")
        try sim.act("change-team", "--netid", "km77", "--team", "Team Kestrel")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["1000007 changed", "1000021 entered"])
        XCTAssertEqual(changes.last?["headline"] as? String, "Ola Berg (nj902)")
        XCTAssertEqual(fieldChanges(changes.first), ["team:  → Team Kestrel"])
    }

    /// As written (one page of 100, then a 304), and with pages of 2 through `Link` headers; the token is sent as a
    /// bearer token and appears in no output, log or state.
    func test_githubIssuesAssignedToMe() throws {
        let workspace = try workspace("github")
        try baseline(workspace, items: 6)
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        XCTAssertEqual(try sim.stats()["notModified"] as? Int, 1, "an unchanged list: one 304")
        try sim.act("assign", "--tracker", "github", "--issue", "3", "--to", "dana")
        try sim.act("set-issue", "--tracker", "github", "--issue", "2", "--set", "state=closed")
        try sim.act("set-issue", "--tracker", "github", "--issue", "4", "--set", "title=Support quotes")
        let changes = try workspace.trackwatch(["check", "--json", "--verbose"])
        XCTAssertEqual(changeSummaries(changes.objects), ["2000000003 entered", "2000000004 changed", "2000000002 left"])
        XCTAssertEqual(changes.objects.first?["headline"] as? String, "acme/widgets#3: Flaky test: poll after restart")
        let token = try XCTUnwrap(Self.secrets["github"])
        XCTAssertFalse(changes.stdout.contains(token) || changes.stderr.contains(token), "the token in output")
        XCTAssertFalse(changes.stderr.contains(String(token.prefix(12))), "part of the token in the log")
        for file in try FileManager.default.subpathsOfDirectory(atPath: workspace.directory.path)
        where !file.hasSuffix("secret") {
            let data = (try? Data(contentsOf: workspace.directory.appendingPathComponent(file))) ?? Data()
            XCTAssertNil(data.range(of: Data(token.utf8)), "the token in \(file)")
        }

        let paged = try self.workspace("github", replacing: [("per_page=100", "per_page=2")])
        try sim.reset()
        try baseline(paged, items: 6)
        XCTAssertEqual(try sim.requests(to: "GET /github/issues"), 3, "three pages through Link headers")
    }

    func test_gitlabIssuesAssignedToMe() throws {
        let workspace = try workspace("gitlab", replacing: [("per_page=100", "per_page=2")])
        try baseline(workspace, items: 6)
        XCTAssertEqual(try sim.requests(to: "GET /gitlab/api/v4/issues"), 3, "three pages through X-Next-Page")
        XCTAssertEqual(
            (try sim.stats()["credentialsByRoute"] as? [String: [String: Int]])?["GET /gitlab/api/v4/issues"],
            ["private-token": 3])
        try sim.act("assign", "--tracker", "gitlab", "--issue", "7", "--to", "lee")
        try sim.act("set-issue", "--tracker", "gitlab", "--issue", "1", "--set-json", #"labels=["bug","p1"]"#)
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["5001 changed", "5007 left"])
        XCTAssertEqual(fieldChanges(changes.first), [#"labels: ["bug"] → ["bug","p1"]"#])
        XCTAssertEqual(changes.first?["headline"] as? String, "acme/widgets#1: Crash when the list is empty")
    }

    /// As written, and with pages of 2 by `startAt` up to the stated `total`.
    func test_jiraIssuesAssignedToMe() throws {
        let dana = ("username = \"you@example.com\"", "username = \"dana@example.com\"")
        let workspace = try workspace("jira", replacing: [dana])
        try baseline(workspace, items: 7)
        try sim.act("assign", "--tracker", "jira", "--issue", "3", "--to", "dana")
        try sim.act("set-issue", "--tracker", "jira", "--issue", "1", "--set", "state=closed")
        let changes = try workspace.checkChanges()
        XCTAssertEqual(changeSummaries(changes), ["WID-1 changed", "WID-3 entered"])
        XCTAssertEqual(fieldChanges(changes.first), ["/fields/status/name: To Do → Done"])

        try sim.reset()
        let paged = try self.workspace("jira", replacing: [dana, ("limit = 50", "limit = 2")])
        try baseline(paged, items: 7)
        XCTAssertEqual(try sim.requests(to: "GET /jira/rest/api/2/search"), 4, "7 issues in pages of 2")
    }
}
