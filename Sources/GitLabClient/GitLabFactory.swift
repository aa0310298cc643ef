import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// GitLab as the application wires it: `[[gitlab]]` tables become `GitLabTracker`s on the shared poller; `doctor` and `probe` survey them.
public struct GitLabFactory: ActivityTrackerFactory {
    public init() {}

    public var kind: any SourceKind { GitLabSourceKind() }
    public static var route: @Sendable (String) -> String { GitLabTracker.route }

    public func secretFix(_ settings: GitLabSettings) -> String {
        "put a personal access token with the read_api scope alone on the first line of that file (GitLab, "
            + "Preferences, Access tokens)"
    }

    public func session(
        _ settings: GitLabSettings, secret: Secret, transport: any HTTPTransport, logger: Logger
    ) -> TrackerSession {
        let api = GitLabAPI(
            base: settings.api, token: secret, transport: transport, timeout: settings.requestTimeout,
            skipped: SkippedItems(tracker: "GitLab", logger: logger))
        let tracker = GitLabTracker(settings: settings, api: api, logger: logger)
        return TrackerSession(tracker: tracker, survey: tracker.survey)
    }
}

/// What `doctor` and `probe` ask GitLab, read-only: who the token is, what a poll will read, what the server has.
extension GitLabTracker {
    func survey() -> ProbeReport {
        .survey(fix: fix(for:)) { findings in
            let me = try api.get(GitLabUser.self, .user)
            let login = me.actor?.login.map { "@\($0), " } ?? ""
            findings.add(.pass, "signed in as \(me.actor?.name ?? "?") (\(login)id \(me.id.map(String.init) ?? "?"))")
            for path in gitlab.projects ?? [] {
                do {
                    _ = try api.get(APIErrorBody.self, .project(path: path))
                    findings.add(.pass, "project \(path) is visible")
                } catch GitLabError.server(let status, _, _) where status == 404 || status == 403 {
                    findings.add(.fail, "\(GitLabError.projectUnavailable(name: path, status: status))",
                                 then: "check projects in \(gitlab.tableName), or ask for access")
                }
            }
            let assigned = try api.get(
                LossyList<GitLabItem>.self, .issues, [("scope", "assigned_to_me"), ("state", "opened"), ("per_page", "100")]
            ).elements
            findings.add(.pass, "\(assigned.count)\(assigned.count == 100 ? "+" : "") open issues assigned to you")
            if let first = assigned.first, let project = first.project_id {
                do {
                    _ = try api.get(
                        LossyList<GitLabResourceEvent>.self,
                        .resourceEvents(project: project, iid: first.iid, mergeRequest: false, kind: "label"))
                    findings.add(.pass, "resource events can be read (who changed labels, state and milestone)")
                } catch GitLabError.server(404, _, _) {
                    findings.add(
                        .warn, "this GitLab has no resource events",
                        then: "state, label and milestone changes are read from its notes instead")
                }
            }
            let reviews = try api.get(
                LossyList<GitLabItem>.self, .mergeRequests,
                [("scope", "all"), ("reviewer_id", String(me.id ?? 0)), ("state", "opened"), ("per_page", "1")]
            ).elements
            if let first = reviews.first, first.reviewers == nil {
                findings.add(.warn, "this GitLab has no reviewers (it answers merge requests unfiltered)",
                             then: "review requests are not reported; assignments and changes are")
            } else {
                findings.add(.pass, "merge requests awaiting your review can be read")
            }
            findings.add(.pass, "a steady poll with nothing changed costs 5 requests (GitLab has no filter for "
                + "\"assigned or authored\"); items that changed add their notes and resource events")
        }
    }

    private func fix(for error: any Error) -> String {
        switch error as? GitLabError {
        case .tokenRejected: "make a new personal access token with read_api and put it in the \(gitlab.credential.summary) of \(gitlab.tableName)"
        case .rateLimited: "wait: GitLab limits this token for a while; trackwatch backs off by itself"
        default: "check url in \(gitlab.tableName): your GitLab without /api/v4"
        }
    }

    /// `/api/v4/projects/12/issues/42/notes` → `/api/v4/projects/{id}/issues/{iid}/notes`.
    @Sendable static func route(_ path: String) -> String {
        var segments = path.split(separator: "/").map(String.init)
        for index in segments.indices where index > 0 {
            if segments[index - 1] == "projects" { segments[index] = "{id}" }
            if ["issues", "merge_requests"].contains(segments[index - 1]), segments[index].allSatisfy(\.isNumber) {
                segments[index] = "{iid}"
            }
        }
        return "/" + segments.joined(separator: "/")
    }
}
