import Foundation
import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore
import XCTest

@testable import GitHubClient

/// GitHub Enterprise reached by an alias host name links its next pages under its own name (issue 36 item 14): the
/// token never follows them, and the failure says which url to configure.
final class GitHubAliasHostTests: XCTestCase {
    private final class AliasServer: HTTPTransport, @unchecked Sendable {
        let next: String
        private(set) var urls: [String] = []

        init(next: String) { self.next = next }

        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            urls.append(request.url)
            let issues = (1...100).map { #"{"id":\#($0),"number":\#($0),"updated_at":"2026-11-01T10:00:00Z"}"# }
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "application/json"), ("Link", "<\(next)>; rel=\"next\"")],
                body: Array("[\(issues.joined(separator: ","))]".utf8))
        }

        func closeIdleConnections() {}
    }

    private func list(next: String) async throws -> (error: String, urls: [String]) {
        let server = AliasServer(next: next)
        let api = GitHubAPI(
            APIAccess(
                url: "https://ghe-alias.example/api/v3", secret: Secret("t"), transport: server, timeout: 30,
                logger: Logger(label: "test")))
        do {
            _ = try await GitHubReader(api: api).list(filter: "assigned", state: "open", since: nil, etag: nil)
            return ("", server.urls)
        } catch {
            return ("\(error)", server.urls)
        }
    }

    func test_aNextPageUnderTheServersOwnName_isNotFollowed_andTheFailureSaysWhichURLToConfigure() async throws {
        let (error, urls) = try await list(next: "https://ghe.example.com/api/v3/issues?filter=assigned&page=2")
        XCTAssertEqual(urls.count, 1, "the token went to one server only")
        XCTAssertTrue(error.contains("set url in [[github]] to https://ghe.example.com/api/v3"), error)
    }

    func test_aHostileNextLink_isNotEchoed() async throws {
        let (error, urls) = try await list(next: "https://evil.example\u{1B}[31m/x?page=2")
        XCTAssertEqual(urls.count, 1)
        XCTAssertTrue(error.contains("a link to another server"), error)
        XCTAssertFalse(error.contains("\u{1B}"), error)
    }
}
