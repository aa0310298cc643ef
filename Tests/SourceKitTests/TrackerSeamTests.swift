import SourceKit
import TrackerHTTP
import TrackwatchCore
import XCTest

/// What every token tracker shares, tested once: the common failures' words, kinds and reasons; a JSON answer
/// that is not one; the jittered wait; the account's files.
final class TrackerSeamTests: XCTestCase {
    /// A tracker with one failure of its own, in the default words.
    private struct ForgeRefusal: TrackerRefusal {
        static var tracker: String { "Forge" }
        static var newToken: String { "token (Forge, Settings)" }
        var own: OwnFailure { OwnFailure("Forge refused.", kind: .configuration, reason: "refused") }
        func cause(tracker: String) -> String? { "\(tracker) refused" }
    }
    private typealias ForgeError = TrackerError<ForgeRefusal>

    /// A tracker whose table is not its name in lower case, with its own words for a TLS failure.
    private struct BoardRefusal: TrackerRefusal {
        static var tracker: String { "Work Board" }
        static var table: String { "work_board" }
        static func unreachable(_ error: TransportError) -> String? {
            error.kind == .tls ? "\(error.detail): set ca_file in [[work_board]]." : nil
        }
        var own: OwnFailure { OwnFailure("", kind: .badAnswer, reason: "") }
    }

    func test_sharedFailures_sayWhatToDo_inTheTrackersWords() {
        let rows: [(ForgeError, String, FailureKind, String)] = [
            (.unreachable(TransportError(.connectionFailed, "connection refused")),
             "Cannot reach Forge: connection refused. Check the url in [[forge]] and the network; the next poll retries.",
             .unreachable(.connectionFailed), TransportError(.connectionFailed, "connection refused").reason),
            (.unreachable(TransportError(.tls, "certificate expired")),
             "certificate expired. If the server uses a private certificate, set ca_file in [[forge]].",
             .unreachable(.tls), TransportError(.tls, "certificate expired").reason),
            (.tokenRejected(message: "Bad credentials"),
             "Forge rejected the token (HTTP 401: Bad credentials): it expired, was revoked or is wrong. Make a new "
                + "token (Forge, Settings) and put it in the token_file of [[forge]].",
             .credentials, "HTTP 401: token rejected"),
            (.rateLimited(status: 429, retryAfter: 10.2, limit: "HTTP 429"),
             "Forge is limiting this token's requests (HTTP 429); it asked to wait 11 s. trackwatch waits and tries "
                + "again by itself; nothing is lost.",
             .server(status: 429), "HTTP 429: too many requests"),
            (.rateLimited(status: nil, retryAfter: .nan, limit: "a secondary limit"),
             "Forge is limiting this token's requests (a secondary limit); it asked to wait 0 s. trackwatch waits and "
                + "tries again by itself; nothing is lost.",
             .server(status: 429), "rate limited"),
            (.server(status: 502, message: "", endpoint: "issues"), "Forge answered HTTP 502 to the issues request.",
             .server(status: 502), "HTTP 502"),
            (.invalidResponse(endpoint: "user", detail: "an empty body"),
             "Forge sent an unexpected answer to the user request: an empty body.", .badAnswer,
             "an unexpected answer to the user request"),
            (.refused(ForgeRefusal()), "Forge refused.", .configuration, "refused"),
            (.projectUnavailable(name: "web", status: 404),
             "Project web: Forge has no such project, or the token cannot see it (HTTP 404). Check projects in "
                + "[[forge]] (names as Forge shows them), or ask for access; the other projects are watched.",
             .configuration, "project web: HTTP 404"),
            (.projectUnavailable(name: "ops", status: 403),
             "Project ops: the token may not read it (HTTP 403). Check projects in [[forge]] (names as Forge shows "
                + "them), or ask for access; the other projects are watched.",
             .configuration, "project ops: HTTP 403"),
        ]
        for (error, description, kind, reason) in rows {
            XCTAssertEqual(error.description, description)
            XCTAssertEqual(error.failureKind, kind, description)
            XCTAssertEqual(error.reason, reason, description)
            XCTAssertEqual(error.isRateLimited, error.retryAfter != nil, description)
            let cause: String? = switch error {
            case .refused: "Forge refused"
            case .projectUnavailable(let name, _): "Forge project \(name) is not available"
            default: nil
            }
            XCTAssertEqual(error.cause(tracker: "Forge"), cause, description)
        }
        XCTAssertEqual(
            ForgeError.projectsUnavailable(["web", "ops", "new"], refused: ["web": 404, "ops": 403]),
            .projectUnavailable(name: "web, ops, new", status: 404))
        XCTAssertEqual(
            ForgeError.projectsUnavailable(["ops"], refused: [:]), .projectUnavailable(name: "ops", status: 404))
        typealias Board = TrackerError<BoardRefusal>
        XCTAssertEqual(
            Board.unreachable(TransportError(.tls, "certificate expired")).description,
            "certificate expired: set ca_file in [[work_board]].")
        XCTAssertEqual(
            Board.unreachable(TransportError(.connectionFailed, "connection refused")).description,
            "Cannot reach Work Board: connection refused. Check the url in [[work_board]] and the network; the next "
                + "poll retries.")
    }

