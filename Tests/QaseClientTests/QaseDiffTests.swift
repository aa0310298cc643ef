@testable import QaseClient
import TrackwatchCore
import XCTest

/// The diff rules of a Qase source, table by table: what is reported, to whom it is attributed, and what stays
/// silent or untouched.
final class QaseDiffTests: XCTestCase {
    private let me = QaseMe(userID: 2, authorID: 3, uuid: "5A5E0000-0000-4000-8000-000000000003", name: "Eve Engineer")

    private func marker(_ code: String = "DEMO", title: String = "Demo Project") -> Record {
        QaseRecords.projectMarker(code, title: title, was: [])
    }

    private func defect(_ id: Int, _ code: String = "DEMO", status: String = "Open", title: String? = nil) -> Record {
        Record(
            id: QaseKey.defect(code, id),
            fields: [
                "Title": title ?? "Defect \(id)", "Status": status,
                "Severity": "3-Normal",
            ])
    }

    private func testCase(_ id: Int, _ code: String = "DEMO", title: String? = nil) -> Record {
        Record(id: QaseKey.testCase(code, id), fields: ["Title": title ?? "Case \(id)", "Status": "Actual"])
    }

    private func plan(_ id: Int, cases: String, _ code: String = "DEMO") -> Record {
        Record(
            id: QaseKey.plan(code, id), fields: ["Title": "Plan \(id)", "Your cases": cases, "updated_at": "t\(cases)"])
    }

    private func review(_ id: Int, status: String = "Open", verdicts: [String: String] = [:]) -> Record {
        var fields = ["Title": "Review \(id)", "Status": status]
        for (uuid, verdict) in verdicts { fields["verdict " + uuid] = verdict }
        return Record(id: QaseKey.review("DEMO", id), fields: fields)
    }

    private func observe(
        _ records: [Record], asked: [QaseSegment]? = nil, windowed: [QaseSegment] = [],
        renames: [String: String] = [:], editors: [RecordID: Int] = [:]
    ) -> QaseObservation {
        let codes = Set(records.compactMap { QaseKey.parse($0.id)?.segment.project })
        var observation = QaseObservation(
            records: records,
            asked: Set(asked ?? codes.flatMap { code in QaseItem.allCases.map { QaseSegment(code, $0) } }))
        observation.windowed = Set(windowed)
        observation.renames = renames
        observation.editors = editors
        return observation
    }

    private func assigned(_ previous: [Record]?, _ observation: QaseObservation) -> DiffOutcome {
        QaseDiff.compare(previous: previous.map { Snapshot($0) }, observation: observation, rule: .assigned)
    }

    private func mine(
        _ previous: [Record]?, _ observation: QaseObservation, excluded: Set<RecordID> = [],
        names: [String: String] = [:]
    ) -> DiffOutcome {
        QaseDiff.compare(
            previous: previous.map { Snapshot($0) }, observation: observation,
            rule: .mine(me: me, excluded: excluded, names: names))
    }

    private func summaries(_ outcome: DiffOutcome) -> [String] { outcome.changes.map(\.summary) }

