@testable import TrackerHTTP
import XCTest

/// The transport's pure parts: how a body is received (its cost is measured end to end in
/// `HostileAnswerTests`).
final class TransportTests: XCTestCase {
    func test_body_withContentLength_isOneBufferOfThatSize_andBounded() throws {
        var body = try ResponseBody(contentLength: 10, limit: 20)
        try body.append(Array("hello".utf8))
        try body.append(Array("world".utf8))
        XCTAssertEqual(String(decoding: body.take(), as: UTF8.self), "helloworld")
        XCTAssertThrowsError(try ResponseBody(contentLength: 21, limit: 20), "refused before a byte arrives")
        var growing = try ResponseBody(contentLength: nil, limit: 4)
        XCTAssertThrowsError(try growing.append(Array("12345".utf8)), "refused as it arrives")
    }

    func test_body_withoutContentLength_isGatheredInPieces_andJoinedInOrder() throws {
        let size = ResponseBody.pieceSize * 2 + 123
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var body = try ResponseBody(contentLength: nil, limit: size)
        for start in stride(from: 0, to: size, by: 65_536) {
            try body.append(bytes[start..<min(start + 65_536, size)])
        }
        XCTAssertEqual(body.take(), bytes)
        XCTAssertEqual(body.take(), [], "taken once")
    }
}
