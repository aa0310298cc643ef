import JSONListSimulator
import XCTest

final class RedirectTests: XCTestCase {
    private var server: TestServer!

    /// A fresh server per test, made when it runs (XCTest creates every test case up front).
    override func setUp() { server = TestServer() }

    func test_sameHost_otherHost_andHTTPSToHTTP_pointWhereTheyClaim() {
        let same = server.call("GET", "/redirect/same-host?to=/auth/bearer")
        XCTAssertEqual(same.status, 302)
        XCTAssertEqual(same.header("Location"), "http://\(TestServer.http)/auth/bearer")
        let other = server.call("GET", "/redirect/other-host?status=308")
        XCTAssertEqual(other.status, 308)
        XCTAssertEqual(other.header("Location"), "http://\(TestServer.other)/list/bare")
        let downgrade = server.call("GET", "/redirect/https-to-http?to=/auth/basic", host: TestServer.https)
        XCTAssertEqual(downgrade.header("Location"), "http://\(TestServer.http)/auth/basic")
    }

    func test_listeners_areToldApartByTheAuthorityAddressed_andCounted() {
        server.call("GET", "/list/bare", host: TestServer.other, authorization: "Bearer list-token")
        server.call("GET", "/list/bare", host: TestServer.https)
        let stats = server.stats
        XCTAssertEqual(stats["requestsByListener"]?["other"]?.int, 1)
        XCTAssertEqual(stats["requestsByListener"]?["https"]?.int, 1)
        XCTAssertEqual(stats["credentialsByListener"]?["other"]?["bearer"]?.int, 1)
        XCTAssertEqual(stats["credentialsByListener"]?["https"]?["none"]?.int, 1)
    }

    func test_loop_comesBackToItself() {
        let first = server.call("GET", "/redirect/loop").header("Location")
        XCTAssertEqual(first, "/redirect/loop-b")
        XCTAssertEqual(server.call("GET", first ?? "").header("Location"), "/redirect/loop")
    }

    func test_chain_takesHopsRedirectsToItsTarget() {
        var target = "/redirect/chain?hops=4"
        var hops = 0
        while let location = server.call("GET", target).header("Location") {
            hops += 1
            target = location
        }
        XCTAssertEqual(hops, 4)
        XCTAssertEqual(target, "/list/bare")
    }
}
