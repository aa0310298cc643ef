@testable import CompassClient
import TrackwatchCore
import XCTest

/// `[[watch]]` and `[[server]]`: what they become, and every mistake located by line and key.
final class WatchConfigTests: XCTestCase {
    private let single = """
        [server]
        url = "https://compass.example.com:8190"
        repo = "2.0.0"
        database = "SAMPL"
        username = "engineer"

        """

    private func profile(_ name: String, line extra: String = "") -> String {
        """
        [[server]]
        name = "\(name)"
        url = "https://\(name).example.com"
        repo = "2.0.0"
        database = "SAMPL"
        username = "engineer"
        \(extra)

        """
    }

    func test_watches_onASingleServer() throws {
        let config = try Config.parse(single + """
            [[watch]]
            query = "Public Queries/Team P1s"

            [[watch]]
            name = "My review queue"
            query = "Personal Queries/Reviews/Needs my review"
            fields = ["State", "Priority"]
            notify = "changes"
            """, file: "c.toml")
        XCTAssertEqual(config.servers.count, 1)
        XCTAssertNil(config.servers[0].name, "a single [server] has no profile name")
        XCTAssertEqual(config.servers[0].watches, [
            WatchConfig(name: "Team P1s", query: WorkspacePath("Public Queries/Team P1s")!, fields: nil, rule: .entriesAndExits),
            WatchConfig(name: "My review queue", query: WorkspacePath("Personal Queries/Reviews/Needs my review")!,
                        fields: ["State", "Priority"], rule: .changes),
        ])
        XCTAssertEqual(config.servers[0].watches[1].query.components, ["Personal Queries", "Reviews", "Needs my review"])
        XCTAssertEqual(config.servers[0].watches[0].storeKey, "watch:Team P1s")
    }

    func test_serverProfiles_eachWithItsWatches() throws {
        let config = try Config.parse(profile("prod", line: "password_file = \"~/p\"") + profile("test") + """
            [[watch]]
            server = "test"
            query = "Public Queries/All Defects"
            notify = "entries"
            [poll]
            interval = "1m"
            """, file: "c.toml")
        XCTAssertEqual(config.servers.map(\.name), ["prod", "test"])
        XCTAssertEqual(config.servers.map(\.label), ["prod", "test"])
        XCTAssertEqual(config.servers[0].credential, .passwordFile(path: "~/p"))
        XCTAssertEqual(config.servers[0].watches, [])
        XCTAssertEqual(config.servers[1].watches.map(\.rule), [.entries])
        XCTAssertEqual(config.poll.interval, 60)
    }

    func test_mistakes_nameLineAndKey() {
        let watch = "[[watch]]\n"
        let cases: [(text: String, line: Int?, key: String?, says: String)] = [
            (single + watch + "name = \"x\"\n", 6, "watch.query", "missing; add query = \"Public Queries/Team P1s\""),
            (single + watch + "query = \"Team P1s\"\n", 7, "watch.query",
             "the root folder (\"Public Queries\" or \"Personal Queries\""),
            (single + watch + "query = \"Public Queries/\"\n", 7, "watch.query", "workspace path"),
            (single + watch + "query = \"Public Queries/A\"\nnotify = \"always\"\n", 8, "watch.notify",
             "expected one of \"entries\", \"entries_and_exits\", \"changes\""),
            (single + watch + "query = \"Public Queries/A\"\nfields = []\n", 8, "watch.fields", "expected field names"),
            (single + watch + "query = \"Public Queries/A\"\nfields = \"State\"\n", 8, "watch.fields", "expected an array of strings"),
            (single + watch + "query = \"Public Queries/A\"\nquery2 = 1\n", 8, "watch.query2", "unknown key; expected one of: name, query"),
            (single + watch + "query = \"Public Queries/A\"\nserver = \"prod\"\n", 8, "watch.server", "single [server] table"),
            (single + watch + "query = \"Public Queries/A\"\n" + watch + "query = \"Personal Queries/A\"\n", 9, "watch.name",
             "two [[watch]] tables of one server are named \"A\""),
            (single + "[watch]\nquery = \"Public Queries/A\"\n", 6, "watch", "expected [[watch]] tables"),
            (profile("prod") + profile("prod"), 9, "server.name", "used by two [[server]] tables"),
            (profile("prod") + "[[server]]\nurl = \"https://b\"\n", 8, "server.name", "each [[server]] needs a name"),
            (profile("../x"), 2, "server.name", "expected letters, digits"),
            (profile("prod") + profile("test") + watch + "query = \"Public Queries/A\"\n", 15, "watch.server",
             "each [[watch]] names its server"),
            (profile("prod") + watch + "query = \"Public Queries/A\"\nserver = \"qa\"\n", 10, "watch.server",
             "no [[server]] is named \"qa\"; expected one of prod"),
            (profile("prod").replacingOccurrences(of: "repo = \"2.0.0\"\n", with: ""), 1, "server.repo", "missing; add repo"),
        ]
        for (text, line, key, says) in cases {
            XCTAssertThrowsError(try Config.parse(text, file: "config.toml"), says) { error in
                guard let error = error as? ConfigError else { return XCTFail("not a ConfigError: \(error)") }
                XCTAssertEqual(error.line, line, "\(says): \(error)")
                XCTAssertEqual(error.key, key, "\(says): \(error)")
                XCTAssertTrue(error.description.contains(says), "expected '\(says)' in: \(error)")
            }
        }
    }

    func test_workspacePaths() {
        XCTAssertEqual(WorkspacePath("Public Queries/Team/P1s")?.queryName, "P1s")
        XCTAssertEqual(WorkspacePath("Personal Queries/Mine")?.description, "Personal Queries/Mine")
        // Root folders may carry their names in the server's language.
        XCTAssertEqual(WorkspacePath("Öffentliche Abfragen/Team P1s")?.components,
                       ["Öffentliche Abfragen", "Team P1s"])
        for bad in ["", "Public Queries", "Team P1s", "Public Queries//x", "/Public Queries/x", "Public Queries/x/"] {
            XCTAssertNil(WorkspacePath(bad), bad)
        }
    }
}
