import Foundation
@testable import QaseClient
import TrackwatchCore
import XCTest

/// One item becomes one record whatever form the server sends it in: ids and enums as numbers or strings, slugs
/// or labels, extra fields, `null`s. Otherwise a server switching forms would report every item as changed.
final class QaseRecordsTests: XCTestCase {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    func test_aDefect_inEveryFormTheServerMaySend_isOneRecord() throws {
        let forms = [
            #"""
            {"id": 7, "title": "Crash", "status": "in_progress", "severity": "critical", "milestone_id": 2,
             "author_id": 3, "tags": [{"title": "b"}, {"title": "a"}]}
            """#,
            #"""
            {"id": "7", "title": "Crash", "status": 1, "severity": 2, "milestone_id": "2", "author_id": "3",
             "tags": [{"title": "a", "internal_id": 9}, {"title": "b"}]}
            """#,
            #"""
            {"id": 7, "defect_id": 7, "title": "Crash", "status": "In progress", "severity": "2", "milestone_id": 2,
             "resolved": null, "tags": [{"title": "b"}, {"title": "a"}], "custom_fields": [],
             "sim_future_object": {"nested": [1, "two", null, {"deep": true}]}}
            """#,
        ]
        let records = try forms.map { QaseRecords.defect(try decode(WireDefect.self, $0), project: "DEMO") }
        XCTAssertEqual(
            records[0].fields,
            [
                "Title": "Crash", "Status": "In progress", "Severity": "1-Critical",
                "Milestone": "2", "Tags": "a, b",
            ])
        XCTAssertEqual(records[1], records[0])
        XCTAssertEqual(records[2], records[0])
        XCTAssertEqual(records[0].id.rawValue, "DEMO/defect/7")
    }

    /// An enum's every spelling keeps the raw value it had when numbers were tried before text: digits (spaces
    /// ignored, leading zeros) are their integer, anything else is lower-cased text.
    func test_anEnum_isReadAsItsIntegerOrItsText_whicheverFormItCameIn() throws {
        let forms: [(String, String)] = [
            ("2", "2"), ("2.0", "2"), (#""2""#, "2"), (#"" 2""#, "2"), (#""02""#, "2"), (#""-5""#, "-5"),
            (#""In Progress""#, "in progress"), (#""1234567890123456""#, "1234567890123456"),
            (#""9999999999999""#, "9999999999999"), (#""""#, ""),
        ]
        for (json, raw) in forms {
            XCTAssertEqual(try decode([LenientEnum].self, "[\(json)]").first?.raw, raw, json)
        }
        for json in ["-1", "true", "2.5", "{}"] {
            XCTAssertThrowsError(try decode([LenientEnum].self, "[\(json)]"), json)
        }
    }

    /// Labels as people read them, from slugs, labels and codes alike; text with combining marks is read by
    /// characters (`_` with an accent is no underscore).
    func test_enumLabels_fromEverySpelling() {
        let labels: [(String, String?)] = [
            ("in_progress", "In progress"), ("in progress", "In progress"), ("1", "In progress"), ("open", "Open"),
            ("a-b_c d", "A b c d"), ("ÿ_x-y", "Ÿ x y"), ("_\u{301}x", "_\u{301}x"), ("undefined", nil), ("", nil),
        ]
        for (raw, label) in labels {
            XCTAssertEqual(QaseEnums.label(LenientEnum(raw), in: QaseEnums.defectStatuses), label, raw)
        }
    }

