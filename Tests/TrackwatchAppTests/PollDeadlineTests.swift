import Dispatch
import SourceKit
import Synchronization
import TrackerHTTP
import TrackwatchApp
import TestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Issue 27, item 4: a poll's requests are held to its deadline, in the transport every source sends through.
final class PollDeadlineTests: XCTestCase {
    /// A clock the test moves, and a server that answers every request after `answerTakes` seconds of it.
    private final class SlowServer: HTTPTransport, @unchecked Sendable {  // used from the test's thread only
        var now = 0.0
        var answerTakes = 0.0
        var timeouts: [Int] = []

        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            timeouts.append(request.timeout)
            guard answerTakes <= Double(request.timeout) else {
                now += Double(request.timeout)
                throw TransportError(.timedOut, "no answer in \(request.timeout) s")
            }
            now += answerTakes
            return HTTPResponse(status: 200)
        }
    }

    private let server = SlowServer()
    private lazy var deadline = PollDeadline(source: "devices", now: { [server] in server.now })
    private lazy var transport = DeadlineTransport(server, deadline: deadline)
    private let page = HTTPRequest(method: .get, url: "http://lists.example/devices", timeout: 30)

    /// The server: each page just inside the 30 s timeout, and always one more. Before, a thousand pages.
    func test_pagesJustInsideTheTimeout_endAtTheDeadline_namingTheSource() async throws {
        server.answerTakes = 29
        deadline.arm(seconds: 100)
        var pages = 0
        await XCTAssertThrowsErrorAsync(try await { while true { _ = try await transport.send(page); pages += 1 } }()) { error in
            XCTAssertEqual(error as? PollDeadlineExceeded, PollDeadlineExceeded(source: "devices", seconds: 100))
            XCTAssertTrue("\(error)".hasPrefix("devices ran out of its poll deadline (100 s)"), "\(error)")
        }
        XCTAssertEqual(pages, 3)
        XCTAssertEqual(server.timeouts, [30, 30, 30, 13], "the last request may only take what is left")
        XCTAssertEqual(server.now, 100, "not a second past the deadline")
        XCTAssertTrue(deadline.ranOut)
    }

    func test_noRequestStartsAfterTheDeadline() async {
        deadline.arm(seconds: 10)
        server.now = 10
        await XCTAssertThrowsErrorAsync(try await transport.send(page)) { XCTAssertTrue($0 is PollDeadlineExceeded) }
        XCTAssertEqual(server.timeouts, [], "the server was not asked")
    }

    func test_aRequestsOwnTimeout_isItsOwnFailure_notTheDeadlines() async {
        server.answerTakes = 40
        deadline.arm(seconds: 300)
        await XCTAssertThrowsErrorAsync(try await transport.send(page)) { XCTAssertEqual(($0 as? TransportError)?.kind, .timedOut) }
        XCTAssertFalse(deadline.ranOut)
    }

    func test_aNewPoll_startsAFreshDeadline_andOutsideAPollNothingIsHeld() async throws {
        server.answerTakes = 29
        deadline.arm(seconds: 10)
        await XCTAssertThrowsErrorAsync(try await transport.send(page))
        deadline.disarm()
        await XCTAssertNoThrowAsync(try await transport.send(page), "doctor and probe send outside a poll")
        deadline.arm(seconds: 100)
        XCTAssertFalse(deadline.ranOut)
        await XCTAssertNoThrowAsync(try await transport.send(page))
        XCTAssertEqual(server.timeouts.last, 30)
    }

    /// Issue 33: stopping the daemon cancels a poll, and its request under way — to a server that never answers — is
    /// cut at once through the real transport (before: waited for its 30 s timeout), and no other is sent.
    func test_cancellingAPoll_cutsTheRequestUnderWay_andRefusesTheNext() async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 8) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        XCTAssertTrue(bound)
        // The kernel accepts the connection into the backlog; nobody ever answers.
        let silent = HTTPRequest(method: .get, url: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/list", timeout: 30)
        let http = try AsyncHTTPTransport()
        defer { http.closeIdleConnections() }
        let deadline = PollDeadline(source: "slow", now: SystemClocks.bootTime)
        let transport = DeadlineTransport(http, deadline: deadline)
        deadline.arm(seconds: 300)
        let cancel = DispatchQueue(label: "cancel")
        cancel.asyncAfter(deadline: .now() + 0.3) { deadline.cancel() }
        let clock = ContinuousClock(), start = clock.now
        await XCTAssertThrowsErrorAsync(try await transport.send(silent)) { XCTAssertEqual($0 as? PollCancelled, PollCancelled(source: "slow")) }
        XCTAssertLessThan(clock.now - start, .seconds(5), "cut, not waited for")
        XCTAssertTrue(deadline.wasCancelled)
        XCTAssertFalse(deadline.ranOut, "a cancelled poll did not run out of its deadline")
        await XCTAssertThrowsErrorAsync(try await transport.send(silent)) { XCTAssertTrue($0 is PollCancelled) }
        deadline.disarm()
        deadline.arm(seconds: 300)
        XCTAssertFalse(deadline.wasCancelled, "the next poll starts afresh")
    }
}

