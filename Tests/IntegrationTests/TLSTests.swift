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

    /// TLS 1.0 and 1.1 were accepted (NIOSSL's default minimum is 1.0). A TLS front end that speaks only the
    /// version given (Python's ssl module), in front of compass-sim: 1.2 and 1.3 work, 1.0 and 1.1 are refused,
    /// in words.
    func test_tlsBelow1_2_isRefused() throws {
        let sim = try Simulator()
        for (version, works) in [("TLSv1_2", true), ("TLSv1_3", true), ("TLSv1", false), ("TLSv1_1", false)] {
            let front = try TLSFront(version: version, upstream: sim.url, certificate: certificate,
                                     key: directory.appendingPathComponent("key.pem").path)
            let workspace = try Workspace(serverURL: front.url)
            workspace.extraServerLines = ["ca_file = \"\(certificate)\""]
            try workspace.writeConfig()
            let result = try workspace.trackwatch(["check"])
            if works {
                XCTAssertEqual(result.status, 0, "\(version): \(result.stderr)")
            } else {
                XCTAssertEqual(result.status, 69, "\(version): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("TLS 1.2"), "\(version): says what is needed: \(result.stderr)")
            }
        }
    }
}

/// A TLS front end (Python's ssl module, one protocol version only) that forwards every connection to a plain
/// HTTP server: a server stuck on an old TLS version, in front of compass-sim.
private final class TLSFront {
    let url: String
    private let process = Process()
    private let output = Pipe()

    init(version: String, upstream: String, certificate: String, key: String) throws {
        let port = upstream.split(separator: ":").last.map(String.init) ?? ""
        let script = """
            import socket, ssl, sys, threading, warnings
            warnings.simplefilter("ignore")
            version = getattr(ssl.TLSVersion, sys.argv[1])
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.minimum_version = context.maximum_version = version
            context.set_ciphers("DEFAULT:@SECLEVEL=0")
            context.load_cert_chain(sys.argv[3], sys.argv[4])
            listener = socket.create_server(("127.0.0.1", 0))
            print(listener.getsockname()[1], flush=True)
            def pump(source, target):
                try:
                    while data := source.recv(65536):
                        target.sendall(data)
                except OSError:
                    pass
                finally:
                    for end in (source, target):
                        try:
                            end.shutdown(socket.SHUT_RDWR)
                        except OSError:
                            pass
            def serve(client):
                try:
                    secure = context.wrap_socket(client, server_side=True)
                except (OSError, ssl.SSLError):
                    client.close()
                    return
                upstream = socket.create_connection(("127.0.0.1", int(sys.argv[2])))
                threading.Thread(target=pump, args=(secure, upstream), daemon=True).start()
                pump(upstream, secure)
            while True:
                client, _ = listener.accept()
                threading.Thread(target=serve, args=(client,), daemon=True).start()
            """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, version, port, certificate, key]
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        url = "https://127.0.0.1:\(line.trimmingCharacters(in: .whitespacesAndNewlines))"
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}
