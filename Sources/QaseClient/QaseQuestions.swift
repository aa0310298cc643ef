import Logging
import TrackwatchCore

/// The questions a Qase source asks each poll (qase-api.md §9), and what the server turned out to support: QQL
/// (Business and Enterprise plans only), `assignee` on defects in QQL (unverified), test-case reviews (newer,
/// and off in some projects), and which filter names it reads. A part the server cannot answer is left out of
/// the observation, so that its items keep what they had.
final class QaseQuestions {
    enum QQL: Equatable { case unknown, available, refused(status: Int) }

    let api: QaseAPI
    private let logger: Logger
    /// Reset each poll: a workspace that upgrades its plan gets QQL back without a restart.
    private(set) var qql = QQL.unknown
    private var qqlLogged = QQL.unknown
    /// Turned off, for the process, when the server answers `assignee` on defects with 400.
    private(set) var defectAssignee = true
    /// Projects whose reviews the server refused in this poll, with the status; logged when that changes.
    private(set) var reviewsRefused: [String: Int] = [:]
    private var reviewsRefusedLogged: [String: Int] = [:]

    init(api: QaseAPI, logger: Logger) {
        self.api = api
        self.logger = logger
    }

    /// Forgets what this poll learned about QQL and reviews, which a server may change between polls.
    func startPoll() {
        api.startPoll()
        qql = .unknown
        reviewsRefused = [:]
    }

    // MARK: Projects

    /// Every project the token can see.
    func visibleProjects() async throws -> [QaseProject] {
        let projects: [WireProject] = try await api.list(["project"], endpoint: "project list")
        return try projects.map { try project($0, endpoint: "project list") }
    }

    /// A project the listing lacks: the server's own answer says why (403: no access, 404: no such project).
    func project(code: String) async throws -> QaseProject {
        do {
            let wire: WireProject = try await api.get(["project", code], endpoint: "project")
            return try project(wire, endpoint: "project")
        } catch QaseError.server(let status, let message, _, _) where status == 403 || status == 404 {
            throw QaseError.projectUnavailable(code: code, status: status, message: message)
        }
    }

    private func project(_ wire: WireProject, endpoint: String) throws -> QaseProject {
        guard QaseProjectCode.isValid(wire.code.text) else {
            throw QaseError.invalidResponse(
                endpoint: endpoint, detail: "a project code that is not 1 to 20 letters or digits")
        }
        return QaseProject(code: wire.code.text.uppercased(), title: wire.title?.text ?? "")
    }

    // MARK: QQL

    /// The items a QQL query finds, or `nil` when the server offers no QQL (402/403 on `/search`).
    func search<Entity: Decodable>(_ query: String, endpoint: String, reuse: Bool = false) async throws -> [Entity]? {
        if case .refused = qql { return nil }
        do {
            let found: [Entity] = try await api.search(query, endpoint: endpoint, reuse: reuse)
            qql = .available
            logTransition()
            return found
        } catch QaseError.server(let status, _, _, _) where status == 402 || status == 403 {
            qql = .refused(status: status)
            logTransition()
            return nil
        }
    }

    private func logTransition() {
        guard qql != qqlLogged else { return }
        if case .refused(let status) = qql {
            logger.warning(
                "Qase refuses QQL search; watching plan assignments, reviews and your defects only",
                metadata: ["status": "\(status)", "unavailable": "\(Self.unavailableWithoutQQL)"])
        } else if case .refused = qqlLogged {
            logger.notice("Qase answers QQL search again; every part is watched")
        }
        qqlLogged = qql
    }

    /// What cannot be watched without QQL, for the log, `doctor` and `probe`.
    static let unavailableWithoutQQL =
        "defects assigned to you, and changes to your test cases (without QQL Qase does "
        + "not say who made them, and your own edits would be reported)"

    /// Defects assigned to me in `code`, or `nil` when the server cannot say (no QQL, or no `assignee` on defects).
    func assignedDefects(_ code: String) async throws -> [WireDefect]? {
        guard defectAssignee else { return nil }
        do {
            // Read whole each poll, and mostly the same bytes as the last time: pages that are are not decoded.
            return try await search(
                QQLQuery.assignedDefects(code), endpoint: "search for defects assigned to you", reuse: true)
        } catch QaseError.server(400, let message, _, _) {
            defectAssignee = false
            logger.warning(
                "Qase's QQL does not accept assignee on defects; defects assigned to you are not watched",
                metadata: ["project": "\(code)", "message": "\(message)"])
            return nil
        }
    }

    // MARK: Reviews

    /// `code`'s reviews with `filter` = me, checked on the client (a server that ignores the filter name sends
    /// them all); `nil` when reviews are off there (402, 403, 404).
    func reviews(
        _ code: String, filter: String, me: QaseMe, endpoint: String,
        keep: (WireReview) -> Bool
    ) async throws -> [WireReview]? {
        if reviewsRefused[code] != nil { return nil }
        let all: [WireReview]
        do {
            all = try await api.list(["review", code], filters: [(filter, me.uuid)], endpoint: endpoint)
        } catch QaseError.server(let status, let message, _, _) where [402, 403, 404].contains(status) {
            reviewsRefused[code] = status
            if reviewsRefusedLogged[code] != status {
                logger.warning(
                    "Qase refuses test-case reviews in this project; its reviews are not watched",
                    metadata: ["project": "\(code)", "status": "\(status)", "message": "\(message)"])
            }
            reviewsRefusedLogged[code] = status
            return nil
        }
        if reviewsRefusedLogged.removeValue(forKey: code) != nil {
            logger.notice("Qase answers test-case reviews in this project again", metadata: ["project": "\(code)"])
        }
        let kept = all.filter(keep)
        if kept.count < all.count, api.filterStyle == .flat {
            api.filterStyle = .bracketed
            logger.notice(
                "Qase ignored the filter \(filter)=; sending filters as filters[name]= from now on",
                metadata: ["project": "\(code)"])
        }
        return kept
    }

    static func reviewer(_ me: QaseMe) -> (WireReview) -> Bool {
        { review in (review.reviewers ?? []).contains { $0.authorUUID.text.lowercased() == me.uuid } }
    }

    static func author(_ me: QaseMe) -> (WireReview) -> Bool {
        { review in review.authorUUID?.text.lowercased() == me.uuid }
    }
}

/// The QQL queries, one project each (QQL entities carry no project code, qase-api.md §8). Codes are checked
/// letters and digits (`QaseProjectCode`), so nothing from the server can change a query's meaning.
enum QQLQuery {
    static func assignedDefects(_ code: String) -> String {
        "entity = \"defect\" and project = \"\(code)\" and assignee = currentUser() order by id asc"
    }

    /// My cases or defects: all of them, or (`days`) those updated within the last days by the server's clock.
    static func mine(_ entity: QaseItem, _ code: String, days: Int?) -> String {
        let window = days.map { " and updated >= now(\"-\($0)d\")" } ?? ""
        return "entity = \"\(entity.rawValue)\" and project = \"\(code)\" and author = currentUser()\(window) "
            + "order by id asc"
    }
}
