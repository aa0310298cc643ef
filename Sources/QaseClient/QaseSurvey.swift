import Logging
import SourceKit
import TrackwatchCore

/// What `doctor` and `probe` find out about a Qase server, read-only, with the daemon's own client: is the token
/// accepted, who "me" is, which projects are watched, and which parts of the watch the server can answer —
/// QQL, `assignee` on defects, reviews, filter names, paging — each with what trackwatch does about it.
struct QaseSurvey {
    /// The findings, and what ended the survey early (an unreachable server, a refused token, a rate limit).
    typealias Outcome = ProbeReport

    let settings: QaseSettings
    let api: QaseAPI
    let logger: Logger

    func run() async -> Outcome {
        var outcome = Outcome()
        do {
            try await survey(&outcome)
        } catch {
            outcome.add(.fail, "\(error)", then: Self.fix(error))
            outcome.stoppedBy = error
        }
        return outcome
    }

    private func survey(_ outcome: inout Outcome) async throws {
        let people = QasePeople(api: api, email: settings.email)
        let me = try await people.resolveMe()
        outcome.add(
            .pass, "the token is accepted; \(settings.email) is \(me.name) (user \(me.userID), author \(me.authorID))")
        let questions = QaseQuestions(api: api, logger: logger)
        let visible = try await questions.visibleProjects()
        var plan = QaseProjectPlan(configured: settings.projects, visible: visible, known: [])
        for code in plan.missing {
            do {
                await plan.targets.append(try questions.project(code: code))
            } catch let error as QaseError {
                guard case .projectUnavailable = error else { throw error }
                outcome.add(.fail, "\(error)", then: "correct projects in [[qase]] \(settings.name)")
            }
        }
        let names = plan.targets.prefix(8).map { "\($0.code) (\($0.title))" }.joined(separator: ", ")
        let more = plan.targets.count > 8 ? " and \(plan.targets.count - 8) more" : ""
        outcome.add(
            plan.targets.isEmpty ? .warn : .pass,
            "watching \(plan.targets.count) of the \(visible.count) projects the token can see: \(names)\(more)",
            then: plan.targets.isEmpty ? "nothing to watch: ask for access to a project" : nil)
        guard let first = plan.targets.first else { return }
        try await surveyQQL(first.code, &outcome)
        for project in plan.targets.prefix(20) { try await surveyReviews(project.code, me: me, &outcome) }
        try await surveyPaging(&outcome)
        // Per project: the assigned defects, the plan list, two review lists, two QQL searches; and the project
        // list and one plan read in turn (docs/performance.md).
        outcome.add(.pass, "\(api.requestCount) requests; a steady poll sends about \(2 + 6 * plan.targets.count)")
    }

    /// QQL at all, then `assignee` on defects.
    private func surveyQQL(_ code: String, _ outcome: inout Outcome) async throws {
        do {
            try await sample(["search"], [("query", QQLQuery.mine(.testCase, code, days: 1))], "search")
            outcome.add(.pass, "QQL search works (your test cases, and who edited them last)")
        } catch QaseError.server(let status, let message, _, _) where status == 402 || status == 403 {
            outcome.add(
                .warn, "QQL search is refused (HTTP \(status)\(message.isEmpty ? "" : ": \(message)"))",
                then: "not watched: \(QaseQuestions.unavailableWithoutQQL). Plan assignments, reviews and "
                    + "your defects are (QQL needs Qase's Business or Enterprise plan)")
            return
        }
        do {
            try await sample(["search"], [("query", QQLQuery.assignedDefects(code))], "search")
            outcome.add(.pass, "QQL finds defects by assignee")
        } catch QaseError.server(400, let message, _, _) {
            outcome.add(
                .warn, "QQL rejects assignee on defects (HTTP 400\(message.isEmpty ? "" : ": \(message)"))",
                then: "defects assigned to you are not watched; everything else is")
        }
    }

    /// Reviews in `code`, and whether the server reads the filter names trackwatch sends.
    private func surveyReviews(_ code: String, me: QaseMe, _ outcome: inout Outcome) async throws {
        let reviews: EntityPage<WireReview>
        do {
            reviews = try await api.get(
                ["review", code], [("reviewer_uuid", me.uuid), ("limit", "100")], endpoint: "review list")
        } catch QaseError.server(let status, let message, _, _) where [402, 403, 404].contains(status) {
            outcome.add(
                .warn, "test-case reviews are off in \(code) (HTTP \(status)\(message.isEmpty ? "" : ": \(message)"))",
                then: "reviews of \(code) are not watched")
            return
        }
        if reviews.entities.contains(where: { !QaseQuestions.reviewer(me)($0) }) {
            outcome.add(
                .warn, "Qase ignores filters named like reviewer_uuid= in \(code)",
                then: "trackwatch checks every item itself and sends filters[name]= instead")
        } else {
            outcome.add(.pass, "test-case reviews in \(code): \(reviews.entities.count) waiting on you or done")
        }
    }

    /// A page larger than Qase allows: refused (the spec) or cut to 100 (a clamping server).
    private func surveyPaging(_ outcome: inout Outcome) async throws {
        do {
            let page: EntityPage<WireProject> = try await api.get(["project"], [("limit", "101")], endpoint: "project list")
            outcome.add(
                .pass,
                "paging: limit above 100 is cut to \(page.entities.count) items, not refused; trackwatch "
                    + "asks for at most 100 and reads on until every item arrived")
        } catch QaseError.server(400, _, _, _) {
            outcome.add(.pass, "paging: limit above 100 is refused; trackwatch asks for at most 100")
        }
    }

    private func sample(_ path: [String], _ query: [(String, String)], _ endpoint: String) async throws {
        let _: EntityPage<IgnoredEntity> = try await api.get(path, query + [("limit", "1")], endpoint: endpoint)
    }

    static func fix(_ error: any Error) -> String {
        switch error {
        case QaseError.rateLimited(let seconds):
            "try again in \(QaseError.wholeSeconds(seconds ?? 60)) s; other tools with the same token share its limit"
        case let failure as any SourceFailure where failure.failureKind.remedy == .fixConfiguration:
            "correct [[qase]] as the message says"
        case let failure as any SourceFailure where failure.failureKind.remedy == .fixCredentials:
            "put a valid personal API token in the token source of [[qase]]"
        default: (error as? any SourceFailure)?.failureKind.fix(table: "[[qase]]") ?? "run trackwatch doctor again, with -v"
        }
    }
}

/// An item whose fields do not matter, only that the list decodes.
struct IgnoredEntity: Decodable {}
