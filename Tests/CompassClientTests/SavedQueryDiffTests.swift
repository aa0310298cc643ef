@testable import CompassClient
import TrackwatchCore
import XCTest

/// A watched saved query: rows to records, and which differences each rule reports.
final class SavedQueryDiffTests: XCTestCase {
    private let path = WorkspacePath("Public Queries/Team P1s")!
    private let columns = ["id", "dbid", "Headline", "State", "Owner", "Priority"]

    private func record(_ n: Int, state: String = "Opened", owner: String = "alice", headline: String? = nil) -> Record {
        Record(id: RecordID("SAMPL0000000\(n)"), fields: [
            "dbid": "3355443\(n)", "Headline": headline ?? "Crash \(n)", "State": state, "Owner": owner,
            "Priority": "1-Resolve Immediately",
        ])
    }

    private func watch(_ rule: WatchRule, fields: [String]? = nil) -> WatchConfig {
        WatchConfig(name: "Team P1s", query: path, fields: fields, rule: rule)
    }

    private func compare(_ old: [Record]?, _ new: [Record], _ watch: WatchConfig) throws -> DiffOutcome {
        SavedQueryDiff.compare(previous: old.map(Snapshot.init), records: new, watch: watch,
                               comparedFields: try SavedQueryRows.comparedFields(watch, columns: columns))
    }

    func test_rowsBecomeRecordsKeyedByTheIdColumn_wherever_itIs() throws {
        let records = try SavedQueryRows.records(
            columns: ["Headline", "id", "State"], rows: [["Crash", "SAMPL00000001", "Opened"]], query: path)
        XCTAssertEqual(records, [Record(id: RecordID("SAMPL00000001"), fields: ["Headline": "Crash", "State": "Opened"])])
    }

    func test_rowErrors_sayWhatToFix() {
        XCTAssertThrowsError(try SavedQueryRows.records(columns: ["Headline"], rows: [], query: path)) {
            XCTAssertTrue("\($0)".contains("has no id column (it shows Headline); add the field id"), "\($0)")
        }
        XCTAssertThrowsError(try SavedQueryRows.records(columns: ["id", "State"], rows: [["SAMPL1"]], query: path)) {
            XCTAssertTrue("\($0)".contains("1 values for 2 columns"), "\($0)")
        }
        XCTAssertThrowsError(try SavedQueryRows.records(columns: ["id"], rows: [[""]], query: path)) {
            XCTAssertTrue("\($0)".contains("empty id"), "\($0)")
        }
        XCTAssertThrowsError(try SavedQueryRows.comparedFields(watch(.changes, fields: ["State", "Severity"]), columns: columns)) {
            XCTAssertTrue("\($0)".contains("fields lists Severity, which Public Queries/Team P1s does not show"), "\($0)")
        }
        XCTAssertEqual(try SavedQueryRows.comparedFields(watch(.changes), columns: columns), ["Headline", "State", "Owner", "Priority"])
    }

    func test_firstPoll_isASilentBaseline() throws {
        let outcome = try compare(nil, [record(2), record(1)], watch(.changes))
        XCTAssertTrue(outcome.isBaseline)
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.delta.upserts.map(\.id.rawValue), ["SAMPL00000001", "SAMPL00000002"])
    }

    func test_changesRule_reportsEntriesExitsAndComparedFieldChanges() throws {
        let outcome = try compare([record(1), record(2), record(3)],
                                  [record(1, state: "Resolved"), record(3, headline: "Renamed"), record(4)], watch(.changes, fields: ["State"]))
        XCTAssertEqual(outcome.changes.map { "\($0.kind.rawValue) \($0.record)" },
                       ["changed SAMPL00000001", "entered SAMPL00000004", "left SAMPL00000002"])
        XCTAssertEqual(outcome.changes[0].changes, [FieldChange(field: "State", old: "Opened", new: "Resolved")])
        XCTAssertEqual(outcome.changes[0].watch, "Team P1s")
        XCTAssertEqual(outcome.changes[2].headline, "Crash 2", "an exit carries the last headline seen")
        // The headline change is not compared, but stored so that the snapshot stays true.
        XCTAssertEqual(outcome.delta.upserts.map(\.id.rawValue), ["SAMPL00000001", "SAMPL00000003", "SAMPL00000004"])
        XCTAssertEqual(outcome.delta.removals, [RecordID("SAMPL00000002")])
        XCTAssertEqual(outcome.silentUpdates, 1)
    }

    func test_entriesAndExitsRule_ignoresFieldChanges() throws {
        let outcome = try compare([record(1), record(2)], [record(1, owner: "lead"), record(3)], watch(.entriesAndExits))
        XCTAssertEqual(outcome.changes.map(\.kind), [.entered, .left])
        XCTAssertEqual(outcome.delta.upserts.map(\.id.rawValue), ["SAMPL00000001", "SAMPL00000003"])
    }

    func test_entriesRule_reportsOnlyEntries_butStillForgetsExits() throws {
        let outcome = try compare([record(1), record(2)], [record(1, state: "Resolved"), record(3)], watch(.entries))
        XCTAssertEqual(outcome.changes.map(\.kind), [.entered])
        XCTAssertEqual(outcome.delta.removals, [RecordID("SAMPL00000002")])
    }

    func test_unchanged_isNothing() throws {
        let outcome = try compare([record(1)], [record(1)], watch(.changes))
        XCTAssertTrue(outcome.changes.isEmpty && outcome.delta.isEmpty)
    }

    func test_sentences_andMuteRules() {
        let entered = Change(record: RecordID("SAMPL00000004"), kind: .entered, headline: "Crash", priority: "1-Resolve Immediately",
                             watch: "Team P1s")
        XCTAssertEqual(entered.sentence, "SAMPL00000004 now in Team P1s: Crash [1-Resolve Immediately]")
        let left = Change(record: RecordID("SAMPL00000002"), kind: .left, headline: "Crash", watch: "Team P1s")
        XCTAssertEqual(left.summary, "SAMPL00000002 no longer in Team P1s")
        let changed = Change(record: RecordID("SAMPL00000001"), kind: .changed, headline: "Crash",
                             changes: [FieldChange(field: "State", old: "Opened", new: "Resolved")], watch: "Team P1s")
        XCTAssertEqual(changed.sentence, "SAMPL00000001 changed in Team P1s: Crash (State: Opened → Resolved)")

        let rules = BubbleRules()
        XCTAssertTrue(rules.verdict(for: changed, muted: true, minuteOfDay: 600) == (.show, true), "a State change lifts a mute")
        XCTAssertTrue(rules.verdict(for: entered, muted: true, minuteOfDay: 600) == (.journalOnly, false),
                      "entering a watched query does not")
        XCTAssertTrue(rules.verdict(for: left, muted: false, minuteOfDay: 600) == (.show, false))
    }
}
