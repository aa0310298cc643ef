@testable import TrackerHTTP
import XCTest

/// The transport's pure parts: how a body is received (its cost is measured end to end in
/// `HostileAnswerTests`), and how an http:// request is put to a proxy (sent for real in `ProxyTests`).
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

    func test_requestToAProxy_hasTheAbsoluteURI_theServersHost_andTheProxysCredentials() throws {
        let request = HTTPRequest(
            method: .post, url: "http://compass.example.com:8190/ccmweb/rest/query?pageNumber=2#x",
            headers: [("Accept", "application/json")], body: Array("{}".utf8), timeout: 5)
        let head = try ForwardProxyExchange.head(of: request, authorization: "Basic bWU6cHc=")
        XCTAssertEqual(head.method, .POST)
        XCTAssertEqual(head.uri, "http://compass.example.com:8190/ccmweb/rest/query?pageNumber=2")
        XCTAssertEqual(head.headers["Host"], ["compass.example.com:8190"])
        XCTAssertEqual(head.headers["Proxy-Authorization"], ["Basic bWU6cHc="])
        XCTAssertEqual(head.headers["Content-Length"], ["2"])
        XCTAssertEqual(head.headers["Connection"], ["close"])
        XCTAssertEqual(head.headers["Accept"], ["application/json"])

        var injected = request
        injected.headers = [("Authorization", "Bearer abc\r\nX-Evil: 1")]
        XCTAssertThrowsError(try ForwardProxyExchange.head(of: injected, authorization: nil), "no header of its own")
        injected = request
        injected.url = "https://compass.example.com/"
        XCTAssertThrowsError(try ForwardProxyExchange.head(of: injected, authorization: nil), "https:// is tunnelled")
        let proxy = AsyncHTTPTransport.Proxy(host: "p", port: 1, username: "me", password: "pw")
        XCTAssertEqual(proxy.authorization, "Basic bWU6cHc=")
    }
}
