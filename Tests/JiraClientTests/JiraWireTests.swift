import Foundation
@testable import JiraClient
import TrackwatchCore
import XCTest

/// Jira's answers as servers send them: ids as strings or numbers, times in three forms, bodies as text or ADF,
/// and hostile values bounded before use.
final class JiraWireTests: XCTestCase {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    func test_timestamps_withAndWithoutMilliseconds_andAsEpochNumbers() throws {
        for (json, expected) in [
            ("\"2026-01-17T12:34:00.000+0000\"", "2026-01-17 12:34:00"),
            ("\"2026-01-17T14:34:00+0200\"", "2026-01-17 12:34:00"),
            ("1768653240", "2026-01-17 12:34:00"),
            ("1768653240000", "2026-01-17 12:34:00"),
        ] {
            XCTAssertEqual(try decode(JiraTime.self, json).timestamp?.rawValue, expected, json)
        }
        for hostile in ["1e300", "-5", "\"not a time\"", "{}"] {
            XCTAssertNil(try decode(JiraTime.self, hostile).timestamp, hostile)
        }
    }

    func test_ids_asStringsOrNumbers_onlyDigits() throws {
        XCTAssertEqual(try decode(JiraID.self, "\"10001\"").value, "10001")
        XCTAssertEqual(try decode(JiraID.self, "10001").value, "10001")
        XCTAssertThrowsError(try decode(JiraID.self, "\"1) OR (1=1\""))
    }

    func test_bodies_plainOrADF_readAsTheirFirstLine() throws {
        XCTAssertEqual(try decode(JiraText.self, "\"\\n\\nFirst line\\nsecond\"").firstLine, "First line")
        let adf = """
            {"type":"doc","version":1,"content":[{"type":"paragraph","content":[]},
             {"type":"paragraph","content":[{"type":"text","text":"Hello "},{"type":"mention","text":"@Eve"}]},
             {"type":"paragraph","content":[{"type":"text","text":"later"}]}]}
            """
        XCTAssertEqual(try decode(JiraText.self, adf).firstLine, "Hello @Eve")
        let control = try decode(JiraText.self, "\"Bell\\u0007 and \\u001b[31mred\"").firstLine
        XCTAssertFalse(control.unicodeScalars.contains { $0.value < 0x20 }, control)
    }

    func test_aChangelogHistory_becomesOneEvent_inThePeoplesNames() throws {
        let history = try decode(
            JiraHistory.self,
            """
            {"id":"10100","author":{"accountId":"acc-alice","accountType":"atlassian","displayName":"Alice"},
             "created":"2026-01-17T12:34:00.000+0000",
             "items":[{"field":"status","fromString":"To Do","toString":"Done"},
                      {"field":"resolution","fromString":null,"toString":"Done"},
                      {"field":"description","fromString":"long","toString":"longer"},
                      {"field":"Story Points","fromString":"3","toString":"5"}]}
            """)
        let event = try XCTUnwrap(JiraMapping(me: "acc-me", url: "https://x").event(history, issue: "1"))
        XCTAssertEqual(event.id, "h10100")
        XCTAssertEqual(event.actor, Actor(id: "acc-alice", name: "Alice", login: nil, isApp: false))
        XCTAssertEqual(
            event.changes,
            [
                FieldChange(field: "Status", old: "To Do", new: "Done"),
                FieldChange(field: "Resolution", old: nil, new: "Done"),
                FieldChange(field: "Description", old: nil, new: nil),
                FieldChange(field: "Story Points", old: "3", new: "5"),
            ])
    }

    func test_jqlGetsOnlyCheckedValues() {
        XCTAssertEqual(JiraQuery.byID(["10001", "2) OR (1=1", "7"]), "id in (10001, 7) ORDER BY id ASC")
        XCTAssertEqual(
            JiraQuery(projects: ["WEB", "OPS"]).unavailableProject(
                in: "The value 'OPS' does not exist for the field 'project'."), "OPS")
        XCTAssertNil(JiraQuery(projects: ["WEB"]).unavailableProject(in: "Field 'x' does not exist"))
    }

    func test_retryAfter_orTheRateLimitResetCountedFromTheAnswersDate() {
        let reset = HTTPResponseFixture.response(
            429, ["X-RateLimit-Reset": "2026-01-17T12:35:00Z", "Date": "Sat, 17 Jan 2026 12:34:00 GMT"])
        XCTAssertEqual(JiraAPI.retryAfter(reset), 60)
        XCTAssertEqual(JiraAPI.retryAfter(HTTPResponseFixture.response(429, ["Retry-After": "9999999999"])), 86_400)
        guard case .rateLimited(429, let wait?, let reason) = JiraAPI.failure(
            HTTPResponseFixture.response(429, ["Retry-After": "10", "RateLimit-Reason": "jira-burst-based"]),
            endpoint: .searchJQL, cloud: true)
        else { return XCTFail("not rate limited") }
        XCTAssertTrue((11...13).contains(wait), "10 s and 10–30 % jitter: \(wait)")
        XCTAssertEqual(reason, "HTTP 429 (jira-burst-based)")
    }

