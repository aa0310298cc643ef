import Foundation
import TrackerHTTP
import TestSupport
import XCTest

/// One of our local servers (compass-sim, qase-sim, json-sim) on a free loopback port, stopped when the value is
/// released. Each prints `listening on URL` as its first line once it accepts connections.
final class SimProcess {
    /// The URL it printed, e.g. `http://127.0.0.1:PORT`.
    let url: String
    let http = try! AsyncHTTPTransport()
    private let process = Process()
    private let output = Pipe()

    init(_ product: String, _ arguments: [String]) throws {
        process.executableURL = productsDirectory.appendingPathComponent(product)
        process.arguments = ["--port", "0"] + arguments
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        // Read up to the first line byte by byte: a buffered read could wait for output that never comes.
        var line = Data()
        let handle = output.fileHandleForReading
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("listening on ") else {
            process.terminate()
            process.waitUntilExit()
            throw NSError(domain: product, code: 1, userInfo: [NSLocalizedDescriptionKey: "\(product) said: \(text)"])
        }
        url = String(text.dropFirst("listening on ".count))
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// A control route (`/sim/…`, `/ccmweb/sim/…`), expected to succeed; its JSON answer.
    @discardableResult
    func control(_ method: HTTPMethod, _ path: String, _ body: String? = nil) throws -> [String: Any] {
        let response = try http.sendWaiting(
            HTTPRequest(
                method: method, url: url + path,
                headers: body == nil ? [] : [("Content-Type", "application/json")],
                body: body.map { Array($0.utf8) }, timeout: 10))
        XCTAssertTrue(
            (200..<300).contains(response.status),
            "\(method) \(path): \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        return (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }
}
