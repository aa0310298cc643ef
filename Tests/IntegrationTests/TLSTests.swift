import Foundation
import XCTest

/// `trackwatch check` against compass-sim serving HTTPS with a self-signed certificate, as Compass ships.
final class TLSTests: XCTestCase {
    private var directory: URL!
    private var certificate: String { directory.appendingPathComponent("cert.pem").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tw-tls-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", directory.appendingPathComponent("key.pem").path,
                             "-out", certificate]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        XCTAssertEqual(openssl.terminationStatus, 0)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: directory) }

    func test_probe_namesHowTheConnectionIsProtected() throws {
        let sim = try Simulator(["--tls-certificate", certificate, "--tls-key", directory.appendingPathComponent("key.pem").path])
        let workspace = try Workspace(serverURL: sim.url)
        let refused = try workspace.trackwatch(["probe"])
        XCTAssertEqual(refused.status, 69, refused.stdout + refused.stderr)
        XCTAssertTrue(refused.lines.contains { $0.hasPrefix("✘") && $0.contains("set ca_file") }, refused.stdout)
        XCTAssertFalse(refused.stdout.contains("certificate verified"), refused.stdout)

        workspace.extraServerLines = ["ca_file = \"\(certificate)\""]
        try workspace.writeConfig()
        let trusted = try workspace.trackwatch(["probe"])
        XCTAssertEqual(trusted.status, 0, trusted.stdout + trusted.stderr)
        XCTAssertTrue(trusted.lines.contains("✔ TLS, the server's certificate verified against ca_file \(certificate)"), trusted.stdout)

        workspace.extraServerLines = ["insecure = true"]
        try workspace.writeConfig()
        let insecure = try workspace.trackwatch(["probe"])
        XCTAssertEqual(insecure.status, 0, insecure.stdout + insecure.stderr)
        XCTAssertTrue(insecure.lines.contains("⚠ TLS without certificate verification (insecure = true)"), insecure.stdout)
    }

    func test_selfSignedServer_refusedByDefault_acceptedWithCAFileOrInsecure() throws {
        let sim = try Simulator(["--tls-certificate", certificate, "--tls-key", directory.appendingPathComponent("key.pem").path])
        XCTAssertTrue(sim.url.hasPrefix("https://"), sim.url)
        let workspace = try Workspace(serverURL: sim.url)

        let refused = try workspace.trackwatch(["check"])
        XCTAssertEqual(refused.status, 69, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("set ca_file"), refused.stderr)

        workspace.extraServerLines = ["ca_file = \"\(certificate)\""]
        try workspace.writeConfig()
        let trusted = try workspace.trackwatch(["check"])
        XCTAssertEqual(trusted.status, 0, trusted.stderr)
        XCTAssertFalse(trusted.stderr.contains("verification is OFF"))

        workspace.extraServerLines = ["insecure = true"]
        try workspace.writeConfig()
        let insecure = try workspace.trackwatch(["check"])
        XCTAssertEqual(insecure.status, 0, insecure.stderr)
        XCTAssertTrue(insecure.stderr.contains("TLS certificate verification is OFF"), "warned on every start: \(insecure.stderr)")
    }
}