    func test_firstPoll_isASilentBaseline() {
        let outcome = assigned(nil, observe([marker(), defect(1), plan(1, cases: "DEMO-1")]))
        XCTAssertTrue(outcome.isBaseline)
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.delta.upserts.count, 3)
    }

    func test_assigned_entersLeavesAndChanges() {
        let before = [marker(), defect(1), defect(2), plan(1, cases: "DEMO-1"), plan(2, cases: "")]
        let now = [marker(), defect(1, status: "Resolved"), defect(3), plan(1, cases: ""), plan(2, cases: "DEMO-5")]
        let outcome = assigned(before, observe(now))
        XCTAssertEqual(
            summaries(outcome),
            [
                "DEMO/defect/1 resolved", "DEMO/defect/3 assigned to you",
                "DEMO/plan/1 no longer assigned to you", "DEMO/plan/2 assigned to you",
                "DEMO/defect/2 no longer assigned to you",
            ])
        XCTAssertNil(outcome.changes[0].by, "Qase does not say who changed a defect")
        XCTAssertEqual(outcome.changes[0].changes, [FieldChange(field: "Status", old: "Open", new: "Resolved")])
        XCTAssertEqual(outcome.delta.removals, [QaseKey.defect("DEMO", 2)])
        // Qase's word for a defect's state is Status, in its changes and in the facts a bubble adds alike.
        XCTAssertEqual(
            NotificationPlan.single(outcome.changes[1], bodyMarkup: false).body
                .filter { !["\u{2068}", "\u{2069}"].contains($0) },
            "Assigned to you · Status: Open")
    }

    /// A case of a plan that holds one of mine already, newly assigned to me, is an assignment: the plan is
    /// assigned to me again, its cases shown (issue 27, item 10), never "changed" by nobody.
    func test_aPlanGainingACase_isAnAssignment_andAnUnrelatedPlanIsSilent() {
        let before = [marker(), plan(1, cases: "DEMO-1"), plan(2, cases: "")]
        var quiet = plan(2, cases: "")
        quiet.fields["updated_at"] = "later"
        let outcome = assigned(before, observe([marker(), plan(1, cases: "DEMO-1, DEMO-4"), quiet]))
        XCTAssertEqual(summaries(outcome), ["DEMO/plan/1 assigned to you"])
        XCTAssertEqual(outcome.changes[0].kind, .assigned)
        XCTAssertEqual(outcome.changes[0].headline, "Plan 1")
        XCTAssertEqual(
            outcome.changes[0].changes,
            [FieldChange(field: "Your cases", old: "DEMO-1", new: "DEMO-1, DEMO-4")])
        XCTAssertEqual(outcome.silentUpdates, 1)
    }

    /// Losing one of my cases while others stay, or one case swapped for another, are told as what they are.
    func test_aPlanLosingACase_isAChange_aSwapAnAssignment() {
        let before = [marker(), plan(1, cases: "DEMO-1, DEMO-4"), plan(2, cases: "DEMO-2")]
        let outcome = assigned(before, observe([marker(), plan(1, cases: "DEMO-1"), plan(2, cases: "DEMO-5")]))
        XCTAssertEqual(summaries(outcome), ["DEMO/plan/1 changed", "DEMO/plan/2 assigned to you"])
        XCTAssertEqual(outcome.changes.map(\.kind), [.modified, .assigned])
    }

    /// A part the server could not answer (QQL refused, reviews off) keeps its items: never a false "no longer
    /// assigned to you".
    func test_aPartNotAsked_keepsItsItems() {
        let before = [marker(), defect(1), review(1), plan(1, cases: "DEMO-1")]
        let asked = [QaseSegment("DEMO", .project), QaseSegment("DEMO", .plan)]
        let outcome = assigned(before, observe([marker(), plan(1, cases: "DEMO-1")], asked: asked))
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.delta.removals, [])
    }

    /// A project the token stops seeing is not asked: nothing of it leaves.
    func test_aProjectNotAsked_keepsItsItems() {
        let before = [marker(), marker("WEB", title: "Web Shop"), defect(1), defect(1, "WEB")]
        let outcome = assigned(before, observe([marker(), defect(1)]))
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.delta.removals, [])
    }

    func test_aNewProject_isASilentBaselineOfItsOwn() {
        let before = [marker(), defect(1)]
        let outcome = assigned(
            before, observe([marker(), defect(1), marker("WEB", title: "Web Shop"), defect(4, "WEB")]))
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(Set(outcome.delta.upserts.map(\.id.rawValue)), ["WEB/project", "WEB/defect/4"])
    }

    /// A renamed project: its items move to the new code, and only what really changed is reported.
    func test_aRenamedProject_movesItsItems_andReportsOnlyRealChanges() {
        let before = [marker(), defect(1), defect(2), plan(1, cases: "DEMO-1")]
        let now = [
            QaseRecords.projectMarker("SHOP", title: "Demo Project", was: ["DEMO"]), defect(1, "SHOP"),
            defect(2, "SHOP", status: "Resolved"), plan(1, cases: "SHOP-1", "SHOP"),
        ]
        let outcome = assigned(before, observe(now, renames: ["DEMO": "SHOP"]))
        XCTAssertEqual(summaries(outcome), ["SHOP/defect/2 resolved"], "the plan's case keys moved with it")
        XCTAssertEqual(
            Set(outcome.delta.removals.map(\.rawValue)),
            ["DEMO/project", "DEMO/defect/1", "DEMO/defect/2", "DEMO/plan/1"])
        XCTAssertEqual(
            Set(outcome.delta.upserts.map(\.id.rawValue)),
            ["SHOP/project", "SHOP/defect/1", "SHOP/defect/2", "SHOP/plan/1"])
    }

    func test_aRenamedProjectWhosePartsWereNotAsked_keepsThemUnderTheNewCode() {
        let before = [marker(), defect(1)]
        let now = [QaseRecords.projectMarker("SHOP", title: "Demo Project", was: ["DEMO"])]
        let outcome = assigned(before, observe(now, asked: [QaseSegment("SHOP", .project)], renames: ["DEMO": "SHOP"]))
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.delta.upserts.map(\.id.rawValue).sorted(), ["SHOP/defect/1", "SHOP/project"])
        XCTAssertEqual(outcome.delta.removals.map(\.rawValue).sorted(), ["DEMO/defect/1", "DEMO/project"])
    }

    // MARK: Mine

    func test_mine_myOwnEditIsSilent_aColleaguesIsNamed() {
        let before = [marker(), testCase(4), testCase(7)]
        let now = [marker(), testCase(4, title: "Changed by alice"), testCase(7, title: "Changed by me")]
        let outcome = mine(
            before, observe(now, editors: [QaseKey.testCase("DEMO", 4): 2, QaseKey.testCase("DEMO", 7): 3]),
            names: ["2": "Alice Example"])
        XCTAssertEqual(summaries(outcome), ["DEMO-4 edited by Alice Example"])
        XCTAssertEqual(outcome.silentUpdates, 1)
    }

    func test_mine_aDefectIsReportedWithoutAName() {
        let outcome = mine([marker(), defect(2)], observe([marker(), defect(2, status: "Invalid")]))
        XCTAssertEqual(summaries(outcome), ["DEMO/defect/2 marked invalid"])
        XCTAssertNil(outcome.changes[0].by)
    }

    func test_mine_reviewersVerdictsAreNamed() {
        let alice = "5a5e0000-0000-4000-8000-000000000002", lead = "5a5e0000-0000-4000-8000-000000000004"
        let before = [marker(), review(2, verdicts: [alice: "Unapproved", lead: "Unapproved"])]
        let names = [alice: "Alice Example", lead: "Lena Lead"]
        let approved = mine(
            before, observe([marker(), review(2, verdicts: [alice: "Approved", lead: "Unapproved"])]),
            names: names)
        XCTAssertEqual(summaries(approved), ["DEMO/review/2 approved by Alice Example"])
        XCTAssertEqual(
            approved.changes[0].changes,
            [
                FieldChange(field: "Verdict", old: "Unapproved", new: "Approved")
            ], "one reviewer: named once, by the sentence (issue 27, item 14)")
        let both = mine(
            before, observe([marker(), review(2, verdicts: [alice: "Approved", lead: "Changes requested"])]),
            names: names)
        XCTAssertEqual(summaries(both), ["DEMO/review/2 changed by Alice Example and Lena Lead"])
        XCTAssertEqual(both.changes[0].changes.map(\.field), ["Verdict of Alice Example", "Verdict of Lena Lead"])
        let merged = mine(
            before,
            observe([
                marker(),
                review(
                    2, status: "Merged",
                    verdicts: [
                        alice: "Unapproved",
                        lead: "Unapproved",
                    ]),
            ]))
        XCTAssertEqual(summaries(merged), ["DEMO/review/2 merged"])
    }

    func test_mine_itemsTheAssignedWatchReports_areSilentHere() {
        let outcome = mine(
            [marker(), defect(5)], observe([marker(), defect(5, status: "Resolved")]),
            excluded: [QaseKey.defect("DEMO", 5)])
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.delta.upserts.map(\.id), [QaseKey.defect("DEMO", 5)], "stored, so that it stays true")
    }

    /// A window shows only what was updated lately: an item missing from it is unchanged, not gone.
    func test_mine_aWindowedSegmentRemovesNothing_aWholeOneSilently() {
        let before = [marker(), testCase(1), testCase(4), review(2)]
        let windowed = [QaseSegment("DEMO", .testCase)]
        let outcome = mine(before, observe([marker(), testCase(4)], windowed: windowed))
        XCTAssertEqual(outcome.changes, [])
        XCTAssertEqual(outcome.delta.removals, [QaseKey.review("DEMO", 2)], "the reviews were read whole")
    }

    func test_namesNeeded_areEditorsOfChangedCasesAndReviewersWhoseVerdictChanged_neverMe() {
        let alice = "5a5e0000-0000-4000-8000-000000000002"
        let before = [marker(), testCase(4), testCase(7), testCase(10), review(2, verdicts: [alice: "Unapproved"])]
        let now = [
            marker(), testCase(4, title: "x"), testCase(7, title: "y"), testCase(10),
            review(2, verdicts: [alice: "Approved"]),
        ]
        let observation = observe(
            now,
            editors: [
                QaseKey.testCase("DEMO", 4): 2, QaseKey.testCase("DEMO", 7): 3,
                QaseKey.testCase("DEMO", 10): 4,
            ])
        XCTAssertEqual(
            QaseDiff.namesNeeded(previous: Snapshot(before), observation: observation, me: me), ["2", alice])
    }
}
