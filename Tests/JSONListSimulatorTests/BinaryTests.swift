import Foundation
import JSONListSimulator
import SimulatorKit
import XCTest

/// The built `json-sim`: what it prints, that its listeners serve, that `act` changes what they serve, and that
/// SIGTERM ends it at once.
final class BinaryTests: XCTestCase {
    private var process: Process!
    private var lines: [String] = []

    /// The directory holding the built executables (next to the test bundle).
    private static let products: URL = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("json-sim").path), url.path != "/" {
            url.deleteLastPathComponent()
        }
        return url.appendingPathComponent("json-sim")
    }()

    override func tearDown() {
        if process?.isRunning == true {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Starts `json-sim serve ARGUMENTS` and reads its first `count` lines.
    private func start(_ arguments: [String], lines count: Int) throws {
        process = Process()
        process.executableURL = Self.products
        process.arguments = ["--port", "0"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while lines.count < count {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { break }
            if byte == Data("\n".utf8) {
                lines.append(String(decoding: line, as: UTF8.self))
                line.removeAll()
            } else {
                line.append(byte)
            }
        }
    }

    /// Address and port of `http://ADDRESS:PORT` at the end of a line.
    private func authority(_ line: String) throws -> (String, Int) {
        let parts = try XCTUnwrap(line.split(separator: "/").last).split(separator: ":")
        return (String(parts[0]), try XCTUnwrap(Int(parts[1])))
    }

    private func act(_ arguments: [String]) throws -> Int32 {
        let act = Process()
        act.executableURL = Self.products
        act.arguments = ["act"] + arguments
        act.standardOutput = FileHandle.nullDevice
        try act.run()
        act.waitUntilExit()
        return act.terminationStatus
    }

    func test_serve_printsItsListeners_eachServes_andActChangesWhatTheyServe() throws {
        try start([], lines: 2)
        XCTAssertTrue(lines[0].hasPrefix("listening on http://127.0.0.1:"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("other host http://127.0.0.2:"), lines[1])
        let (address, port) = try authority(lines[0])
        let url = "http://\(address):\(port)"
        XCTAssertEqual(try act(["checkout", "--url", url, "--device", "1", "--as", "Sam Carter"]), 0)
        XCTAssertEqual(try act(["checkout", "--url", url, "--device", "99", "--as", "Sam Carter"]), 1)
        let (otherAddress, otherPort) = try authority(lines[1])
        let devices = try rawGET(address: otherAddress, port: otherPort, target: "/devices")
        let pixel = try JSONValue.parse(body(of: devices.bytes)).array?.first
        XCTAssertEqual(pixel?["lastCheckedOutBy"]?.string, "Sam Carter", "one server behind both listeners")
        let stats = try JSONValue.parse(body(of: try rawGET(address: address, port: port, target: "/sim/stats").bytes))
        XCTAssertEqual(stats["requestsByListener"]?["other"]?.int, 1)
    }

    func test_sigterm_rightAfterTheFirstLine_endsItWithStatus0() throws {
        for _ in 0..<5 {
            lines = []
            try start(["--items", "10000"], lines: 1)
            process.terminate()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .exit)
            XCTAssertEqual(process.terminationStatus, 0)
        }
    }

    func test_withACertificate_anHTTPSListenerIsTheSecondLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("json-sim-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (certificate, key) = (
            directory.appendingPathComponent("c.pem").path, directory.appendingPathComponent("k.pem").path
        )
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-days", "1", "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", certificate,
        ]
        openssl.standardError = FileHandle.nullDevice
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else { throw XCTSkip("no openssl") }
        try openssl.run()
        openssl.waitUntilExit()
        try start(["--tls-certificate", certificate, "--tls-key", key, "--other-host", ""], lines: 2)
        XCTAssertTrue(lines[0].hasPrefix("listening on http://127.0.0.1:"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("listening on https://127.0.0.1:"), lines[1])
    }
}
