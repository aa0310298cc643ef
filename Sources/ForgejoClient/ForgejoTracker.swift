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
final class ForgejoTracker: SurveyedTracker {
    static let search = "/api/v1/repos/issues/search"
    /// Memory: `ignored` where the server answers `review_requested` unfiltered (before Gitea 1.14).
    static let reviewFilterKey = "forgejo_review_filter"

    let settings: ForgejoSettings
    let api: ForgejoAPI
    /// Set once a timeline answered the router's plain-text 404 (before Gitea 1.17): comments are read instead.
    private var noTimeline = false
    /// Items whose review request went because I reviewed (asked in this poll's look-ups): no one took them away.
    private var reviewedByMe = Set<String>()

    init(settings: ForgejoSettings, api: ForgejoAPI) {
        self.settings = settings
        self.api = api
    }

    /// Who I am, and whether the server honours `review_requested`: one that does finds no issue awaiting a review.
    func identify(_ memory: inout TrackerMemory) async throws -> ActivityIdentity {
        let me = try await api.get(ForgejoUser.self, "/api/v1/user", name: "user")
        guard let id = me.id else { throw ForgejoError.invalidResponse(endpoint: "user", detail: "no id") }
        await memory.set(Self.reviewFilterKey, try Self.honoursReviewFilter(api) ? nil : "ignored")
        return ActivityIdentity(id: String(id), login: me.login ?? "", name: me.full_name ?? "")
    }

    /// `review_requested=true&type=issues` finds nothing on a server that knows the filter; an older one ignores it
    /// and answers every open issue.
    static func honoursReviewFilter(_ api: ForgejoAPI) async throws -> Bool {
        let query = [("review_requested", "true"), ("type", "issues"), ("state", "open"), ("limit", "1")]
        let response = try await api.get(search, query, name: "search (review_requested)")
        if let total = response.header("X-Total-Count").flatMap({ Int($0.prefix(9)) }) { return total <= 0 }
        let page = try api.decode(LossyList<ForgejoIssue>.self, response, name: "search")
        return page.sent == 0
    }

    func rules(me: ActivityIdentity) -> ActivityRules { .forge(me: me, ignoreBots: settings.ignoreBots) }

    let watching = "Forgejo issues and pull requests assigned to you or awaiting your review, and those you opened"

    func readLists(_ poll: ActivityPoll, memory: inout TrackerMemory) async throws -> ActivityLists<ForgejoIssue> {
        reviewedByMe = []
        let full = poll.window.full
        var query = [("state", full ? "open" : "all")]
        if !full { query.append(("since", ServerTime.iso(poll.window.since))) }
        func search(_ filter: String, _ extra: [(String, String)] = []) async throws -> [ForgejoIssue] {
            try await api.all(ForgejoIssue.self, Self.search, [(filter, "true")] + extra + query, name: "search (\(filter))")
                .elements.filter(watched)
        }
        let assigned = try await search("assigned"), created = try await search("created")
        // A server that ignores the filter would answer others' pull requests: no review requests from it.
        var reviews: [ForgejoIssue] = []
        if try memory.value(Self.reviewFilterKey) == nil {
            reviews = try await search("review_requested", [("type", "pulls")])
        }
        var lists = ActivityLists<ForgejoIssue>()
        lists.reviewRequests = Set(reviews.map { String($0.id) })
        for issue in assigned + created + reviews { lists.mine[String(issue.id)] = issue }
        return lists
    }

    func watched(_ issue: ForgejoIssue) -> Bool { WatchedPaths.include(settings.repos, issue.repository?.full_name) }