    /// The reading of an error answer most trackers share: 401 the token, 429 a wait (as told, else a minute, both
    /// jittered), any other status as it is.
    func test_anErrorAnswer_isTheTokenAWaitOrItsStatus() {
        let token = ForgeError.answer(HTTPResponse(status: 401), message: "Bad credentials", endpoint: "user")
        XCTAssertEqual(token, .tokenRejected(message: "Bad credentials"))
        let told = ForgeError.answer(
            HTTPResponse(status: 429, headers: [("Retry-After", "10")]), message: "", endpoint: "x")
        guard case .rateLimited(429, let wait?, "HTTP 429") = told else { return XCTFail("\(told)") }
        XCTAssertTrue((11...13).contains(wait), "10 s and 10–30 % jitter: \(wait)")
        let plain = ForgeError.answer(HTTPResponse(status: 429), message: "Retry later", endpoint: "x")
        XCTAssertTrue((66...78).contains(plain.retryAfter ?? 0), "a minute, with jitter: \(plain)")
        XCTAssertEqual(
            ForgeError.waitAsked(HTTPResponse(status: 503, headers: [("Retry-After", "5")])).reason,
            "HTTP 503: too many requests")
        for status in [403, 404, 500, 503] {
            XCTAssertEqual(
                ForgeError.answer(HTTPResponse(status: status), message: "m", endpoint: "issues"),
                .server(status: status, message: "m", endpoint: "issues"))
        }
        XCTAssertThrowsError(
            try ForgeError.decode(
                [Int].self, HTTPResponse(status: 200, body: Array("<html>".utf8)), endpoint: "issues")
        ) {
            XCTAssertEqual(
                $0 as? ForgeError,
                .invalidResponse(
                    endpoint: "issues", detail: "an HTML page instead of JSON (a proxy's or a login page?)"))
        }
    }

    func test_jsonAnswer_namesWhatCameInsteadOfJSON() {
        struct Shape: Decodable { let id: Int }
        let rows: [(HTTPResponse, String)] = [
            (HTTPResponse(status: 200, headers: [("Content-Type", "text/html")], body: Array("<p>login".utf8)),
             "an HTML page instead of JSON (a proxy's or a login page?)"),
            (HTTPResponse(status: 200, body: Array("  <html>".utf8)), "an HTML page instead of JSON (a proxy's or a login page?)"),
            (HTTPResponse(status: 200), "an empty body"),
            (HTTPResponse(status: 200, body: Array(#"{"id":"x"}"#.utf8)), "JSON of an unexpected shape, or cut short"),
        ]
        for (response, detail) in rows {
            XCTAssertThrowsError(try JSONAnswer.decode(Shape.self, response) { ConfigurationProblem($0) }) {
                XCTAssertEqual(($0 as? ConfigurationProblem)?.message, detail)
            }
        }
        XCTAssertEqual(try JSONAnswer.decode(Shape.self, HTTPResponse(status: 200, body: Array(#"{"id":7}"#.utf8))) {
            ConfigurationProblem($0)
        }.id, 7)
    }

    func test_jittered_addsTenToThirtyPercent() {
        for _ in 0..<100 { XCTAssertTrue((11.0...13.0).contains(RetryAfter.jittered(10))) }
    }

    func test_account_files_areTheSecretsFileAndTheCA() {
        var account = TrackerAccount(name: "work", url: "https://x", credential: .tokenFile(path: "/t"))
        account.connection.caFile = "/ca.pem"
        XCTAssertEqual(account.files.map(\.key), ["token_file", "ca_file"])
        account.credential = .passwordFile(path: "/p")
        XCTAssertEqual(account.files.map(\.path), ["/p", "/ca.pem"])
        account.credential = .passwordCommand("pass show x")
        XCTAssertEqual(account.files.map(\.key), ["ca_file"])
    }
}
