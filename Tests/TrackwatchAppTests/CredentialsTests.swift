@testable import CompassClient
import Foundation
import TrackwatchApp
import TrackwatchCore
import XCTest

final class CredentialsTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tw-cred-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: directory) }

    private func file(_ name: String, _ text: String, mode: mode_t) -> String {
        let path = directory.appendingPathComponent(name).path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        chmod(path, mode)
        return path
    }

    private func error(_ source: CredentialSource, environment: [String: String] = [:]) -> String {
        do {
            _ = try loadCredential(source, environment: environment)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    func test_privatePasswordFile_isRead_withoutItsLineEnding() throws {
        let path = file("password", "s3cret\r\n", mode: 0o600)
        XCTAssertEqual(try loadCredential(.passwordFile(path: path), environment: [:]), .password(Secret("s3cret")))
    }

    func test_secrets_areTrimmed_andOneWithAControlCharacterInside_isRefusedByItsSource() throws {
        for (text, expected) in [("s3cret\r\r\n", "s3cret"), ("  s3cret\t\n", "s3cret"), ("s3cret\r", "s3cret"),
                                 ("\r\ns3cret\nsecond line", "")] {
            let path = file("trimmed", text, mode: 0o600)
            if expected.isEmpty {
                XCTAssertTrue(error(.passwordFile(path: path)).contains("is empty"), text.debugDescription)
            } else {
                XCTAssertEqual(try loadCredential(.passwordFile(path: path), environment: [:]),
                               .password(Secret(expected)), text.debugDescription)
            }
        }
        for text in ["Qz7\r9Wx\n", "Qz79Wx\u{1B}[0m\n", "Qz7\u{7F}9Wx", "Qz7\u{85}9Wx", "Qz7\u{0}9Wx"] {
            let path = file("control", text, mode: 0o600)
            let message = error(.tokenFile(path: path))
            XCTAssertTrue(message.contains("token_file \(path) holds a control character"), message)
            XCTAssertFalse(message.contains("Qz7") || message.contains("9Wx"), "never the value: \(message)")
        }
        let command = error(.passwordCommand("printf 'Qz7\\t9Wx\\n'"), environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertTrue(command.contains("password_command printed a control character"), command)
        XCTAssertFalse(command.contains("Qz7"), command)
    }

    func test_passwordFileReadableByOthers_isRefusedWithTheFix() {
        for mode: mode_t in [0o644, 0o640, 0o604, 0o620] {
            let path = file("password-\(mode)", "s3cret\n", mode: mode)
            let message = error(.passwordFile(path: path))
            XCTAssertTrue(message.contains("chmod 600 \(path)"), message)
            XCTAssertFalse(message.contains("s3cret"), "the secret never appears in an error")
        }
    }

    func test_missingOrEmptyFiles_sayWhat() {
        XCTAssertTrue(error(.passwordFile(path: directory.path + "/nope")).contains("No such file"))
        XCTAssertTrue(error(.passwordFile(path: file("empty", "", mode: 0o600))).contains("is empty"))
        XCTAssertTrue(error(.passwordFile(path: directory.path)).contains("not a regular file"))
    }

    func test_tildeIsExpanded_andTokenFileGivesAPersonalAccessToken() throws {
        _ = file("token", "pat-1\n", mode: 0o600)
        XCTAssertEqual(try loadCredential(.tokenFile(path: "~/token"), environment: ["HOME": directory.path]),
                       .personalAccessToken(Secret("pat-1")))
    }

    func test_systemdCredential_readsFromTheCredentialsDirectory() throws {
        _ = file("compass", "from-systemd\n", mode: 0o400)
        XCTAssertEqual(try loadCredential(.systemdCredential(name: "compass"), environment: ["CREDENTIALS_DIRECTORY": directory.path]),
                       .password(Secret("from-systemd")))
        XCTAssertTrue(error(.systemdCredential(name: "compass")).contains("LoadCredential=compass:"))
    }

    func test_passwordCommand_firstLineOfOutput() throws {
        XCTAssertEqual(try loadCredential(.passwordCommand("printf 's3cret\\nignored'"), environment: ["PATH": "/usr/bin:/bin"]),
                       .password(Secret("s3cret")))
    }

    func test_failingPasswordCommand_reportsStatusAndStderr() {
        let message = error(.passwordCommand("echo 'keyring locked' >&2; exit 3"), environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertTrue(message.contains("exit status 3"), message)
        XCTAssertTrue(message.contains("keyring locked"), message)
        XCTAssertTrue(error(.passwordCommand("true")).contains("printed nothing"))
    }

    func test_emptyPassword() throws {
        XCTAssertEqual(try loadCredential(.emptyPassword, environment: [:]), .password(Secret("")))
    }

    func test_secretIsRedactedWhenPrinted() {
        XCTAssertEqual("\(Secret("s3cret"))", "<redacted>")
        XCTAssertFalse("\(Credential.password(Secret("s3cret")))".contains("s3cret"))
    }
}

/// A Compass server's credential from its configured source, as the Compass source reads it.
private func loadCredential(_ source: CredentialSource, environment: [String: String]) throws -> Credential {
    try CompassFactory.credential(source) { try loadSecret($0, environment: environment) }
}
