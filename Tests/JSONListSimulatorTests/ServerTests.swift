import Foundation
import JSONListSimulator
import SimulatorKit
import XCTest

/// The deliveries over a real socket: what a client reads on the wire.
final class ServerTests: XCTestCase {
    private var server: SimulatorServer!

    override func setUpWithError() throws {
        server = try SimulatorServer(simulator: JSONListSimulator(), host: "127.0.0.1", port: 0)
    }

    override func tearDown() { server.shutdown() }

    private func exchange(_ target: String, patience: Int = 5) throws -> (bytes: [UInt8], error: Int32) {
        try rawGET(address: "127.0.0.1", port: server.port, target: target, patience: patience)
    }

    func test_chunked_sendsChunkFraming_withoutContentLength() throws {
        let (bytes, error) = try exchange("/encoding/chunked")
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        XCTAssertEqual(error, 0)
        XCTAssertTrue(text.contains("transfer-encoding: chunked"))
        XCTAssertFalse(text.contains("content-length"))
        XCTAssertTrue(text.hasSuffix("\r\n0\r\n\r\n"))
    }

    func test_reset_endsTheConnectionWithARST() throws {
        let (bytes, error) = try exchange("/fault/reset")
        XCTAssertEqual(bytes, [])
        XCTAssertEqual(error, ECONNRESET)
    }

    func test_stallMidBody_sendsHalfOfWhatItAnnounces_thenNothing() throws {
        let (bytes, error) = try exchange("/fault/hang-body", patience: 1)
        XCTAssertEqual(error, EAGAIN, "still open, silent")
        let (announced, body) = try split(bytes)
        XCTAssertEqual(body, announced / 2)
    }

    func test_truncated_closesShortOfItsContentLength() throws {
        let (bytes, error) = try exchange("/fault/truncate")
        XCTAssertEqual(error, 0, "closed, not reset")
        let (announced, body) = try split(bytes)
        XCTAssertEqual(body, announced - 100)
    }

    /// The `Content-Length` and the body length of an answer.
    private func split(_ bytes: [UInt8]) throws -> (announced: Int, body: Int) {
        let text = String(decoding: bytes, as: UTF8.self)
        let announced = try XCTUnwrap(
            text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length") }
                .flatMap { Int($0.split(separator: " ").last ?? "") })
        let head = try XCTUnwrap(text.utf8.firstRange(of: Array("\r\n\r\n".utf8)))
        return (announced, bytes.count - text.utf8.distance(from: text.utf8.startIndex, to: head.upperBound))
    }
}
