import TrackwatchCore

/// Reads what one watch of a Qase source sees, project by project, into one `QaseObservation`: the items, and
/// which segments were read whole, read through a window, or not at all.
struct QaseObservers {
    let questions: QaseQuestions
    var api: QaseAPI { questions.api }

    // MARK: Assigned to me

    /// Defects assigned to me (QQL), plans with cases assigned to me, reviews waiting on me. `previous` (already
    /// under renamed codes) spares re-reading plans that did not change; `refresh` names plans read anyway.
    func assigned(
        _ projects: [QaseProject], me: QaseMe, previous: Snapshot?,
        refresh: (String, Int) -> Bool
    ) async throws -> QaseObservation {
        var observation = QaseObservation(records: [], asked: [])
        for project in projects {
            let code = project.code
            observation.records.append(project.marker)
            observation.asked.insert(QaseSegment(code, .project))
            if let defects = try await questions.assignedDefects(code) {
                observation.records += defects.map { QaseRecords.defect($0, project: code) }
                observation.asked.insert(QaseSegment(code, .defect))
            }
            await observation.records += try plans(code, me: me, previous: previous, refresh: refresh)
            observation.asked.insert(QaseSegment(code, .plan))
            if let reviews = try await questions.reviews(
                code, filter: "reviewer_uuid", me: me, endpoint: "reviews waiting on you",
                keep: QaseQuestions.reviewer(me))
            {
                observation.records += reviews.map { QaseRecords.review($0, project: code, verdicts: false) }
                observation.asked.insert(QaseSegment(code, .review))
            }
        }
        return observation
    }

    /// Every plan of `code`, each with my cases in it. A plan is read in full (`GET /plan/{code}/{id}`) when it is
    /// new, when its `updated_at` or case count moved, or when `refresh` picks it (whether an assignment moves
    /// `updated_at` is not documented); otherwise my cases are what they were.
    private func plans(_ code: String, me: QaseMe, previous: Snapshot?, refresh: (String, Int) -> Bool) async throws
        -> [Record]
    {
        let plans: [WirePlan] = try await api.list(["plan", code], endpoint: "plan list")
        var records: [Record] = []
        records.reserveCapacity(plans.count)
        for plan in plans {
            let id = plan.id.value
            let known = previous?.record(QaseKey.plan(code, id))
            if let known, !refresh(code, id), known[QaseFields.planUpdated] == plan.updatedAt?.text,
                known[QaseFields.planCaseCount] == plan.casesCount.map({ String($0.value) })
            {
                records.append(QaseRecords.plan(plan, yourCases: known[QaseFields.yourCases] ?? "", project: code))
                continue
            }
            let detail: WirePlanDetail = try await api.get(["plan", code, String(id)], endpoint: "plan")
            records.append(QaseRecords.plan(plan, cases: detail.cases ?? [], user: me.userID, project: code))
        }
        return records
    }

    /// The plans of `projects` in the order `refresh` walks them.
    static func planOrder(_ snapshot: Snapshot?) -> [RecordID] {
        (snapshot?.sortedRecords ?? []).map(\.id).filter { QaseKey.parse($0)?.segment.item == .plan }
    }

    // MARK: Mine

    /// My cases and defects (QQL; without it, my defects from the full defect list) and my reviews. A project
    /// the watch knows is read through a window of `days` back (`nil`: in full); a new one in full.
    func mine(_ projects: [QaseProject], me: QaseMe, known: Set<String>, days: Int?) async throws -> QaseObservation {
        var observation = QaseObservation(records: [], asked: [])
        for project in projects {
            let code = project.code
            let window = known.contains(code) ? days : nil  // nil: read in full
            observation.records.append(project.marker)
            observation.asked.insert(QaseSegment(code, .project))
            func note(_ item: QaseItem, windowed: Bool) {
                observation.asked.insert(QaseSegment(code, item))
                if windowed { observation.windowed.insert(QaseSegment(code, item)) }
            }
            let caseQuery = QQLQuery.mine(.testCase, code, days: window)
            if let cases: [WireCase] = try await questions.search(caseQuery, endpoint: "search for your test cases") {
                for wire in cases where wire.authorID?.value == me.authorID {
                    let record = QaseRecords.testCase(wire, project: code)
                    observation.records.append(record)
                    observation.editors[record.id] = wire.updatedBy?.value
                }
                note(.testCase, windowed: window != nil)
            }
            let defectQuery = QQLQuery.mine(.defect, code, days: window)
            if let defects: [WireDefect] = try await questions.search(defectQuery, endpoint: "search for your defects") {
                observation.records += defects.filter { $0.authorID?.value == me.authorID }
                    .map { QaseRecords.defect($0, project: code) }
                note(.defect, windowed: window != nil)
            } else {
                // No QQL: every defect of the project, mine picked out here.
                let defects: [WireDefect] = try await api.list(["defect", code], endpoint: "defect list")
                observation.records += defects.filter { $0.authorID?.value == me.authorID }
                    .map { QaseRecords.defect($0, project: code) }
                note(.defect, windowed: false)
            }
            if let reviews = try await questions.reviews(
                code, filter: "author_uuid", me: me, endpoint: "your reviews",
                keep: QaseQuestions.author(me))
            {
                observation.records += reviews.map { QaseRecords.review($0, project: code, verdicts: true) }
                note(.review, windowed: false)
            }
        }
        return observation
    }
}
