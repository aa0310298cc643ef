@testable import AzureDevOpsClient
import Logging
import SourceKit
import Synchronization
import TrackerHTTP
import TrackwatchCore
import TestSupport
import XCTest

/// The client's manners over a scripted transport: what every request carries, the api-version learnt from a
/// refusal, and a wait asked for on a good answer.
final class AzureDevOpsAPITests: XCTestCase {
    func access(_ url: String, _ script: Script) -> APIAccess {
        APIAccess(url: url, secret: Secret("pat"), transport: script, timeout: 30, logger: Logger(label: "test"))
    }

    /// Answers in order; keeps each request.
    final class Script: HTTPTransport {
        let answers: Mutex<[HTTPResponse]>
        let sent = Mutex<[HTTPRequest]>([])
        init(_ answers: [HTTPResponse]) { self.answers = Mutex(answers) }
        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            sent.withLock { $0.append(request) }
            return answers.withLock { $0.removeFirst() }
        }
        func closeIdleConnections() {}
    }

    private func json(_ text: String, status: Int = 200, _ headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(text.utf8))
    }

    func test_everyRequest_suppressesTheSignInRedirect_signsInWithThePAT_andNamesItsVersion() async throws {
        let script = Script([json(#"{"authenticatedUser": {"id": "X"}}"#)])
        let api = AzureDevOpsAPI(access("https://dev.azure.com/acme", script))
        _ = try await api.get(AzureDevOpsConnection.self, .connectionData)
        let request = try XCTUnwrap(script.sent.withLock { $0.first })
        XCTAssertEqual(request.url, "https://dev.azure.com/acme/_apis/connectionData?api-version=7.1-preview.1")
        XCTAssertTrue(request.headers.contains { $0.name == "X-TFS-FedAuthRedirect" && $0.value == "Suppress" })
        XCTAssertTrue(
            request.headers.contains { $0.name == "Authorization" && $0.value == "Basic OnBhdA==" }, "base64(\":pat\")")
    }

    func test_aServerThatRefuses71_isAskedAgainIn70_andKeptThere() async throws {
        let refusal = json(
            #"{"message": "The requested REST API version of 7.1 is out of range for this server.", "typeKey": "VssVersionOutOfRangeException"}"#,
            status: 400)
        let script = Script([refusal, json(#"{"value": []}"#), json(#"{"value": []}"#)])
        let api = AzureDevOpsAPI(access("https://tfs/tfs/C", script))
        _ = try await api.get(ValueList<PullRequest>.self, .pullRequests(project: "My Web"))
        _ = try await api.get(ValueList<PullRequest>.self, .pullRequests(project: "My Web"))
        XCTAssertEqual(
            script.sent.withLock { $0.map(\.url) },
            [
                "https://tfs/tfs/C/My%20Web/_apis/git/pullrequests?api-version=7.1",
                "https://tfs/tfs/C/My%20Web/_apis/git/pullrequests?api-version=7.0",
                "https://tfs/tfs/C/My%20Web/_apis/git/pullrequests?api-version=7.0",
            ])
    }

    func test_aWaitAskedOnAGoodAnswer_isKeptForTheSchedule_once() async throws {
        let script = Script([
            json(#"{"value": []}"#, [("X-RateLimit-Delay", "2.5"), ("Retry-After", "7")]), json(#"{"value": []}"#),
        ])
        let api = AzureDevOpsAPI(access("https://dev.azure.com/acme", script))
        _ = try await api.get(ValueList<PullRequest>.self, .pullRequests(project: "Web"))
        _ = try await api.get(ValueList<PullRequest>.self, .pullRequests(project: "Web"))
        XCTAssertEqual(api.askedToWait.take(), 7)
        XCTAssertNil(api.askedToWait.take())
    }

    /// A work item that cannot be read (an id past Int) is left out of a batch; the ids that batch left out are then
    /// unsure — it may be any of them — and none is taken for one I cannot see (gone).
    func test_aWorkItemThatCannotBeRead_leavesTheBatchsMissingIdsUnsure_neverGone() async throws {
        let config = try Config.parse(
            "[[azure_devops]]\nurl = \"https://dev.azure.com/acme/\"\ntoken_file = \"t\"\n",
            file: "/home/me/.config/trackwatch/config.toml", kinds: [AzureDevOpsSourceKind()])
        let settings = try XCTUnwrap(config.sources.first as? AzureDevOpsSettings)
        let script = Script([
            json(#"{"count": 3, "value": [{"id": 1, "rev": 2}, {"id": 1000000000000000000000000000000}, null]}"#),
            json(#"{"count": 2, "value": [{"id": 1, "rev": 2}, null]}"#),
        ])
        let api = AzureDevOpsAPI(access("https://dev.azure.com/acme", script))
        let tracker = AzureDevOpsTracker(settings: settings, api: api)
        let unsure = try await tracker.batch([1, 2, 3])
        XCTAssertEqual(unsure.items.map(\.id), [1])
        XCTAssertEqual(unsure.unsure, [2, 3])
        let plain = try await tracker.batch([1, 2])
        XCTAssertEqual(plain.items.map(\.id), [1])
        XCTAssertEqual(plain.unsure, [], "a null is one I cannot see")
    }

    func test_a203SignInPage_isARefusedToken_neverAnEmptyList() async {
        let script = Script([
            HTTPResponse(status: 203, headers: [("Content-Type", "text/html")], body: Array("<html/>".utf8))
        ])
        let api = AzureDevOpsAPI(access("https://dev.azure.com/acme", script))
        await XCTAssertThrowsErrorAsync(try await api.get(ValueList<PullRequest>.self, .pullRequests(project: "Web"))) { error in
            XCTAssertEqual(error as? AzureDevOpsError, .refused(.signInPage))
        }
    }
}
