import TrackwatchCore

// What GitHub, GitLab and Forgejo send and store alike: labels by name, milestones by title, repositories by full
// name, the fields of an issue or a pull (merge) request, their `since` times and their probe routes.

/// A label (or a team) by its name.
public struct ForgeLabel: Decodable, Sendable {
    public var name: String?
    public init(name: String?) { self.name = name }
}

/// A milestone by its title.
public struct ForgeMilestone: Decodable, Sendable {
    public var title: String?
    public init(title: String?) { self.title = title }
}

/// A repository by its `owner/name`.
public struct ForgeRepository: Decodable, Sendable {
    public var full_name: String?
}

/// An issue or a pull request as GitHub and Forgejo send it (lists, searches, one item), its people in the forge's
/// own `User`. Its labels are bounded (`FirstValues`): a hostile answer's thousands are not decoded.
public struct ForgeIssue<User: Decodable>: Decodable {
    /// Set on a pull request: GitHub says when it was merged, Forgejo whether.
    public struct PullRequest: Decodable { public var merged_at: String?, merged: Bool? }

    public var id: Int64
    public var number: Int
    public var title: String?
    public var state: String?
    public var user: User?
    public var assignees: [User]?
    public var labels: FirstValues<ForgeLabel>?
    public var milestone: ForgeMilestone?
    public var updated_at: String?
    /// GitHub's `https://api.github.com/repos/acme/web`.
    public var repository_url: String?
    public var repository: ForgeRepository?
    public var pull_request: PullRequest?

    public var isPullRequest: Bool { pull_request != nil }
}

/// A person as a forge's issues name them.
public protocol ForgeUser: Decodable {
    var id: Int64? { get }
    var login: String? { get }
}

extension ForgeIssue where User: ForgeUser {
    /// The issue or pull request as one of my items, alike on GitHub and Forgejo: assigned to me where `me` (my user
    /// id) is among its assignees; its page `web/owner/name/issues/42`, a pull request's under `pulls`.
    public func item(
        _ reference: ForgeReference, id: String, me: String?, isMine: Bool, reviewRequested: Bool, web: String,
        pulls: String
    ) -> ActivityItem {
        let merged = pull_request?.merged == true || pull_request?.merged_at != nil
        let state = merged ? "merged" : SafeText.oneLine(self.state ?? "", limit: 20)
        var values: [String: String] = [
            ForgeFields.title: SafeText.oneLine(title ?? "", limit: 500), ForgeFields.state: state,
            ForgeFields.assignees: SafeText.list((assignees ?? []).compactMap(\.login), limit: 60),
            ForgeFields.labels: SafeText.list(
                labels?.values.compactMap(\.name) ?? [], limit: 60, isCut: labels?.isCut ?? false),
            ForgeFields.milestone: SafeText.oneLine(milestone?.title ?? "", limit: 100),
            ForgeFields.type: isPullRequest ? "Pull request" : "Issue",
            ActivityFields.reviewRequested: reviewRequested ? "yes" : "no",
        ]
        if let updated = ServerTime.parse(updated_at) { values[ActivityFields.updated] = updated.rawValue }
        let assigned = (assignees ?? []).contains { $0.id.map(String.init) == me }
        return ActivityItem(
            id: id, record: Record(id: RecordID(reference.key), fields: values),
            isAssignedToMe: assigned || reviewRequested, isMine: isMine,
            facts: ItemFacts(
                headline: values[ForgeFields.title] ?? "", state: state,
                link: "\(web)/\(reference.repo)/\(isPullRequest ? pulls : "issues")/\(reference.number)"))
    }
}

/// The fields an issue or a pull (merge) request is stored and reported with, named alike in every forge.
public enum ForgeFields {
    public static let title = "Title", state = "State", assignees = "Assignees", labels = "Labels"
    public static let milestone = "Milestone", reviewRequest = "Review request", type = "Type", comment = "Comment"
    public static let review = "Review"

    /// Compared where no log says who changed them.
    public static let compared = [title, state, assignees, labels, milestone]
    /// The fields whose events say who gave me an item or took it away.
    public static let assignment: Set<String> = [assignees, reviewRequest]
}

extension ServerTime {
    /// `2026-01-17T12:34:56Z`: what a forge's `since` and `updated_after` take.
    public static func iso(_ timestamp: Timestamp) -> String {
        timestamp.rawValue.replacing(" ", with: "T").prefix(19) + "Z"
    }
}

extension ForgeRepo {
    /// How a probe's transcript names a forge's routes: `/repos/acme/web/issues/42/timeline` →
    /// `/repos/{owner}/{repo}/issues/{number}/timeline` (`number` names the numbers; `/repos/issues/search` is no
    /// repository).
    @Sendable public static func route(_ path: String, number: String) -> String {
        var segments = path.split(separator: "/").map(String.init)
        if let repos = segments.firstIndex(of: "repos"), repos + 2 < segments.count, segments[repos + 1] != "issues" {
            segments[repos + 1] = "{owner}"
            segments[repos + 2] = "{repo}"
        }
        return "/" + segments.map { $0.allSatisfy(\.isNumber) ? number : $0 }.joined(separator: "/")
    }
}

/// A forge's table: a mute lifts when the state, the assignees or a review request change.
public protocol ForgeSettings: TrackerSettings {}

extension ForgeSettings {
    public var ownerAndStateFields: [String] { [ForgeFields.state, ForgeFields.assignees, ForgeFields.reviewRequest] }
}

extension ActivityRules {
    /// A forge's rules: my events silent, its bots' too where `ignoreBots`; `compared` compared, and assignees and
    /// review requests assigning.
    public static func forge(
        me: ActivityIdentity, ignoreBots: Bool, compared: [String] = ForgeFields.compared,
        shownValues: [String: [String: String]] = [:]
    ) -> ActivityRules {
        ActivityRules(
            me: me.id, ignoreApps: ignoreBots, comparedFields: compared, assignmentFields: ForgeFields.assignment,
            shownValues: shownValues)
    }
}