    func test_anUnreadableHistoryOrComment_isLeftOutAndCounted_theRestRead() throws {
        let bulk = try decode(JiraBulkChangelog.self, """
            {"issueChangeLogs": [{"issueId": "10001", "changeHistories": [
              {"id": {}, "created": "2026-01-17T12:34:00.000+0000", "items": []},
              {"id": "10101", "created": "2026-01-17T12:35:00.000+0000",
               "items": [{"field": "status", "toString": 7}, {"field": "priority", "toString": "High"}]}]}]}
            """)
        let histories = try XCTUnwrap(bulk.issueChangeLogs?.elements.first?.changeHistories)
        XCTAssertEqual(histories.elements.map(\.id.value), ["10101"])
        XCTAssertEqual(histories.skipped, 1)
        XCTAssertEqual(histories.elements.first?.items?.elements.map(\.field), ["priority"])
        let page = try decode(JiraChangelogPage.self, #"{"total": 3, "values": [{"id": "1"}, {"id": []}, {"id": "3"}]}"#)
        XCTAssertEqual(page.entries.elements.map(\.id.value), ["1", "3"])
        XCTAssertEqual(page.entries.sent, 3, "where the next page starts")
        let comments = try decode(
            JiraCommentPage.self, #"{"total": 2, "comments": [{"id": "5", "author": 7}, {"id": "6", "body": "ok"}]}"#)
        XCTAssertEqual(comments.comments?.elements.map(\.id.value), ["6"])
        XCTAssertEqual(comments.comments?.sent, 2)
    }
}

/// Issue 37 item 6: a time given as a number keeps its milliseconds, in the form the same moment has as text.
final class JiraEpochTimeTests: XCTestCase {
    private func time(_ json: String) throws -> String? {
        try JSONDecoder().decode(JiraTime.self, from: Data(json.utf8)).timestamp?.rawValue
    }

    func test_epochMilliseconds_keepTheirFraction_asTheTextualFormDoes() throws {
        for (number, text) in [
            ("1768653240123", "\"2026-01-17T12:34:00.123+0000\""),
            ("1768653240120", "\"2026-01-17T12:34:00.120+0000\""),
            ("1768653240005", "\"2026-01-17T12:34:00.005+0000\""),
            ("1768653240000", "\"2026-01-17T12:34:00.000+0000\""),
            ("1768653240.5", "\"2026-01-17T12:34:00.500+0000\""),
        ] {
            let fromNumber = try time(number), fromText = try time(text)
            XCTAssertNotNil(fromNumber, number)
            XCTAssertEqual(fromNumber, fromText, number)
        }
        XCTAssertEqual(try time("1768653240123"), "2026-01-17 12:34:00.123")
    }

    func test_twoChangesInOneSecond_givenAsNumbers_areOrdered() throws {
        let earlier = try XCTUnwrap(try time("1768653240100")), later = try XCTUnwrap(try time("1768653240900"))
        XCTAssertLessThan(earlier, later, "a change in the same second as one already read is newer than it")
    }

}

/// A long ADF paragraph is joined only as far as its first line can be shown (issue 36 item 12).
final class JiraADFBoundsTests: XCTestCase {
    func test_aLongParagraph_isJoinedOnlyAsFarAsAFirstLineReads() throws {
        let node = #"{"type":"text","text":"\#(String(repeating: "w", count: 1_000))"}"#
        let paragraph = Array(repeating: node, count: 200).joined(separator: ",")
        let adf = #"{"type":"doc","content":[{"type":"paragraph","content":[\#(paragraph)]}]}"#
        let root = try JSONDecoder().decode(ADFNode.self, from: Data(adf.utf8))
        let line = root.firstLine()
        XCTAssertGreaterThanOrEqual(line.utf8.count, ADFNode.longestLine)
        XCTAssertLessThan(line.utf8.count, ADFNode.longestLine + 1_000, "not the whole 200 KB")
        XCTAssertEqual(
            try JSONDecoder().decode(JiraText.self, from: Data(adf.utf8)).firstLine,
            SafeText.firstLine(String(repeating: "w", count: 200_000), limit: 200))
    }
}
