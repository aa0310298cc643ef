@testable import CompassClient
import Foundation
import TrackwatchCore
import XCTest

/// The pure rules behind local-file and URL safety: what a server URL gives away, who may change a file, and
/// where relative paths in the configuration point.
final class SecurityRulesTests: XCTestCase {
    func test_userInfoInURLs() {
        XCTAssertTrue(ServerURL.hasUserInfo("https://me:pw@compass.example.com"))
        XCTAssertTrue(ServerURL.hasUserInfo("http://me@compass.example.com:8190/ccmweb/rest"))
        XCTAssertTrue(ServerURL.hasUserInfo("me:pw@compass.example.com"))
        XCTAssertFalse(ServerURL.hasUserInfo("https://compass.example.com/path/@team?q=a@b#x@y"))
    }

    func test_cleartextToAnotherHost_exceptLoopback() {
        for url in ["http://compass.example.com", "HTTP://10.0.0.1:8190", "http://[2001:db8::1]:80/x", "http://128.0.0.1",
                    "http://localhost.example.com", "http://127.0.0.1.example.com"] {
            XCTAssertTrue(ServerURL.isCleartextToAnotherHost(url), url)
        }
        for url in ["https://compass.example.com", "http://127.0.0.1:8190", "http://127.255.0.9", "http://localhost:8190/ccmweb",
                    "http://LOCALHOST", "http://[::1]:8190", "http://[0:0:0:0:0:0:0:1]/", "http://[::0001]"] {
            XCTAssertFalse(ServerURL.isCleartextToAnotherHost(url), url)
        }
        // Digits Int cannot read (full-width, Arabic-Indic, superscript): another host, never a trap.
        let digits = ["http://１２７.0.0.1:9", "http://127.０.0.1", "http://١٢٧.0.0.1", "http://127.0.0.¹",
                      "http://127.0.0.1１"]
        for url in digits {
            XCTAssertTrue(ServerURL.isCleartextToAnotherHost(url), url)
        }
        XCTAssertFalse(ServerURL.isCleartextToAnotherHost("http://127.0.0.001"), "leading zeros are still loopback")
        XCTAssertTrue(ServerURL.isCleartextToAnotherHost("http://127.0.0.256"), "not an address: a name")
        XCTAssertEqual(ServerURL.host(of: "http://[::1]:8190/x"), "::1")
        XCTAssertEqual(ServerURL.host(of: "https://compass.example.com:8190/x"), "compass.example.com")
    }

    func test_ownership_whoElseCanChangeAnEntry() {
        func problem(owner: UInt32 = 1000, mode: UInt32, directory: Bool = false, privateGroup: Bool = false) -> String? {
            Ownership.problem(path: "/p", owner: owner, mode: mode, isDirectory: directory, you: 1000,
                              groupIsOwnersAlone: privateGroup)?.fix
        }
        XCTAssertNil(problem(mode: 0o600))
        XCTAssertNil(problem(mode: 0o644))
        XCTAssertNil(problem(owner: 0, mode: 0o755, directory: true), "root's, as /etc")
        XCTAssertEqual(problem(mode: 0o666), "chmod go-w /p")
        XCTAssertEqual(problem(mode: 0o664), "chmod go-w /p")
        XCTAssertNil(problem(mode: 0o664, privateGroup: true), "a user private group (umask 002)")
        XCTAssertEqual(problem(mode: 0o666, privateGroup: true), "chmod o-w /p")
        XCTAssertEqual(problem(owner: 0, mode: 0o1777, directory: true), nil, "sticky, as /tmp")
        XCTAssertEqual(problem(owner: 0, mode: 0o1777), "chmod go-w /p", "the sticky bit protects nothing on a file")
        XCTAssertEqual(problem(owner: 1001, mode: 0o600), "chown 1000 /p (as root), or use a file of your own")
        XCTAssertEqual(problem(owner: 1001, mode: 0o1777, directory: true), "chown 1000 /p (as root), or use a directory of your own")
    }

    func test_configuration_userInfoInTheURL_isRefusedWithoutShowingIt() {
        for url in ["https://engineer:Hunter2@compass.example.com", "ftp://engineer:Hunter2@x", "engineer:Hunter2@compass"] {
            XCTAssertThrowsError(try Config.parse("[server]\nurl = \"\(url)\"\nrepo = \"r\"\ndatabase = \"d\"\nusername = \"u\"\n", file: "c")) { error in
                XCTAssertEqual((error as? ConfigError)?.key, "server.url")
                XCTAssertEqual((error as? ConfigError)?.line, 2)
                XCTAssertTrue("\(error)".contains("must not contain a user name or password"), "\(error)")
                XCTAssertFalse("\(error)".contains("Hunter2"), "the password is never echoed: \(error)")
            }
        }
    }

    func test_configuration_relativePaths_resolveAgainstTheFilesDirectory() throws {
        let text = """
            [server]
            url = "https://compass.example.com"
            repo = "r"
            database = "d"
            username = "u"
            password_file = "secrets/password"
            ca_file = "ca.pem"
            """
        let config = try Config.parse(text, file: "/home/me/.config/trackwatch/config.toml")
        XCTAssertEqual(config.servers[0].credential, .passwordFile(path: "/home/me/.config/trackwatch/secrets/password"))
        XCTAssertEqual(config.servers[0].caFile, "/home/me/.config/trackwatch/ca.pem")
        let token = try Config.parse(text.replacingOccurrences(of: "password_file = \"secrets/password\"", with: "token_file = \"t\""),
                                     file: "/etc/trackwatch.toml")
        XCTAssertEqual(token.servers[0].credential, .tokenFile(path: "/etc/t"))
        let kept = try Config.parse(text.replacingOccurrences(of: "secrets/password", with: "~/p").replacingOccurrences(of: "ca.pem", with: "/ca.pem"),
                                    file: "/home/me/c.toml")
        XCTAssertEqual(kept.servers[0].credential, .passwordFile(path: "~/p"))
        XCTAssertEqual(kept.servers[0].caFile, "/ca.pem")
    }
}
