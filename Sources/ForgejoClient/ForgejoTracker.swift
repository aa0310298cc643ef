import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Forgejo, Gitea and Codeberg on the shared `ActivityPoller`: issues and pull requests assigned to me or opened by
/// me, pull requests awaiting my review, and for those that changed, their timelines and reviews.
///
/// Three searches (`/repos/issues/search`: assigned, created, review_requested) each poll: on a full read every
/// open item, read to `X-Total-Count` (a page is cut to 50 whatever `limit` asks); between full reads only what was
/// updated since the last poll (`since`, open or closed), one request each when quiet. What left my lists (unassigned,
/// a review submitted) is asked for by the poller's full read, item by item: 404 drops it silently.
final class ForgejoTracker: ActivityTracker {
    static let watch = "items"
    static let search = "/api/v1/repos/issues/search"

    let settings: ForgejoSettings
    let api: ForgejoAPI

    init(settings: ForgejoSettings, api: ForgejoAPI) {
        self.settings = settings
        self.api = api
    }

    var trackerName: String { "Forgejo" }
    func closeIdleConnections() { api.transport.closeIdleConnections() }

    func identify(_ memory: inout TrackerMemory) throws -> ActivityIdentity {
        let me = try api.decode(ForgejoUser.self, try api.get("/api/v1/user", name: "user"), name: "user")
        guard let id = me.id else { throw ForgejoError.invalidResponse(endpoint: "user", detail: "no id") }
        return ActivityIdentity(id: String(id), login: me.login ?? "", name: me.full_name ?? "")
    }

    func rules(me: ActivityIdentity) -> ActivityRules {
        ActivityRules(
            me: me.id, ignoreApps: settings.ignoreBots, comparedFields: ForgejoFields.compared,
            assignmentFields: ForgejoFields.assignment)
    }

    func baselineNote(assigned: Int) -> String {
        "Baseline: watching \(assigned) Forgejo issues and pull requests assigned to you or awaiting your review, and "
            + "those you opened; changes by others are reported from the next check on."
    }

    func readLists(_ poll: ActivityPoll, memory: inout TrackerMemory) throws -> ActivityLists<ForgejoIssue> {
        let full = poll.window.full
        var query = [("state", full ? "open" : "all")]
        if !full { query.append(("since", String(poll.window.since.rawValue.map { $0 == " " ? "T" : $0 }) + "Z")) }
        func search(_ filter: String, _ extra: [(String, String)] = []) throws -> [ForgejoIssue] {
            try api.all(ForgejoIssue.self, Self.search, [(filter, "true")] + extra + query, name: "search (\(filter))")
                .filter(watched)
        }
        let assigned = try search("assigned"), created = try search("created")
        let reviews = try search("review_requested", [("type", "pulls")])
        var lists = ActivityLists<ForgejoIssue>()
        lists.reviewRequests = Set(reviews.map { String($0.id) })
        for issue in assigned + created + reviews { lists.mine[String(issue.id)] = issue }
        return lists
    }

    func watched(_ issue: ForgejoIssue) -> Bool {
        guard let repos = settings.repos else { return true }
        return issue.repository?.full_name.map { repos.contains($0.lowercased()) } ?? false
    }

    /// Stored items by their reference: 404 (deleted, or no longer readable) is gone.
    func lookUp(
        _ ids: [String], _ poll: ActivityPoll, lists: inout ActivityLists<ForgejoIssue>
    ) throws -> [String: ItemLookup<ForgejoIssue>] {
        var answers: [String: ItemLookup<ForgejoIssue>] = [:]
        let me = Int64(poll.me.id)
        for id in ids {
            guard let key = poll.stored[id]?.id, let reference = ForgejoReference(key.rawValue) else { continue }
            do {
                let path = "/api/v1/repos/\(reference.repo)/issues/\(reference.index)"
                let issue = try api.decode(ForgejoIssue.self, try api.get(path, name: "issue"), name: "issue")
                let mine =
                    (issue.assignees ?? []).contains { $0.id == me } || issue.user?.id == me
                    || lists.reviewRequests.contains(id)
                answers[id] = .found(issue, isMine: mine && (!poll.window.full || issue.state == "open"))
            } catch ForgejoError.server(404, _, _) {
                answers[id] = .gone(status: 404)
            }
        }
        return answers
    }

    func item(_ issue: ForgejoIssue, id: String, isMine: Bool, reviewRequested: Bool, _ poll: ActivityPoll)
        -> ActivityItem?
    {
        ForgejoMapping(me: poll.me.id, web: settings.url).item(
            issue, id: id, isMine: isMine, reviewRequested: reviewRequested)
    }

    /// Each moved item's timeline and, for a pull request, its reviews (the verdicts the timeline does not give).
    /// A server without a timeline (before Gitea 1.17: a 404) gives none: differences are told without a name.
    func logs(of changed: [(item: ActivityItem, source: ForgejoIssue)], _ poll: ActivityPoll) throws -> [String:
        ItemLog]
    {
        let mapping = ForgejoMapping(me: poll.me.id, web: settings.url)
        var logs: [String: ItemLog] = [:]
        for (item, issue) in changed {
            guard let reference = issue.reference else { continue }
            let base = "/api/v1/repos/\(reference.repo)"
            var events: [ActivityEvent] = []
            do {
                let timeline = try api.all(
                    ForgejoComment.self, "\(base)/issues/\(reference.index)/timeline", [], name: "timeline")
                events += timeline.compactMap { mapping.event($0, item: item.id) }
            } catch ForgejoError.server(404, _, _) {}
            if issue.isPull {
                let reviews = try api.all(
                    ForgejoReview.self, "\(base)/pulls/\(reference.index)/reviews", [], name: "reviews")
                events += reviews.compactMap { mapping.review($0, item: item.id) }
            }
            logs[item.id] = ItemLog(events: events)
        }
        return logs
    }
}
