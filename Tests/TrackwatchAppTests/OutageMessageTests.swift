import CompassClient
import TrackerHTTP
@testable import TrackwatchApp
import TrackwatchCore
import XCTest

/// Issue 13, item 6: the outage bubble's words match the case, and say that trackwatch keeps trying and when.
final class OutageMessageTests: XCTestCase {
    func test_eachCase_inItsOwnWords_withTheNextTry() {
        let unreachable = OutageMessage(CompassError.unreachable(TransportError(.connectionFailed, "connection refused")),
                                        tracker: "Compass", nextTry: "at 10:35", server: nil)
        XCTAssertEqual(unreachable.summary, "Cannot reach Compass")
        XCTAssertEqual(unreachable.next, "trackwatch keeps retrying by itself; next try at 10:35.")
        XCTAssertTrue(unreachable.detail.contains("connection refused"))

        let timeout = OutageMessage(CompassError.unreachable(TransportError(.timedOut, "no answer in 30 s")), tracker: "Compass", nextTry: "at 10:35", server: nil)
        XCTAssertEqual(timeout.summary, "Compass does not answer")

        // The server answered: it is not unreachable.
        let unavailable = OutageMessage(CompassError.server(status: 503, message: "maintenance", endpoint: "query"),
                                        tracker: "Compass", nextTry: "at 10:35", server: nil)
        XCTAssertEqual(unavailable.summary, "Compass is unavailable")
        XCTAssertEqual(unavailable.next, "trackwatch keeps retrying by itself; next try at 10:35.")
        XCTAssertTrue(unavailable.detail.contains("HTTP 503"), unavailable.detail)
        XCTAssertEqual(OutageMessage(CompassError.server(status: 429, message: "", endpoint: "query", retryAfter: 60),
                                     tracker: "Compass", nextTry: "in 60 s", server: nil).summary, "Compass is busy")

        // A refused login is not retried quickly (servers lock accounts): the bubble says when it is.
        let refused = OutageMessage(CompassError.loginRejected(status: 401, message: "bad password"), tracker: "Compass", nextTry: "at 10:40", server: "prod")
        XCTAssertEqual(refused.summary, "Compass refused the login (prod)")
        XCTAssertTrue(refused.next.hasPrefix("trackwatch tries again at the next regular poll (at 10:40), not sooner"), refused.next)

        XCTAssertEqual(OutageMessage(CompassError.invalidResponse(endpoint: "query", detail: "HTML"), tracker: "Compass", nextTry: "at 10:35", server: nil).summary,
                       "Compass sent an answer trackwatch cannot use")
        // The answer says the configuration does not fit the server: no "keeps retrying", but what to do.
        let notTLS = OutageMessage(CompassError.unreachable(TransportError(.notTLS, "plain HTTP")), tracker: "Compass", nextTry: "at 10:35", server: nil)
        XCTAssertEqual(notTLS.summary, "Compass does not speak TLS on this port")
        XCTAssertEqual(notTLS.next, "Fix the configuration, then: systemctl --user reload trackwatch")
        let noDatabase = OutageMessage(
            CompassError.repositoryOrDatabaseNotFound(repo: "2.0.0", database: "SAMP", missingRepository: false, known: ["SAMPL"]),
            tracker: "Compass", nextTry: "at 10:35", server: nil)
        XCTAssertEqual(noDatabase.summary, "Compass has no such repository or database")
        XCTAssertFalse(noDatabase.next.contains("retrying"), noDatabase.next)
        let proxy = OutageMessage(
            CompassError.unreachable(TransportError(.proxyCredentials, "it asks for credentials (HTTP 407)")),
            tracker: "Compass", nextTry: "at 10:40", server: nil)
        XCTAssertEqual(proxy.summary, "The proxy refused its credentials")
        XCTAssertTrue(proxy.next.hasPrefix("trackwatch tries again at the next regular poll (at 10:40)"), proxy.next)
        XCTAssertEqual(OutageMessage.recovered(tracker: "Compass", server: nil).summary, "Connected to Compass again")
        XCTAssertEqual(OutageMessage.recovered(tracker: "Compass", server: "prod").summary, "Connected to Compass prod again")
    }
}
