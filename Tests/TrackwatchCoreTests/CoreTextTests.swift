@testable import CompassClient
@testable import TrackwatchCore
import XCTest

final class TimestampTests: XCTestCase {
    func test_roundTripsThroughSeconds() {
        for text in ["1970-01-01 00:00:00", "2000-02-29 23:59:59", "2026-11-22 10:05:00", "2100-12-31 12:00:00"] {
            let stamp = Timestamp(text)
            XCTAssertEqual(stamp.secondsSinceEpoch.map(Timestamp.init(secondsSinceEpoch:)), stamp, text)
        }
        XCTAssertEqual(Timestamp("1970-01-02 00:00:00").secondsSinceEpoch, 86_400)
        XCTAssertEqual(Timestamp("1970-01-02 00:00:00.25").secondsSinceEpoch, 86_400, "the fraction is dropped")
    }

    func test_arithmeticCrossesDayMonthAndYear_andIsClampedToYears1To9999() {
        XCTAssertEqual(Timestamp("2027-01-01 00:05:00").adding(seconds: -600), Timestamp("2026-12-31 23:55:00"))
        XCTAssertEqual(Timestamp("2024-02-28 23:59:00").adding(seconds: 120), Timestamp("2024-02-29 00:01:00"))
        XCTAssertEqual(Timestamp("9999-12-31 23:00:00").adding(seconds: 7_200), Timestamp("9999-12-31 23:59:59"))
        XCTAssertNil(Timestamp("2024-02-28 23:59:00").adding(seconds: .min), "no trap")
        XCTAssertEqual(Timestamp(secondsSinceEpoch: .max), Timestamp("9999-12-31 23:59:59"))
        XCTAssertEqual(Timestamp(secondsSinceEpoch: .min), Timestamp("0001-01-01 00:00:00"))
    }

    func test_rejectsTextThatIsNotInNormalForm() {
        for text in ["", "2026-11-22", "2026-13-01 00:00:00", "2026-11-22T10:00:00", "abcd-ef-gh ij:kl:mn", "2026-11-22 10:00:00Z"] {
            XCTAssertNil(Timestamp(text).secondsSinceEpoch, text)
        }
    }

    /// Every form a server may print becomes one normal form: the same moment, the same value.
    func test_parse_acceptsTheFormsServersPrint_andNormalisesThem() throws {
        let cases: [(String, String, TimestampFormat.Form, Bool)] = [
            ("2024-01-31 10:15:00", "2024-01-31 10:15:00", .sql, false),
            ("2024-01-31 10:15:00.000", "2024-01-31 10:15:00", .sql, true),
            ("2024-01-31 10:15:00.120", "2024-01-31 10:15:00.12", .sql, true),
            ("2024-01-31T10:15:00", "2024-01-31 10:15:00", .iso, false),
            ("2024-01-31T10:15:00.123456789", "2024-01-31 10:15:00.123456789", .iso, true),
            ("2024-01-31T10:15:00Z", "2024-01-31 10:15:00", .isoUTC, false),
            ("2024-01-31t10:15:00z", "2024-01-31 10:15:00", .isoUTC, false),
            ("2024-01-31 10:15:00 UTC", "2024-01-31 10:15:00", .isoUTC, false),
            ("2024-01-31T10:15:00.5Z", "2024-01-31 10:15:00.5", .isoUTC, true),
            ("2024-01-31T19:45:00+09:30", "2024-01-31 10:15:00", .isoOffset, false),
            ("2024-01-31T03:15:00-07:00", "2024-01-31 10:15:00", .isoOffset, false),
            ("2024-01-31T03:15:00-0700", "2024-01-31 10:15:00", .isoOffset, false),
            ("2024-01-31 03:15:00-07", "2024-01-31 10:15:00", .isoOffset, false),
            ("2024-01-31 10:15:00 +0000", "2024-01-31 10:15:00", .isoOffset, false),
            ("2024-01-01T01:00:00+02:00", "2023-12-31 23:00:00", .isoOffset, false),
            ("2024-01-31T03:15:00.250-07:00", "2024-01-31 10:15:00.25", .isoOffset, true),
            ("01/31/2024 10:15:00 AM", "2024-01-31 10:15:00", .us, false),
            ("1/5/2024 9:05:07 pm", "2024-01-05 21:05:07", .us, false),
            ("01/31/2024 12:00:00 AM", "2024-01-31 00:00:00", .us, false),
            ("01/31/2024 12:30:00 PM", "2024-01-31 12:30:00", .us, false),
            ("01/31/2024 22:15:00", "2024-01-31 22:15:00", .us, false),
            ("  2024-01-31 10:15:00 ", "2024-01-31 10:15:00", .sql, false),
            ("2024-02-29 23:59:59", "2024-02-29 23:59:59", .sql, false),
        ]
        for (text, normal, form, fraction) in cases {
            let parsed = try XCTUnwrap(Timestamp.parse(text), text)
            XCTAssertEqual(parsed.timestamp, Timestamp(normal), text)
            XCTAssertEqual(parsed.format, TimestampFormat(form, hasFraction: fraction), text)
            XCTAssertNotNil(parsed.timestamp.secondsSinceEpoch, text)
        }
    }

