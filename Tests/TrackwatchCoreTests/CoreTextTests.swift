import TrackwatchCore
import XCTest

final class CompassTimestampTests: XCTestCase {
    func test_roundTripsThroughSeconds() {
        for text in ["1970-01-01 00:00:00", "2000-02-29 23:59:59", "2026-11-22 10:05:00", "2100-12-31 12:00:00"] {
            let stamp = CompassTimestamp(text)
            XCTAssertEqual(stamp.secondsSinceEpoch.map(CompassTimestamp.init(secondsSinceEpoch:)), stamp, text)
        }
        XCTAssertEqual(CompassTimestamp("1970-01-02 00:00:00").secondsSinceEpoch, 86_400)
    }

    func test_arithmeticCrossesDayMonthAndYear() {
        XCTAssertEqual(CompassTimestamp("2027-01-01 00:05:00").adding(seconds: -600), CompassTimestamp("2026-12-31 23:55:00"))
        XCTAssertEqual(CompassTimestamp("2024-02-28 23:59:00").adding(seconds: 120), CompassTimestamp("2024-02-29 00:01:00"))
    }

    func test_rejectsTextThatIsNotATimestamp() {
        for text in ["", "2026-11-22", "2026-13-01 00:00:00", "2026-11-22T10:00:00", "abcd-ef-gh ij:kl:mn", "2026-11-22 10:00:00Z"] {
            XCTAssertNil(CompassTimestamp(text).secondsSinceEpoch, text)
        }
    }
}

final class ChangeTextTests: XCTestCase {
    func test_sentences() {
        let assigned = Change(record: RecordID("SAMPL00000042"), kind: .assigned, headline: "Crash on save", by: "lead",
                              action: "Assign", priority: "2-Give High Attention")
        XCTAssertEqual(assigned.sentence, "SAMPL00000042 assigned to you by lead: Crash on save [2-Give High Attention]")
        let resolved = Change(record: RecordID("SAMPL00000017"), kind: .modified, headline: "Slow start", by: "lead",
                              action: "Resolve", changes: [FieldChange(field: "State", old: "Opened", new: "Resolved")])
        XCTAssertEqual(resolved.summary, "SAMPL00000017 resolved by lead")
        XCTAssertEqual(resolved.sentence, "SAMPL00000017 resolved by lead: Slow start (State: Opened → Resolved)")
        let gone = Change(record: RecordID("SAMPL00000003"), kind: .unassigned, headline: "Old")
        XCTAssertEqual(gone.sentence, "SAMPL00000003 no longer assigned to you: Old")
        XCTAssertEqual(Change.pastTense(ofAction: "Re_open"), "reopened")
        XCTAssertEqual(Change.pastTense(ofAction: "Escalate"), "Escalate applied")
    }
}

final class WatchQueriesTests: XCTestCase {
    func test_assignedQuery_filtersOnCurrentUserAndListsTheColumns() {
        let query = WatchQueries.assignedToMe
        XCTAssertEqual(query.filterNode.fieldFilters, [FieldFilter("Owner", .equal, ["[CURRENT_USER]"])])
        XCTAssertEqual(query.columns, ["id", "dbid", "Headline", "State", "Priority", "Severity", "Submitter", "Owner"])
    }

    func test_historyQuery_coversAllActionsByOthersSinceTheCheckpoint() {
        let query = WatchQueries.modifiedByOthers(since: CompassTimestamp("2026-11-22 09:50:00"))
        XCTAssertEqual(query.filterNode.fieldFilters, [
            FieldFilter("Owner", .equal, ["[CURRENT_USER]"]),
            FieldFilter("history.user_name", .notEqual, ["[CURRENT_USER]"]),
            FieldFilter("history.action_timestamp", .greater, ["2026-11-22 09:50:00"]),
        ])
        XCTAssertFalse(query.filterNode.fieldFilters.contains { $0.fieldPath == "history.action_name" })
        XCTAssertEqual(WatchQueries.modifiedByOthers(since: nil).filterNode.fieldFilters.count, 2)
    }

    func test_rowsBecomeRecordsAndHistory() throws {
        let records = try WatchQueries.records(fromRows: [
            ["SAMPL00000001", "33554433", "Crash & <b>burn</b>", "Opened", "1-Resolve Immediately", "1-Critical", "admin", "engineer"],
        ])
        XCTAssertEqual(records[0].id, RecordID("SAMPL00000001"))
        XCTAssertEqual(records[0].headline, "Crash & <b>burn</b>")
        XCTAssertNil(records[0]["id"])
        let history = try WatchQueries.historyEntries(fromRows: [
            ["SAMPL00000001", "Crash", "Resolve", "2026-11-22 10:00:00", "lead", "Opened", "Resolved"],
        ])
        XCTAssertEqual(history[0].key, HistoryKey(record: RecordID("SAMPL00000001"), action: "Resolve",
                                                   timestamp: CompassTimestamp("2026-11-22 10:00:00"), user: "lead"))
    }

    func test_malformedRows_areRejected() {
        XCTAssertThrowsError(try WatchQueries.records(fromRows: [["SAMPL00000001", "1"]]))
        XCTAssertThrowsError(try WatchQueries.records(fromRows: [["", "1", "h", "s", "p", "s", "a", "o"]]))
        XCTAssertThrowsError(try WatchQueries.historyEntries(fromRows: [["SAMPL1", "h", "Modify", "yesterday", "lead", "", ""]]))
    }
}
