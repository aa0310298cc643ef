import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// GitLab as the application wires it: `[[gitlab]]` tables become `GitLabTracker`s on the shared poller; `doctor` and `probe` survey them.
public struct GitLabFactory: SourceFactory {
    /// The largest answer accepted: a page of 100 items or notes; 16 MB leaves each 160 kB.
    public static let maximumBodySize = 16 * 1024 * 1024

    public init() {}

    public var kind: any SourceKind { GitLabSourceKind() }

    public func makeSource(_ settings: any SourceSettings, context: SourceContext) throws -> (any Source)? {
        guard let gitlab = settings as? GitLabSettings else { return nil }
        let logger = context.logger.forSource(gitlab.name)
        gitlab.connection.warnings(logger: logger)
        let budget = ReadBudget(bytes: ReadBudget.activityPoll)
        let api = try Self.api(
            gitlab, token: try gitlab.credential.headerToken(context.secret, what: "the GitLab token"), environment: context.environment,
            logger: logger, wrap: { context.wrap(BudgetTransport($0, budget: budget)) })
        return ActivityPoller(
            tracker: GitLabTracker(settings: gitlab, api: api, logger: logger), settings: gitlab,
            watch: GitLabTracker.watch, context: context, logger: logger, budget: budget)
    }

    public func diagnose(_ settings: any SourceSettings, context: DiagnosisContext) -> DoctorReport? {
        guard let gitlab = settings as? GitLabSettings else { return nil }
        var report = DoctorReport()
        if ServerURL.isCleartextToAnotherHost(gitlab.url) { report.warn("\(gitlab.url): \(Connection.cleartextWarning)") }
        guard
            let token = report.check(
                "token of [[gitlab]] \(gitlab.name) (\(gitlab.credential.summary))",
                { try gitlab.credential.headerToken(context.secret, what: "the GitLab token") },
                fix: "put a personal access token with the read_api scope alone on the first line of that file "
                    + "(GitLab, Preferences, Access tokens)")
        else {
            report.skip("GitLab at \(gitlab.url) (needs the token)")
            return report
        }
        guard
            let api = report.check(
                "GitLab at \(gitlab.url)",
                { try Self.api(gitlab, token: token, environment: context.environment, logger: context.logger.forSource(gitlab.name)) },
                fix: "check url, ca_file, insecure and proxy in [[gitlab]] \(gitlab.name)")
        else { return report }
        defer { api.transport.closeIdleConnections() }
        report.append(survey: GitLabSurvey(settings: gitlab, api: api).run(), fix: "check [[gitlab]] \(gitlab.name)")
        if gitlab.insecure { report.warn("TLS verification is off (insecure = true); prefer ca_file") }
        return report
    }

    public func probe(
        _ settings: any SourceSettings, context: DiagnosisContext, transcript: Bool
    ) throws -> (any SourceProbe)? {
        guard let gitlab = settings as? GitLabSettings else { return nil }
        let recorder = ExchangeTranscript(label: "gitlab", recording: transcript, shape: GitLabSurvey.route)
        let api = try Self.api(
            gitlab, token: try gitlab.credential.headerToken(context.secret, what: "the GitLab token"), environment: context.environment,
            logger: context.logger.forSource(gitlab.name), wrap: { recorder.wrapping($0) })
        let survey = GitLabSurvey(settings: gitlab, api: api)
        return SurveyProbe(survey: survey.run, recorder: recorder)
    }

    static func api(
        _ gitlab: GitLabSettings, token: Secret, environment: [String: String], logger: Logger,
        wrap: (any HTTPTransport) -> any HTTPTransport = { $0 }
    ) throws -> GitLabAPI {
        let http = try gitlab.connection.transport(
            environment: environment, table: "[[gitlab]] \(gitlab.name)", label: gitlab.name, logger: logger,
            maximumBodySize: maximumBodySize)
        return GitLabAPI(base: gitlab.api, token: token, transport: wrap(http), timeout: gitlab.requestTimeout)
    }
}

/// What `doctor` and `probe` ask GitLab, read-only: who the token is, what a poll will read, what the server has.
struct GitLabSurvey {
    let settings: GitLabSettings
    let api: GitLabAPI

    func run() -> ProbeReport {
        var findings = ProbeReport()
        do {
            let me = try api.get(GitLabUser.self, .user)
            findings.add(.pass, "signed in as \(me.actor?.name ?? "?") (id \(me.id.map(String.init) ?? "?"))")
            for path in settings.projects ?? [] {
                do {
                    _ = try api.get(GitLabErrorBody.self, .project(path: path))
                    findings.add(.pass, "project \(path) is visible")
                } catch GitLabError.server(let status, _, _) where status == 404 || status == 403 {
                    findings.add(.fail, "\(GitLabError.projectUnavailable(path: path, status: status))",
                                 then: "check projects in [[gitlab]] \(settings.name), or ask for access")
                }
            }
            let assigned = try api.get(
                [GitLabItem].self, .issues, [("scope", "assigned_to_me"), ("state", "opened"), ("per_page", "100")])
            findings.add(.pass, "\(assigned.count)\(assigned.count == 100 ? "+" : "") open issues assigned to you")
            if let first = assigned.first, let project = first.project_id {
                do {
                    _ = try api.get(
                        [GitLabResourceEvent].self,
                        .resourceEvents(project: project, iid: first.iid, mergeRequest: false, kind: "label"))
                    findings.add(.pass, "resource events can be read (who changed labels, state and milestone)")
                } catch GitLabError.server(404, _, _) {
                    findings.add(
                        .warn, "this GitLab has no resource events",
                        then: "state, label and milestone changes are read from its notes instead")
                }
            }
            let reviews = try api.get(
                [GitLabItem].self, .mergeRequests,
                [("scope", "all"), ("reviewer_id", String(me.id ?? 0)), ("state", "opened"), ("per_page", "1")])
            if let first = reviews.first, first.reviewers == nil {
                findings.add(.warn, "this GitLab has no reviewers (it answers merge requests unfiltered)",
                             then: "review requests are not reported; assignments and changes are")
            } else {
                findings.add(.pass, "merge requests awaiting your review can be read")
            }
            findings.add(.pass, "a steady poll with nothing changed costs 5 requests (GitLab has no filter for "
                + "\"assigned or authored\"); items that changed add their notes and resource events")
        } catch {
            findings.add(.fail, "\(error)", then: fix(for: error))
            findings.stoppedBy = error
        }
        return findings
    }

    private func fix(for error: any Error) -> String {
        switch error as? GitLabError {
        case .tokenRejected: "make a new personal access token with read_api and put it in the \(settings.credential.summary) of [[gitlab]] \(settings.name)"
        case .rateLimited: "wait: GitLab limits this token for a while; trackwatch backs off by itself"
        default: "check url in [[gitlab]] \(settings.name): your GitLab without /api/v4"
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