    /// Anything else is refused, and no number in the text can trap or escape its range.
    func test_parse_refusesEverythingElse_boundingEveryNumber() {
        for text in [
            "", " ", "yesterday", "2024-01-31", "2024-01-31 10:15", "10:15:00", "2024-1-31 10:15:00", "24-01-31 10:15:00",
            "99999-01-31 10:15:00", "0000-01-31 10:15:00", "2024-00-31 10:15:00", "2024-13-01 10:15:00",
            "2023-02-29 10:15:00", "2024-04-31 10:15:00", "2024-01-31 25:00:00", "2024-01-31 24:00:00",
            "2024-01-31 10:60:00", "2024-01-31 10:15:60", "2024-01-31 10:15:00.", "2024-01-31 10:15:00.1234567890",
            "2024-01-31T10:15:00+19:00", "2024-01-31T10:15:00+09:60", "2024-01-31T10:15:00+9", "2024-01-31T10:15:00 PST",
            "2024-01-31X10:15:00", "2024-01-31 10:15:00 junk", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00",
            "13/01/2024 10:15:00 AM", "01/32/2024 10:15:00", "01/31/2024 13:15:00 PM", "01/31/2024 00:15:00 AM",
            "01/31/24 10:15:00 AM", "01/31/2024 10:15 AM", "31.01.2024 10:15:00", "2024-01-31 10:15:00\u{0}",
            "２０２４-01-31 10:15:00", "9223372036854775807-01-01 00:00:00",
        ] {
            XCTAssertNil(Timestamp.parse(text), text)
        }
    }

    /// Normal form is checked, not rebuilt; what it accepts and refuses is what the general path does.
    func test_parse_normalFormIsTakenAsItIs_onlyWhenValid() throws {
        for text in ["2024-02-29 23:59:59", "0001-01-01 00:00:00", "9999-12-31 23:59:59", "2026-11-27 07:05:00"] {
            XCTAssertEqual(Timestamp.normalSQL(text)?.rawValue, text)
            XCTAssertEqual(Timestamp.parse(text)?.timestamp.rawValue, text)
            XCTAssertEqual(Timestamp.parse(text)?.format, TimestampFormat(.sql, hasFraction: false))
        }
        for text in ["2023-02-29 10:00:00", "2024-13-01 10:00:00", "2024-01-01 24:00:00", "0000-01-01 00:00:00",
                     "2024-01-01T10:00:00", "2024-01-0a 10:00:00", "+024-01-01 10:00:00", "2024-01-01 10:00:60"] {
            XCTAssertNil(Timestamp.normalSQL(text), text)
        }
        XCTAssertNil(Timestamp.parse("2023-02-29 10:00:00"), "no such day, whichever path")
    }

    func test_normalForm_ordersAsTheMomentsDo() throws {
        let texts = ["2024-01-31T10:15:00Z", "2024-01-31 10:15:00.25", "2024-01-31T19:45:00.5+09:30", "2024-01-31 10:15:01"]
        let stamps = try texts.map { try XCTUnwrap(Timestamp.parse($0)?.timestamp) }
        XCTAssertEqual(stamps, stamps.sorted())
        XCTAssertEqual(Set(stamps).count, 4)
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

    /// Issue 20, item 12: the sentence is what the journal's MESSAGE and the log line carry; a headline change of a
    /// 1,707-character headline printed it twice, a hostile one reached 43,398 characters in one line.
    func test_sentence_boundsEveryValue() {
        let long = String(repeating: "word ", count: 342)  // 1,710 characters
        let zalgo = "Z" + String(repeating: "\u{0301}", count: 200_000)
        let change = Change(record: RecordID("SAMPL00000001"), kind: .modified, headline: long, by: zalgo,
                            action: "Modify", changes: [FieldChange(field: "Headline", old: long, new: long),
                                                        FieldChange(field: zalgo, old: zalgo, new: zalgo)],
                            priority: long)
        XCTAssertLessThanOrEqual(change.sentence.count, 1_000, change.sentence)
        XCTAssertLessThanOrEqual(change.sentence.unicodeScalars.count, 4_000)
        XCTAssertLessThanOrEqual(change.fieldSummary.unicodeScalars.count, 2_000)
        XCTAssertTrue(change.sentence.hasPrefix("SAMPL00000001 modified by "), change.sentence)
    }
}

final class WatchQueriesTests: XCTestCase {
    func test_currentUser_isTheOwnerEveryAssignedRecordNames() {
        func record(_ id: String, owner: String) -> Record { Record(id: RecordID(id), fields: ["Owner": owner]) }
        XCTAssertEqual(WatchQueries.currentUser(in: [record("A", owner: "jdoe"), record("B", owner: "jdoe")]), "jdoe")
        XCTAssertNil(WatchQueries.currentUser(in: []), "no record says")
        XCTAssertNil(WatchQueries.currentUser(in: [record("A", owner: "")]))
        XCTAssertNil(WatchQueries.currentUser(in: [record("A", owner: "jdoe"), record("B", owner: "lead")]), "disagree")
    }