    func test_aTestCase_withIntegerOrStringEnums_isOneRecord() throws {
        let ints = #"""
            {"id": 4, "title": "Login", "status": 1, "severity": 4, "priority": 1, "type": 2, "behavior": 1,
             "milestone_id": null, "suite_id": 3, "author_id": 3, "updated_by": 4, "tags": [],
             "custom_fields": [{"id": 1, "value": "x"}, {"id": 2, "value": null}]}
            """#
        let strings = #"""
            {"id": "4", "title": "Login", "status": "1", "severity": "4", "priority": "1", "type": "2",
             "behavior": "1", "suite_id": "3", "author_id": "3", "updated_by": "4",
             "custom_fields": [{"id": "1", "value": "x"}]}
            """#
        let first = QaseRecords.testCase(try decode(WireCase.self, ints), project: "DEMO")
        XCTAssertEqual(
            first.fields,
            [
                "Title": "Login", "Status": "Draft", "Severity": "3-Normal", "Priority": "2-High",
                "Type": "Smoke", "Behavior": "Positive", "Suite": "3", "Custom field 1": "x",
            ])
        XCTAssertEqual(QaseRecords.testCase(try decode(WireCase.self, strings), project: "DEMO"), first)
    }

    func test_severitiesAndPriorities_carryTheLevelTheRulesJudgeBy() {
        let severities = ["blocker", "critical", "major", "normal", "minor", "trivial", "undefined", "0", "1", "6"]
        XCTAssertEqual(
            severities.map { QaseEnums.severity(LenientEnum($0)) },
            [
                "1-Blocker", "1-Critical", "2-Major", "3-Normal", "4-Minor", "5-Trivial", nil, nil, "1-Blocker",
                "5-Trivial",
            ])
        XCTAssertEqual(
            ["high", "medium", "low", "undefined", "1", "3"].map { QaseEnums.priority(LenientEnum($0)) },
            ["2-High", "3-Medium", "4-Low", nil, "2-High", "4-Low"])
        // A blocker defect assigned to me is a critical bubble; a high-priority case is not.
        let blocker = Change(record: RecordID("DEMO/defect/1"), kind: .assigned, headline: "", severity: "1-Blocker")
        XCTAssertEqual(NotificationPlan.criticalReason(blocker), "Severity 1-Blocker")
        let high = Change(record: RecordID("DEMO-1"), kind: .assigned, headline: "", priority: "2-High")
        XCTAssertNil(NotificationPlan.criticalReason(high))
        func verdict(_ severity: String) -> BubbleRules.Verdict {
            BubbleRules(minSeverity: 2).verdict(
                for: Change(record: RecordID("DEMO/defect/1"), kind: .modified, headline: "", severity: severity),
                muted: false, minuteOfDay: 0
            ).0
        }
        XCTAssertEqual(verdict("2-Major"), .show, "min_severity = 2: major and above")
        XCTAssertEqual(verdict("3-Normal"), .journalOnly)
    }

    func test_numbers_areBoundedBeforeUse() {
        for json in [
            #"{"id": -1}"#, #"{"id": 1e30}"#, #"{"id": "99999999999999999999"}"#, #"{"id": 1.5}"#,
            #"{"id": "seven"}"#, #"{"id": true}"#,
        ] {
            XCTAssertThrowsError(try decode(WireDefect.self, json), json)
        }
        XCTAssertEqual(try decode(WireDefect.self, #"{"id": 7.0}"#).id.value, 7)
    }

    func test_aPlan_keepsMyCasesOnly_byUserID() throws {
        let plan = try decode(WirePlan.self, #"{"id": 3, "title": "Smoke", "cases_count": 3, "updated_at": "t"}"#)
        let detail = try decode(
            WirePlanDetail.self,
            #"""
            {"id": 3, "cases": [{"case_id": 9, "assignee_id": 2}, {"case_id": 4, "assignee_id": "2"},
                                {"case_id": 5, "assignee_id": 3}, {"case_id": 6, "assignee_id": null}]}
            """#
        )
        let record = QaseRecords.plan(plan, cases: detail.cases ?? [], user: 2, project: "DEMO")
        XCTAssertEqual(record["Your cases"], "DEMO-4, DEMO-9")
        XCTAssertTrue(QaseRecords.isAssigned(record))
        XCTAssertFalse(QaseRecords.isAssigned(QaseRecords.plan(plan, cases: [], user: 2, project: "DEMO")))
    }
}
