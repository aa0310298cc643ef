@testable import QaseClient
import TrackwatchCore
import XCTest

/// `[[qase]]` tables: defaults, every key, and errors that name the file, the line and the key.
final class QaseConfigTests: XCTestCase {
    private let table = """
        [[qase]]
        url = "https://api.qase.io/v1/"
        email = "you@example.com"
        token_file = "qase-token"

        """

    private func parse(_ text: String) throws(ConfigError) -> Config {
        try Config.parse(text, file: "/home/me/.config/trackwatch/config.toml", kinds: [QaseSourceKind()])
    }

    private func error(_ text: String) -> ConfigError? {
        do { _ = try parse(text) } catch { return error }
        XCTFail("parsed: \(text)")
        return nil
    }

    func test_minimalTable_getsDefaults() throws {
        let qase = try XCTUnwrap(try parse(table).sources.first as? QaseSettings)
        XCTAssertEqual(qase.name, "qase")
        XCTAssertEqual(qase.url, "https://api.qase.io/v1", "without its trailing slash")
        XCTAssertEqual(qase.credential, .tokenFile(path: "/home/me/.config/trackwatch/qase-token"))
        XCTAssertNil(qase.projects)
        XCTAssertNil(qase.webURL)
        XCTAssertEqual(qase.requestTimeout, 30)
        XCTAssertEqual(qase.stateFolder, "sources/qase")
        XCTAssertEqual(qase.trackerName, "Qase")
    }

    func test_everyKey() throws {
        let text = """
            [[qase]]
            name = "work"
            url = "https://api-acme.qase.io/v1"
            web_url = "https://acme.qase.io"
            email = "you@example.com"
            token_command = "pass show qase"
            projects = ["demo", "WEB", "DEMO"]
            ca_file = "/etc/ca.pem"
            insecure = true
            timeout = "1m"
            proxy = ""
            """
        let qase = try XCTUnwrap(try parse(text).sources.first as? QaseSettings)
        XCTAssertEqual(qase.name, "work")
        XCTAssertEqual(qase.webURL, "https://acme.qase.io")
        XCTAssertEqual(qase.credential, .tokenCommand("pass show qase"))
        XCTAssertEqual(qase.projects, ["DEMO", "WEB"], "upper-cased, each once")
        XCTAssertEqual(qase.caFile, "/etc/ca.pem")
        XCTAssertTrue(qase.insecure)
        XCTAssertEqual(qase.requestTimeout, 60)
        XCTAssertEqual(qase.proxy, .direct)
        XCTAssertEqual(qase.stateFolder, "sources/work")
    }

    func test_keyringLooksTheTokenUpByURLAndEmail() throws {
        let text = table.replacingOccurrences(of: "token_file = \"qase-token\"", with: "keyring = true")
        let qase = try XCTUnwrap(try parse(text).sources.first as? QaseSettings)
        XCTAssertEqual(
            qase.credential,
            .keyring(attributes: [
                "service", "trackwatch", "server", "https://api.qase.io/v1",
                "user", "you@example.com",
            ]))
    }

    func test_errors_nameFileLineAndKey() {
        let file = "/home/me/.config/trackwatch/config.toml"
        let cases: [(String, Int?, String, String)] = [
            (
                "[[qase]]\nemail = \"a@b\"\ntoken_file = \"t\"\n", 1, "qase.url",
                "missing; add url = \"https://api.qase.io/v1\""
            ),
            ("[[qase]]\nurl = \"https://api.qase.io/v1\"\ntoken_file = \"t\"\n", 1, "qase.email", "missing"),
            ("[[qase]]\nurl = \"https://api.qase.io/v1\"\nemail = \"a@b\"\n", 1, "qase.token_file", "missing"),
            (table + "projects = []\n", 5, "qase.projects", "expected project codes"),
            (table + "projects = [\"DE-MO\"]\n", 5, "qase.projects", "\"DE-MO\""),
            (table + "colour = \"red\"\n", 5, "qase.colour", "unknown key"),
            (table + "token_command = \"x\"\n", 5, "qase.token_command", "set only one of"),
            (table + "timeout = \"2h\"\n", 5, "qase.timeout", "expected between 1s and 600s"),
            (table.replacingOccurrences(of: "you@example.com", with: "you"), 3, "qase.email", "e-mail address"),
            (table.replacingOccurrences(of: "https://api.qase.io/v1/", with: "api.qase.io"), 2, "qase.url", "http://"),
            (
                table.replacingOccurrences(of: "https://api.qase.io/v1/", with: "https://me:pw@api.qase.io/v1"), 2,
                "qase.url", "must not contain a user name or password"
            ),
            (table + "name = \"a/b\"\n", 5, "qase.name", "letters, digits"),
            (table + table, 5, "qase.name", "\"qase\" also names the [[qase]] at line 1"),
            ("[qase]\nurl = \"x\"\n", 1, "qase", "expected [[qase]] tables"),
        ]
        for (text, line, key, message) in cases {
            guard let error = error(text) else { continue }
            XCTAssertEqual(error.file, file, text)
            XCTAssertEqual(error.line, line, "\(key): \(error)")
            XCTAssertEqual(error.key, key, "\(error)")
            XCTAssertTrue(error.message.contains(message), "\(key): \(error.message)")
        }
        XCTAssertFalse(
            "\(error(table.replacingOccurrences(of: "https://api.qase.io/v1/", with: "https://me:pw@h/v1")) as Any)"
                .contains("pw"), "a password in the url is never quoted")
    }
}
