@testable import JiraClient
import TrackwatchCore
import XCTest

/// `[[jira]]` tables: how each sign-in is read, and errors that name the file, the line and the key.
final class JiraConfigTests: XCTestCase {
    private func parse(_ text: String) throws(ConfigError) -> Config {
        try Config.parse(text, file: "/home/me/.config/trackwatch/config.toml", kinds: [JiraSourceKind()])
    }

    private func jira(_ lines: String) throws -> JiraSettings {
        try XCTUnwrap(try parse("[[jira]]\n" + lines).sources.first as? JiraSettings)
    }

    private func error(_ lines: String) -> ConfigError? {
        do { _ = try parse("[[jira]]\n" + lines) } catch { return error }
        XCTFail("parsed: \(lines)")
        return nil
    }

    func test_cloud_dataCenterToken_andPassword_areTheThreeSignIns() throws {
        let cloud = try jira("url = \"https://acme.atlassian.net/\"\nemail = \"me@acme.com\"\ntoken_file = \"t\"")
        XCTAssertEqual(cloud.signIn, .apiToken(email: "me@acme.com"))
        XCTAssertEqual(cloud.url, "https://acme.atlassian.net")
        XCTAssertEqual(cloud.credential, .tokenFile(path: "/home/me/.config/trackwatch/t"))
        XCTAssertEqual(cloud.stateFolder, "sources/jira")
        let pat = try jira("url = \"https://jira.example.com/jira\"\ntoken_file = \"~/t\"")
        XCTAssertEqual(pat.signIn, .personalToken)
        let password = try jira("url = \"https://jira.example.com\"\nusername = \"jdoe\"\npassword_file = \"p\"")
        XCTAssertEqual(password.signIn, .password(username: "jdoe"))
        XCTAssertEqual(password.credential, .passwordFile(path: "/home/me/.config/trackwatch/p"))
    }

    func test_narrowingAndSilencingKeys() throws {
        let settings = try jira(
            """
            url = "https://acme.atlassian.net"
            email = "me@acme.com"
            token_file = "t"
            jql = "  labels = backend  "
            projects = ["web", "OPS", "WEB"]
            ignore_apps = true
            ignore_users = ["Jira Bot"]
            """)
        XCTAssertEqual(settings.jql, "labels = backend")
        XCTAssertEqual(settings.projects, ["WEB", "OPS"])
        XCTAssertTrue(settings.ignoreApps)
        XCTAssertEqual(settings.ignoreUsers, ["Jira Bot"])
        XCTAssertEqual(
            JiraQuery(projects: settings.projects, narrowing: settings.jql).changed(inLast: 15),
            "(\(JiraQuery.mine) OR assignee CHANGED FROM currentUser() AFTER -15m) AND updated >= -15m "
                + "AND project in (WEB, OPS) AND (labels = backend) ORDER BY updated DESC")
    }

    func test_errors_nameTheLineAndKey_andSayWhatToDo() {
        let cases: [(String, String, String)] = [
            ("email = \"a@b.c\"\ntoken_file = \"t\"", "jira.url", "missing"),
            ("url = \"https://x.atlassian.net/rest/api/3\"\nemail = \"a@b.c\"\ntoken_file = \"t\"", "jira.url", "/rest/api"),
            ("url = \"https://me:secret@x.atlassian.net\"\ntoken_file = \"t\"", "jira.url", "user name or password"),
            ("url = \"https://x\"\nemail = \"a@b.c\"\nusername = \"u\"\ntoken_file = \"t\"", "jira.username", "not both"),
            ("url = \"https://x\"\nemail = \"a@b.c\"\npassword_file = \"p\"", "jira.password_file", "username"),
            ("url = \"https://x\"\nusername = \"u\"\ntoken_file = \"t\"", "jira.token_file", "password_file"),
            ("url = \"https://x\"\nemail = \"a@b.c\"", "jira.token_file", "id.atlassian.com"),
            ("url = \"https://x\"\ntoken_file = \"t\"\njql = \"project = A ORDER BY key\"", "jira.jql", "ORDER BY"),
            ("url = \"https://x\"\ntoken_file = \"t\"\nprojects = [\"1X\"]", "jira.projects", "project keys"),
        ]
        for (lines, key, words) in cases {
            guard let error = error(lines) else { continue }
            XCTAssertEqual(error.key, key, lines)
            XCTAssertNotNil(error.line, lines)
            XCTAssertTrue(error.message.contains(words), "\(lines): \(error.message)")
        }
    }

    func test_links_goToTheIssueInJirasWebUI_onlyForJiraKeys() throws {
        let settings = try jira("url = \"https://jira.example.com/jira\"\ntoken_file = \"t\"")
        XCTAssertEqual(
            settings.link(for: Change(record: RecordID("WEB-42"), kind: .modified, headline: "")),
            "https://jira.example.com/jira/browse/WEB-42")
        XCTAssertNil(settings.link(for: Change(record: RecordID("../etc?x=1"), kind: .modified, headline: "")))
    }
}
