import SourceKit
import Synchronization
import TrackerHTTP
import XCTest

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
    func test_pagesJustInsideTheTimeout_endAtTheDeadline_namingTheSource() throws {
        server.answerTakes = 29
        deadline.arm(seconds: 100)
        var pages = 0
        XCTAssertThrowsError(try { while true { _ = try transport.send(page); pages += 1 } }()) { error in
            XCTAssertEqual(error as? PollDeadlineExceeded, PollDeadlineExceeded(source: "devices", seconds: 100))
            XCTAssertTrue("\(error)".hasPrefix("devices ran out of its poll deadline (100 s)"), "\(error)")
        }
        XCTAssertEqual(pages, 3)
        XCTAssertEqual(server.timeouts, [30, 30, 30, 13], "the last request may only take what is left")
        XCTAssertEqual(server.now, 100, "not a second past the deadline")
        XCTAssertTrue(deadline.ranOut)
    }

    func test_noRequestStartsAfterTheDeadline() {
        deadline.arm(seconds: 10)
        server.now = 10
        XCTAssertThrowsError(try transport.send(page)) { XCTAssertTrue($0 is PollDeadlineExceeded) }
        XCTAssertEqual(server.timeouts, [], "the server was not asked")
    }

    func test_aRequestsOwnTimeout_isItsOwnFailure_notTheDeadlines() {
        server.answerTakes = 40
        deadline.arm(seconds: 300)
        XCTAssertThrowsError(try transport.send(page)) { XCTAssertEqual(($0 as? TransportError)?.kind, .timedOut) }
        XCTAssertFalse(deadline.ranOut)
    }

    func test_aNewPoll_startsAFreshDeadline_andOutsideAPollNothingIsHeld() throws {
        server.answerTakes = 29
        deadline.arm(seconds: 10)
        XCTAssertThrowsError(try transport.send(page))
        deadline.disarm()
        XCTAssertNoThrow(try transport.send(page), "doctor and probe send outside a poll")
        deadline.arm(seconds: 100)
        XCTAssertFalse(deadline.ranOut)
        XCTAssertNoThrow(try transport.send(page))
        XCTAssertEqual(server.timeouts.last, 30)
    }
}
