import Foundation
import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore
import XCTest

@testable import GitHubClient

/// A timeline longer than a poll reads (issue 36 item 2): its newest pages are read, back from the last, and the
/// read says it is not whole — instead of failing every poll of the source for as long as the item stays mine.
final class GitHubTimelineTests: XCTestCase {
    /// A timeline of `pages` pages of 100 events each, linked as GitHub links them (prev, next, last, first).
    private final class ScriptedTimeline: HTTPTransport, @unchecked Sendable {
        let pages: Int
        private(set) var asked: [Int] = []

        init(pages: Int) { self.pages = pages }

        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            let page = request.url.split(separator: "&page=").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) } ?? 1
            asked.append(page)
            let base = "https://api.github.com/repos/acme/web/issues/7/timeline?per_page=100&page="
            var links: [String] = []
            if page > 1 { links.append("<\(base)\(page - 1)>; rel=\"prev\"") }
            if page < pages { links += ["<\(base)\(page + 1)>; rel=\"next\"", "<\(base)\(pages)>; rel=\"last\""] }
            let events = (0..<100).map { index in
                let id = page * 1_000 + index
                return #"{"id":\#(id),"event":"commented","actor":{"id":3,"login":"bob"},"user":{"id":3,"login":"bob"},"#
                    + #""body":"comment \#(id)","created_at":"2026-11-01T10:00:00Z"}"#
            }
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "application/json")] + (links.isEmpty ? [] : [("Link", links.joined(separator: ", "))]),
                body: Array("[\(events.joined(separator: ","))]".utf8))
        }

        func closeIdleConnections() {}
    }

    private func read(pages: Int) async throws -> (items: [GitHubTimelineItem], complete: Bool, asked: [Int]) {
        let transport = ScriptedTimeline(pages: pages)
        let api = GitHubAPI(
            APIAccess(
                url: "https://api.github.com", secret: Secret("t"), transport: transport, timeout: 30,
                logger: Logger(label: "test")))
        let timeline = try await GitHubReader(api: api).timeline(try XCTUnwrap(GitHubReference("acme/web#7")))
        return (timeline.entries.elements, timeline.complete, transport.asked)
    }

    func test_aBusyItem_isReadFromItsNewestPages_andSaysItIsNotWhole() async throws {
        let read = try await read(pages: 45)
        XCTAssertFalse(read.complete)
        XCTAssertEqual(read.items.count, GitHubReader.mostTimelinePages * 100)
        XCTAssertEqual(read.items.last?.id, 45_099, "the newest event is there")
        XCTAssertEqual(read.items.first?.id, 16_000, "oldest first, from the 30th page back")
        XCTAssertEqual(read.asked.first, 1)
        XCTAssertEqual(read.asked.count, 1 + GitHubReader.mostTimelinePages)
    }

    func test_anOrdinaryTimeline_isReadWhole() async throws {
        let read = try await read(pages: 3)
        XCTAssertTrue(read.complete)
        XCTAssertEqual(read.items.count, 300)
        XCTAssertEqual(read.asked, [1, 2, 3])
    }
}