    /// Stored items by their reference (a renamed repository's 307 followed): 404 — deleted, or a repository gone or
    /// no longer readable — is gone. A pull request whose review request went is asked whether I reviewed it.
    func lookUp(
        _ ids: [String], _ poll: ActivityPoll, lists: inout ActivityLists<ForgejoIssue>
    ) async throws -> [String: ItemLookup<ForgejoIssue>] {
        var answers: [String: ItemLookup<ForgejoIssue>] = [:]
        let me = Int64(poll.me.id)
        for id in ids {
            guard let stored = poll.stored[id], let reference = ForgejoReference(stored.id.rawValue) else { continue }
            do {
                // An answer that is the item but cannot be read (an unusable number) leaves it unanswered: kept.
                guard let issue = try await api.get(LossyItem<ForgejoIssue>.self, reference.path(), name: "issue").value
                else { continue }
                let mine =
                    (issue.assignees ?? []).contains { $0.id == me } || issue.user?.id == me
                    || lists.reviewRequests.contains(id)
                if issue.isPullRequest, stored[ActivityFields.reviewRequested] == "yes",
                    !lists.reviewRequests.contains(id), let now = issue.reference,
                    try await reviewed(now, by: me, since: stored[ActivityFields.updated].map(Timestamp.init))
                {
                    reviewedByMe.insert(id)
                }
                answers[id] = .found(issue, isMine: mine && (!poll.window.full || issue.state == "open"))
            } catch ForgejoError.server(404, _, _) {
                answers[id] = .gone(status: 404)
            }
        }
        return answers
    }

    /// Whether `me` submitted a review of the pull request since `since`: that removes the request without a word.
    private func reviewed(_ reference: ForgejoReference, by me: Int64?, since: Timestamp?) async throws -> Bool {
        let reviews = try await api.all(ForgejoReview.self, reference.path("pulls", "/reviews"), [], name: "reviews")
        return reviews.elements.contains { review in
            guard review.user?.id == me, review.verdict != nil, let at = ServerTime.parse(review.submitted_at) else {
                return false
            }
            return since.map { at >= $0 } ?? true
        }
    }

    /// A review request that ended with my own review still counts as mine in this poll: what others did before is
    /// `modified`, never "unassigned" by them; the item then leaves.
    func item(_ issue: ForgejoIssue, id: String, isMine: Bool, reviewRequested: Bool, _ poll: ActivityPoll)
        -> ActivityItem?
    {
        ForgejoMapping(me: poll.me.id, web: settings.url).item(
            issue, id: id, isMine: isMine, reviewRequested: reviewRequested || reviewedByMe.contains(id))
    }

    /// Each moved item's timeline and, for a pull request, its reviews (the verdicts the timeline does not give).
    /// A server without a timeline (before Gitea 1.17: the router's plain-text 404) gives its comments, named, and the
    /// other differences unnamed.
    func logs(of changed: [(item: ActivityItem, source: ForgejoIssue)], _ poll: ActivityPoll) async throws -> [String:
        ItemLog]
    {
        let mapping = ForgejoMapping(me: poll.me.id, web: settings.url)
        var logs: [String: ItemLog] = [:]
        for (item, issue) in changed {
            guard let reference = issue.reference else { continue }
            var events: [ActivityEvent] = [], skipped = 0
            // Entries since the stored state (each bumps the item's `updated_at`); a new item's since the window.
            let since = poll.stored[item.id]?[ActivityFields.updated].map(Timestamp.init) ?? poll.window.since
            let query = [("since", ServerTime.iso(since))]
            do {
                if !noTimeline {
                    let timeline = try await api.all(
                        ForgejoComment.self, reference.path("issues", "/timeline"), query, name: "timeline")
                    events += timeline.elements.compactMap { mapping.event($0, item: item.id) }
                    skipped += timeline.skipped
                }
            } catch ForgejoError.server(404, let message, _) where message.isEmpty {
                noTimeline = true  // the router's plain text, not the API's JSON 404
            } catch ForgejoError.server(404, _, _) {
                continue  // gone since the search: the next full read asks for it
            }
            if noTimeline {
                let comments = try await api.all(
                    ForgejoComment.self, reference.path("issues", "/comments"), query, name: "comments")
                events += comments.elements.compactMap { mapping.event($0, item: item.id, type: "comment") }
                skipped += comments.skipped
                events += mapping.differences(from: poll.stored[item.id], to: item, at: poll.window.started)
            }
            if issue.isPullRequest {
                let reviews = try await api.all(
                    ForgejoReview.self, reference.path("pulls", "/reviews"), [], name: "reviews")
                events += reviews.elements.compactMap { mapping.review($0, item: item.id) }
                skipped += reviews.skipped
            }
            logs[item.id] = ItemLog(events: events, skipped: skipped)
        }
        return logs
    }
}
