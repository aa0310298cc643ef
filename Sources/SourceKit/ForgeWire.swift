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
