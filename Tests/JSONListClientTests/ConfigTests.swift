@testable import JSONListClient
import TrackwatchCore
import XCTest

/// `[[json]]` tables as the reader reads them: every key, and every mistake named by file, line and key.
final class ConfigTests: XCTestCase {
    private func parse(_ text: String) throws(ConfigError) -> Config {
        try Config.parse(text, file: "/home/me/.config/trackwatch/config.toml", kinds: [JSONListKind()])
    }

    private func list(_ lines: String) throws -> JSONListConfig {
        let config = try parse("[[json]]\nname = \"l\"\nurl = \"https://example.com/items\"\n" + lines)
        return try XCTUnwrap(config.sources.first as? JSONListConfig)
    }

    /// Issue 27, item 11: readable names for fields and values, applied to what a change says; each bounded.
    func test_fieldAndValueNames_areRead_andWordTheChange() throws {
        let config = try list(
            """
            field_names = { isCheckedOut = "Checked out", lastCheckedOutBy = "Checked out by" }
            value_names = { isCheckedOut = { true = "yes", false = "no" } }
            """)
        XCTAssertEqual(
            config.readable(FieldChange(field: "isCheckedOut", old: "false", new: "true")),
            FieldChange(field: "Checked out", old: "no", new: "yes"))
        XCTAssertEqual(
            config.readable(FieldChange(field: "lastCheckedOutBy", old: nil, new: "Sam")),
            FieldChange(field: "Checked out by", old: nil, new: "Sam"))
        XCTAssertThrowsError(try list("field_names = { a = \"\(String(repeating: "x", count: 81))\" }")) {
            XCTAssertTrue("\($0)".contains("json.field_names.a: expected a name of at most 80 characters"), "\($0)")
        }
        XCTAssertThrowsError(try list("value_names = { a = \"yes\" }")) {
            XCTAssertTrue(
                "\($0)".contains("json.value_names.a: expected an inline table such as { true = \"yes\""), "\($0)")
        }
    }

    func test_everyKey_isRead() throws {
        let config = try list(
            """
            items = "/data"
            key = "/attributes/uid"
            title = "{name} ({/meta/color})"
            fields = ["status", "/meta/color"]
            ignore = ["updated_at"]
            by = "updated_by"
            link = "https://example.com/#/{id}"
            notify = "entries"
            header = "X-API-Key"
            token_file = "key"
            headers = { Accept = "application/vnd.api+json", X-Trace = "1" }
            page_param = "page"
            per_page_param = "size"
            per_page = 50
            total = "/meta/total"
            max_pages = 20
            max_size = "64 MB"
            ca_file = "ca.pem"
            insecure = true
            timeout = "1m"
            proxy = ""
            """)
        XCTAssertEqual(config.items.description, "/data")
        XCTAssertEqual(config.key.name, "/attributes/uid")
        XCTAssertEqual(config.fields?.map(\.name), ["status", "/meta/color"])
        XCTAssertEqual(config.rule, .entries)
        XCTAssertEqual(
            config.credentials, .header(name: "X-API-Key", token: .tokenFile(path: "/home/me/.config/trackwatch/key")))
        XCTAssertEqual(config.headers.map(\.name), ["Accept", "X-Trace"])
        XCTAssertEqual(config.paging.pageParam, "page")
        XCTAssertEqual(config.paging.perPage, 50)
        XCTAssertEqual(config.paging.total?.description, "/meta/total")
        XCTAssertEqual(config.maxPages, 20)
        XCTAssertEqual(config.maxSize, 64 * 1_048_576)
        XCTAssertEqual(config.caFile, "/home/me/.config/trackwatch/ca.pem")
        XCTAssertEqual(config.requestTimeout, 60)
        XCTAssertEqual(config.proxy, .direct)
        XCTAssertEqual(config.stateFolder, "sources/l")
        XCTAssertEqual(config.ownerAndStateFields, ["updated_by"])
    }

    func test_defaults_andCredentialKinds() throws {
        let plain = try list("")
        XCTAssertEqual(plain.items.description, "")
        XCTAssertEqual(plain.key.name, "id")
        XCTAssertEqual(plain.rule, .changes)
        XCTAssertEqual(plain.maxSize, 16 * 1_048_576)
        XCTAssertEqual(plain.maxPages, 1_000)
        XCTAssertEqual(plain.credentials, .none)
        XCTAssertEqual(try list("token_file = \"/t\"").credentials, .bearer(.tokenFile(path: "/t")))
        XCTAssertEqual(
            try list("username = \"me\"\npassword_file = \"/p\"").credentials,
            .basic(username: "me", password: .passwordFile(path: "/p")))
        XCTAssertEqual(
            try list("username = \"me@example.com\"\ntoken_file = \"/t\"").credentials,
            .basic(username: "me@example.com", password: .tokenFile(path: "/t")))
        XCTAssertEqual(
            try list("keyring = true").credentials,
            .bearer(
                .keyring(attributes: ["service", "trackwatch", "server", "https://example.com/items", "user", "l"])))
    }

