import CompassClient
import TrackerHTTP
@testable import TrackwatchApp
import TrackwatchCore
import XCTest

/// What the outage bubble says: one line of cause with the server as the user wrote it, one of what trackwatch
/// does — no internal REST URL, no "Cannot reach Compass" twice, no countdown that goes stale on screen
/// (issue 20, item 9; before, issue 13, item 6).
final class OutageMessageTests: XCTestCase {
    private let server = "https://compass.example.com:8190"

    private func message(_ error: any Error, server label: String? = nil, several: Bool = false) -> OutageMessage {
        OutageMessage(error, tracker: "Compass", label: label ?? server, several: several)
    }

    func test_eachCase_oneLineOfCause_oneOfWhatTrackwatchDoes() {
        let refused = message(CompassError.unreachable(TransportError(
            .connectionFailed, "cannot connect to compass.example.com:8190: Connection refused")))
        XCTAssertEqual(refused.summary, "Cannot reach Compass")
        XCTAssertEqual(refused.body, ["\(server): connection refused", "trackwatch retries by itself."])

        let closed = message(CompassError.unreachable(TransportError(
            .connectionFailed, "the server closed the connection (https://compass.example.com:8190/ccmweb/rest/repos/2.0.0/databases/SAMPL/query)")))
        XCTAssertEqual(closed.body, ["\(server): the server closed the connection", "trackwatch retries by itself."])

        let timeout = message(CompassError.unreachable(TransportError(
            .timedOut, "no answer from https://compass.example.com:8190/ccmweb/rest/authenticate in time")))
        XCTAssertEqual(timeout.summary, "Compass does not answer")
        XCTAssertEqual(timeout.body, ["\(server): no answer in time", "trackwatch retries by itself."])

        // The server answered: it is not unreachable.
        let unavailable = message(CompassError.server(status: 503, message: "maintenance", endpoint: "ad-hoc query",
                                                      retryAfter: 30))
        XCTAssertEqual(unavailable.summary, "Compass is unavailable")
        XCTAssertEqual(unavailable.body, ["\(server): HTTP 503: maintenance", "trackwatch retries by itself."])
        XCTAssertEqual(message(CompassError.server(status: 429, message: "", endpoint: "query")).summary, "Compass is busy")

        // A refused login is not retried quickly (servers lock accounts): the bubble says so, without a clock time.
        let login = message(CompassError.loginRejected(status: 401, message: "bad password"), server: "prod", several: true)
        XCTAssertEqual(login.summary, "Compass refused the login (prod)")
        XCTAssertEqual(login.body, ["prod: HTTP 401: bad password",
                                    "trackwatch retries at the next regular poll, not sooner (servers lock accounts)."])

        XCTAssertEqual(message(CompassError.invalidResponse(endpoint: "query", detail: "an HTML page")).summary,
                       "Compass sent an answer trackwatch cannot use")
        // The configuration does not fit the server: no "retries", but what to do.
        let notTLS = message(CompassError.unreachable(TransportError(.notTLS, "an https:// URL, but the answer was not TLS")))
        XCTAssertEqual(notTLS.summary, "Compass does not speak TLS on this port")
        XCTAssertEqual(notTLS.body[1], "Fix the configuration, then: systemctl --user reload trackwatch")
        let noDatabase = message(CompassError.repositoryOrDatabaseNotFound(
            repo: "2.0.0", database: "SAMP", missingRepository: false, known: ["SAMPL"]))
        XCTAssertEqual(noDatabase.summary, "Compass has no such repository or database")
        XCTAssertFalse(noDatabase.body[1].contains("retries"), noDatabase.body[1])
        let proxy = message(CompassError.unreachable(TransportError(.proxyCredentials, "it asks for credentials (HTTP 407)")))
        XCTAssertEqual(proxy.summary, "The proxy refused its credentials")
        XCTAssertTrue(proxy.body[1].hasPrefix("trackwatch retries at the next regular poll"), proxy.body[1])

        for outage in [refused, closed, timeout, unavailable, login, notTLS, noDatabase, proxy] {
            XCTAssertEqual(outage.body.count, 2)
            XCTAssertFalse(outage.body.joined().contains("/ccmweb/rest"), "no internal URL: \(outage.body)")
            XCTAssertFalse(outage.body.joined().contains("next try"), "nothing that goes stale: \(outage.body)")
            XCTAssertFalse(outage.body[0].contains(outage.summary), "the summary once: \(outage.body)")
            XCTAssertTrue(outage.detail.count > outage.body[0].count, "the journal keeps the whole error")
        }
        XCTAssertEqual(OutageMessage.recovered(tracker: "Compass", server: nil).summary, "Connected to Compass again")
        XCTAssertEqual(OutageMessage.recovered(tracker: "Compass", server: "prod").summary, "Connected to Compass prod again")
    }

    /// Issue 37, item 3: a table whose credential cannot be read is named as written, on the bubble and in the
    /// journal's detail; nothing was sent, so no word about locked accounts.
    func test_aCredentialThatCannotBeRead_namesItsTable() {
        let error = SourceSetupError(
            table: "[[github]] work",
            underlying: CredentialError(description: "token_file /home/me/gh: No such file or directory"))
        let unreadable = OutageMessage(error, tracker: "GitHub", label: "work", several: true)
        XCTAssertEqual(unreadable.summary, "trackwatch cannot read the password or token (work)")
        XCTAssertEqual(unreadable.body, [
            "[[github]] work: token_file /home/me/gh: No such file or directory",
            "Fix it; trackwatch tries again at each regular poll, or at once on: systemctl --user reload trackwatch",
        ])
        XCTAssertEqual(unreadable.detail, "[[github]] work: token_file /home/me/gh: No such file or directory")
        XCTAssertEqual(ExitStatus.forError(error), .credentials)
    }

    /// Issue 36, item 8: a rate limit that holds is said with when the next try is, a clock time that stays true.
    func test_aRateLimit_saysWhoLimitsAndTheNextTry() {
        let failure = CompassError.server(status: 429, message: "slow down", endpoint: "query", retryAfter: 600)
        let one = OutageMessage(
            rateLimited: failure, tracker: "GitHub", label: "github", several: false, nextTry: "10:42")
        XCTAssertEqual(one.summary, "GitHub is rate-limiting trackwatch; next try 10:42")
        XCTAssertEqual(
            one.body, ["github: HTTP 429: slow down", "trackwatch waits as GitHub asked, and retries by itself."])
        let several = OutageMessage(
            rateLimited: failure, tracker: "GitHub", label: "work", several: true, nextTry: "10:42")
        XCTAssertEqual(several.summary, "GitHub is rate-limiting trackwatch (work); next try 10:42")
    }
}
