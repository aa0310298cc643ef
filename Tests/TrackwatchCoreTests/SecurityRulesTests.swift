import Foundation
import TrackwatchCore
import XCTest

/// The pure rules behind local-file safety: who may change a file, and where relative paths in the
/// configuration point.
final class SecurityRulesTests: XCTestCase {
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
