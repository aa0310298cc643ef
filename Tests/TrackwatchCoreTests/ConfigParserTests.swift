@testable import CompassClient
import TrackwatchCore
import XCTest

final class ConfigParserTests: XCTestCase {
    private let minimal = """
        [server]
        url = "https://compass.example.com:8190"
        repo = "2.0.0"
        database = "SAMPL"
        username = "engineer"

        """

    func test_minimalConfig_getsDefaults() throws {
        let config = try Config.parse(minimal, file: "c.toml")
        XCTAssertEqual(config.servers[0].url, "https://compass.example.com:8190")
        XCTAssertEqual(config.servers[0].credential, .emptyPassword)
        XCTAssertEqual(config.poll, PollConfig(interval: 300, overlap: 600, pageSize: 1000))
        XCTAssertEqual(config.notify, NotifyConfig(summaryThreshold: 3, desktop: true))
        XCTAssertFalse(config.servers[0].insecure)
    }

    func test_fullConfig() throws {
        let config = try Config.parse(minimal + """
            password_command = 'pass show "compass"'   # a comment
            ca_file = "~/ca.pem"
            insecure = true
            timeout = "1m"
            [poll]
            interval = "1h30m"
            overlap = 120
            page_size = 5_000
            [notify]
            summary_threshold = 5
            desktop = false
            """, file: "c.toml")
        XCTAssertEqual(config.servers[0].credential, .passwordCommand(#"pass show "compass""#))
        XCTAssertEqual(config.servers[0].caFile, "~/ca.pem")
        XCTAssertTrue(config.servers[0].insecure)
        XCTAssertEqual(config.servers[0].requestTimeout, 60)
        XCTAssertEqual(config.poll, PollConfig(interval: 5_400, overlap: 120, pageSize: 5_000))
        XCTAssertEqual(config.notify, NotifyConfig(summaryThreshold: 5, desktop: false))
    }

    func test_credentialSources() throws {
        XCTAssertEqual(try Config.parse(minimal + "password_file = \"~/p\"\n", file: "c").servers[0].credential, .passwordFile(path: "~/p"))
        XCTAssertEqual(try Config.parse(minimal + "credential = \"compass\"\n", file: "c").servers[0].credential, .systemdCredential(name: "compass"))
        XCTAssertEqual(try Config.parse(minimal + "token_file = \"/t\"\n", file: "c").servers[0].credential, .tokenFile(path: "/t"))
        XCTAssertEqual(try Config.parse(minimal + "keyring = true\n", file: "c").servers[0].credential,
                       .keyring(attributes: ["service", "trackwatch", "server", "https://compass.example.com:8190", "user", "engineer"]))
        XCTAssertThrowsError(try Config.parse(minimal + "keyring = true\npassword_file = \"/p\"\n", file: "c")) { error in
            XCTAssertEqual((error as? ConfigError)?.line, 6)
            XCTAssertEqual((error as? ConfigError)?.key, "server.keyring")
        }
    }

    /// Each bad input and the line and key its error must name.
    func test_errors_nameFileLineAndKey() {
        let cases: [(text: String, line: Int?, key: String?, says: String)] = [
            (minimal + "[poll]\ninterval = \"5 minutes\"\n", 7, "poll.interval", "expected a duration"),
            (minimal + "[poll]\ninterval = \"5s\"\n", 7, "poll.interval", "at least 10s"),
            (minimal + "[poll]\npage_size = \"big\"\n", 7, "poll.page_size", "expected an integer, found a string"),
            (minimal + "[poll]\npage_size = 0\n", 7, "poll.page_size", "expected 1…100000"),
            (minimal + "[poll]\nintervall = \"5m\"\n", 7, "poll.intervall", "unknown key; expected one of: interval"),
            (minimal + "[notifications]\n", 6, "notifications", "unknown setting"),
            (minimal + "insecure = \"yes\"\n", 6, "server.insecure", "expected true or false"),
            (minimal + "password_file = \"a\"\ntoken_file = \"b\"\n", 7, "server.token_file", "set only one of password_file and token_file"),
            (minimal.replacingOccurrences(of: "repo = \"2.0.0\"\n", with: ""), nil, "server.repo", "missing; add repo ="),
            (minimal.replacingOccurrences(of: "https://compass.example.com:8190", with: "compass.example.com"), 2, "server.url", "http:// or https://"),
            ("[poll]\ninterval = \"5m\"\n", nil, nil, "no tracker to watch; uncomment or add your tracker's table: "),
            (minimal + "repo = \"again\"\n", 6, nil, "duplicate key repo"),
            (minimal + "timeout = \"30s\" extra\n", 6, nil, "unexpected text after the value"),
            (minimal + "[poll]\n[poll]\n", 7, nil, "defined twice"),
            (minimal + "[poll]\ninterval = \"5m\n", 7, nil, "not closed"),
            (minimal + "[poll]\ninterval = 5m\n", 7, nil, "is not a value"),
            (minimal + "[poll]\nwhen = 2026-11-22T10:00:00\n", 7, nil, "dates and times are not supported"),
            (minimal + "[poll]\nwhen = 10:00\n", 7, nil, "dates and times are not supported"),
            // An unquoted string: the fix, not a remark about dates (the URL has colons).
            (minimal.replacingOccurrences(of: "\"https://compass.example.com:8190\"", with: "https://compass.example.com:8190  # c"),
             2, nil, #"quote the value, as in "https://compass.example.com:8190""#),
            (minimal + "[[watch]]\nquery = Public Queries/Team P1s\n", 7, nil, #"as in "Public Queries/Team P1s""#),
            // Another format altogether: said as such.
            (#"{"server": {"url": "https://compass.example.com:8190"}}"#, nil, nil, "this looks like JSON, but the configuration is TOML"),
            ("\n[\n  {\"server\": 1}\n]\n", nil, nil, "this looks like JSON"),
            ("# mine\nserver:\n  url: https://compass.example.com:8190\n", nil, nil, "this looks like YAML, but the configuration is TOML"),
            ("---\nserver: {}\n", nil, nil, "this looks like YAML"),
        ]
        for (text, line, key, says) in cases {
            XCTAssertThrowsError(try Config.parse(text, file: "/home/e/.config/trackwatch/config.toml")) { error in
                guard let error = error as? ConfigError else { return XCTFail("not a ConfigError: \(error)") }
                XCTAssertEqual(error.line, line, "\(says): \(error)")
                XCTAssertEqual(error.key, key, "\(says): \(error)")
                XCTAssertTrue(error.description.contains(says), "expected '\(says)' in: \(error)")
                XCTAssertTrue(error.description.hasPrefix("/home/e/.config/trackwatch/config.toml"), "\(error)")
            }
        }
    }

    /// As copied, every tracker's table is commented: the example asks for one. Each tracker's minimal table,
    /// uncommented alone, makes a configuration of that one source.
    func test_exampleConfigInTheRepository_parsesWithAnyOneTrackersTableUncommented() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("etc/config.example.toml")
        let example = try String(contentsOf: path, encoding: .utf8)
        XCTAssertThrowsError(try Config.parse(example, file: path.path)) { error in
            XCTAssertTrue("\(error)".contains("no tracker to watch"), "\(error)")
        }
        let tables = ["[[github]]": "github", "[[gitlab]]": "gitlab", "[[jira]]": "jira", "[[qase]]": "qase",
                      "[server]": "compass", "[[json]]": "devices"]
        for (header, name) in tables.sorted(by: { $0.key < $1.key }) {
            let text = uncommentingMinimalTable(header, in: example)
            XCTAssertNotEqual(text, example, "no commented \(header) table")
            let config = try Config.parse(text, file: path.path)
            XCTAssertEqual(config.sources.map(\.sourceName), [name], header)
            XCTAssertEqual(config.poll.interval, 300)
        }
    }
}

final class TOMLTests: XCTestCase {
    func test_stringsNumbersArraysAndTables() throws {
        let table = try TOML.parse(#"""
            a = "tab\there \u00e9"
            b = 'C:\raw'
            c = """
            two
            lines"""
            d = [1, 2,
                 3, # comment
            ]
            e = { x = 1, y.z = "deep" }
            f.g = true
            h = 0x10
            i = 1.5e3
            [[watch]]
            name = "one"
            [[watch]]
            name = "two"
            [t."quoted key"]
            k = 'v'
            """#)
        guard case .string(let a) = table["a"]?.kind, case .string(let b) = table["b"]?.kind,
            case .string(let c) = table["c"]?.kind, case .array(let d) = table["d"]?.kind,
            case .table(let e) = table["e"]?.kind, case .table(let f) = table["f"]?.kind,
            case .array(let watches) = table["watch"]?.kind, case .table(let t) = table["t"]?.kind
        else { return XCTFail("\(table.keys)") }
        XCTAssertEqual(a, "tab\there é")
        XCTAssertEqual(b, #"C:\raw"#)
        XCTAssertEqual(c, "two\nlines")
        XCTAssertEqual(d.count, 3)
        XCTAssertEqual(e.keys, ["x", "y"])
        XCTAssertEqual(f.keys, ["g"])
        XCTAssertEqual(watches.count, 2)
        XCTAssertEqual(watches[1].line, 15)
        XCTAssertNotNil(t["quoted key"])
        if case .integer(let h) = table["h"]?.kind { XCTAssertEqual(h, 16) } else { XCTFail("h") }
        XCTAssertEqual(table["i"]?.line, 12)
    }

    func test_nestingIsBounded() {
        XCTAssertThrowsError(try TOML.parse("a = " + String(repeating: "[", count: 10_000)))
        XCTAssertThrowsError(try TOML.parse("a = " + String(repeating: "{b = ", count: 10_000)))
    }

    func test_garbageNeverCrashes() {
        let samples = ["[", "[[", "a", "a =", "= 1", "\"", "a = \"\\u12\"", "a = '''", "[a]\nb = 1\n[a.b]", "\u{0}",
                       "a = [1,,2]", "a = {", "a.b = 1\na = 2", "\r", "[[a]]\n[a]"]
        for sample in samples { XCTAssertThrowsError(try TOML.parse(sample), sample.debugDescription) }
    }
}