    func test_mistakes_areNamedByLineAndKey() {
        let cases: [(String, String, String)] = [
            ("items = \"data\"", "json.items", "JSON Pointer"),
            ("key = \"\"", "json.key", "must not be empty"),
            ("title = \"{name\"", "json.title", "without its }"),
            ("fields = []", "json.fields", "leave it out"),
            ("fields = [\"a\"]\nignore = [\"a\"]", "json.ignore", "either compared or ignored"),
            ("notify = \"all\"", "json.notify", "expected one of"),
            ("password_file = \"/p\"", "json.password_file", "add username"),
            ("username = \"me\"", "json.username", "needs a password"),
            ("username = \"me\"\nheader = \"X-Key\"\ntoken_file = \"/t\"", "json.header", "not both"),
            ("header = \"X-Key\"", "json.header", "needs a token"),
            ("header = \"Bad Header\"\ntoken_file = \"/t\"", "json.header", "header name"),
            ("token_file = \"/t\"\npassword_file = \"/p\"", "json.token_file", "set only one"),
            ("headers = { Authorization = \"Bearer x\" }", "json.headers.Authorization", "does not belong"),
            ("headers = { Accept = 1 }", "json.headers.Accept", "a string"),
            ("next = \"/n\"\npage_param = \"page\"", "json.page_param", "one way of paging"),
            ("cursor = \"/c\"", "json.cursor", "needs cursor_param"),
            ("per_page = 5\npage_param = \"page\"", "json.per_page", "needs per_page_param"),
            ("limit_param = \"l\"\nlimit = 5", "json.limit_param", "needs offset_param"),
            ("page_param = \"a&b\"", "json.page_param", "query parameter name"),
            ("max_size = \"2TB\"", "json.max_size", "expected a size"),
            ("max_size = 100", "json.max_size", "between 1KB and 1GB"),
            ("max_pages = 0", "json.max_pages", "expected 1…100000"),
            ("bogus = 1", "json.bogus", "unknown key"),
        ]
        for (lines, key, says) in cases {
            XCTAssertThrowsError(try list(lines), lines) { error in
                let error = error as? ConfigError
                XCTAssertEqual(error?.key, key, lines)
                XCTAssertEqual(error?.file, "/home/me/.config/trackwatch/config.toml")
                XCTAssertNotNil(error?.line, lines)
                XCTAssertTrue(error?.message.contains(says) == true, "\(lines): \(error?.message ?? "")")
            }
        }
    }

    func test_urlAndNameMistakes_andNamesUniqueAmongSources() {
        for (text, key, says) in [
            ("[[json]]\nurl = \"https://x/\"", "json.name", "missing"),
            ("[[json]]\nname = \"a b\"\nurl = \"https://x/\"", "json.name", "letters, digits"),
            ("[[json]]\nname = \"l\"", "json.url", "missing"),
            ("[[json]]\nname = \"l\"\nurl = \"https://me:hunter2@x/\"", "json.url", "must not contain a user name"),
            ("[[json]]\nname = \"l\"\nurl = \"ftp://x/\"", "json.url", "http:// or https://"),
            ("[[json]]\nname = \"l\"\nurl = \"https://x/i?a=1&private_token=hunter2\"", "json.url", "must not carry a secret"),
            (
                "[[json]]\nname = \"l\"\nurl = \"https://x/\"\n[[json]]\nname = \"l\"\nurl = \"https://y/\"",
                "json.name", "also names"
            ),
            ("[json]\nname = \"l\"\nurl = \"https://x/\"", "json", "[[json]] tables"),
        ] {
            XCTAssertThrowsError(try parse(text), text) { error in
                let error = error as? ConfigError
                XCTAssertEqual(error?.key, key, text)
                XCTAssertTrue(error?.message.contains(says) == true, "\(text): \(error?.message ?? "")")
                XCTAssertFalse(error?.description.contains("hunter2") == true, "the password is never quoted")
            }
        }
    }

    func test_sizes() {
        XCTAssertEqual(ConfigReader.bytes(in: "16MB"), 16 << 20)
        XCTAssertEqual(ConfigReader.bytes(in: "512 kb"), 512 << 10)
        XCTAssertEqual(ConfigReader.bytes(in: "1GB"), 1 << 30)
        XCTAssertEqual(ConfigReader.bytes(in: "2048"), 2048)
        XCTAssertNil(ConfigReader.bytes(in: "MB"))
        XCTAssertNil(ConfigReader.bytes(in: "99999999999999GB"))
    }
}