    func test_assignedQuery_filtersOnCurrentUserAndListsTheColumns() {
        let query = WatchQueries.assignedToMe
        XCTAssertEqual(query.filterNode.fieldFilters, [FieldFilter("Owner", .equal, ["[CURRENT_USER]"])])
        XCTAssertEqual(query.columns, ["id", "dbid", "Headline", "State", "Priority", "Severity", "Submitter", "Owner"])
    }

    func test_historyQuery_coversEveryActionByAnyoneSinceTheWindowStart() {
        let query = WatchQueries.historyOfMyRecords(since: Timestamp("2026-11-22 09:50:00"))
        XCTAssertEqual(query.filterNode.fieldFilters, [
            FieldFilter("Owner", .equal, ["[CURRENT_USER]"]),
            FieldFilter("history.action_timestamp", .greater, ["2026-11-22 09:50:00"]),
        ])
        XCTAssertFalse(query.filterNode.fieldFilters.contains { $0.fieldPath == "history.action_name" })
        XCTAssertEqual(WatchQueries.historyOfMyRecords(since: nil).filterNode.fieldFilters.count, 1)
    }

    func test_idOrderedBatch_sortsByIDFirst_andStartsAfterTheLastID() {
        let batch = WatchQueries.historyOfMyRecords(since: nil).inIDOrder(after: "SAMPL00000042")
        XCTAssertEqual(batch.queryFieldDefs.first { $0.fieldPathName == "id" }?.sortType, .ascending)
        XCTAssertEqual(batch.queryFieldDefs.first { $0.fieldPathName == "id" }?.sortOrder, 1)
        XCTAssertEqual(batch.queryFieldDefs.first { $0.fieldPathName == "history.action_timestamp" }?.sortOrder, 2)
        XCTAssertEqual(batch.filterNode.fieldFilters.last, FieldFilter("id", .greater, ["SAMPL00000042"]))
        var either = WatchQueries.assignedToMe
        either.filterNode.boolOp = .or
        let wrapped = either.inIDOrder(after: "A")
        XCTAssertEqual(wrapped.filterNode.boolOp, .and, "an OR filter is kept whole under the AND")
        XCTAssertEqual(wrapped.filterNode.childFilterNodes, [either.filterNode])
        XCTAssertEqual(WatchQueries.assignedToMe.inIDOrder(after: nil).filterNode, WatchQueries.assignedToMe.filterNode)
    }

    func test_rowsBecomeRecordsAndHistory() throws {
        let records = try WatchQueries.records(fromRows: [
            ["SAMPL00000001", "33554433", "Crash & <b>burn</b>", "Opened", "1-Resolve Immediately", "1-Critical", "admin", "engineer"],
        ])
        XCTAssertEqual(records[0].id, RecordID("SAMPL00000001"))
        XCTAssertEqual(records[0].headline, "Crash & <b>burn</b>")
        XCTAssertNil(records[0]["id"])
        let history = try WatchQueries.historyRows([
            ["SAMPL00000001", "Crash", "Resolve", "2026-11-22 10:00:00", "lead", "Opened", "Resolved"],
            ["SAMPL00000001", "Crash", "Resolve", "2026-11-22T19:30:00+09:30", "lead", "Opened", "Resolved"],
        ])
        XCTAssertEqual(history.entries[0].key, HistoryKey(record: RecordID("SAMPL00000001"), action: "Resolve",
                                                           timestamp: Timestamp("2026-11-22 10:00:00"), user: "lead"))
        XCTAssertEqual(history.entries[1].key, history.entries[0].key, "one moment, one key, whatever the form")
        XCTAssertEqual(history.formats, [TimestampFormat(.sql), TimestampFormat(.isoOffset)])
    }

    func test_unreadableTimestamp_namesTheValueAndTheRow() {
        XCTAssertThrowsError(try WatchQueries.historyRows([
            ["SAMPL00000001", "h", "Modify", "2026-11-22 10:00:00", "lead", "", ""],
            ["SAMPL00000002", "h", "Modify", "31.01.2024 10:15\u{1B}[2J", "lead", "", ""],
        ])) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix(#"history row 2 ("SAMPL00000002") has the timestamp "31.01.2024 10:15\u{1b}[2J""#), text)
            XCTAssertFalse(text.contains("\u{1B}"), "no raw escape reaches a terminal")
        }
    }

    func test_malformedRows_areRejected() {
        XCTAssertThrowsError(try WatchQueries.records(fromRows: [["SAMPL00000001", "1"]]))
        XCTAssertThrowsError(try WatchQueries.records(fromRows: [["", "1", "h", "s", "p", "s", "a", "o"]]))
        XCTAssertThrowsError(try WatchQueries.historyRows([["SAMPL1", "h", "Modify", "yesterday", "lead", "", ""]]))
    }
}
