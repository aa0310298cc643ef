import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// GitHub as the application wires it: `[[github]]` tables become `GitHubTracker`s on the shared poller; `doctor` and `probe` survey them.
public struct GitHubFactory: SourceFactory {
    /// The largest answer accepted: a page of 100 issues or timeline items; 16 MB leaves each 160 kB.
    public static let maximumBodySize = 16 * 1024 * 1024

    public init() {}

    public var kind: any SourceKind { GitHubSourceKind() }

    public func makeSource(_ settings: any SourceSettings, context: SourceContext) throws -> (any Source)? {
        guard let github = settings as? GitHubSettings else { return nil }
        let logger = context.logger.forSource(github.name)
        github.connection.warnings(logger: logger)
        let budget = ReadBudget(bytes: ReadBudget.activityPoll)
        let api = try Self.api(
            github, token: try github.credential.headerToken(context.secret, what: "the GitHub token"), environment: context.environment,
            logger: logger, wrap: { context.wrap(BudgetTransport($0, budget: budget)) })
        return ActivityPoller(
            tracker: GitHubTracker(settings: github, api: api, logger: logger), settings: github,
            watch: GitHubTracker.watch, context: context, logger: logger, budget: budget)
    }

    public func diagnose(_ settings: any SourceSettings, context: DiagnosisContext) -> DoctorReport? {
        guard let github = settings as? GitHubSettings else { return nil }
        var report = DoctorReport()
        if ServerURL.isCleartextToAnotherHost(github.url) { report.warn("\(github.url): \(Connection.cleartextWarning)") }
        guard
            let token = report.check(
                "token of [[github]] \(github.name) (\(github.credential.summary))",
                { try github.credential.headerToken(context.secret, what: "the GitHub token") },
                fix: "put a personal access token alone on the first line of that file (GitHub, Settings, Developer "
                    + "settings, Personal access tokens)")
        else {
            report.skip("GitHub at \(github.url) (needs the token)")
            return report
        }
        guard
            let api = report.check(
                "GitHub at \(github.url)",
                {
                    try Self.api(
                        github, token: token, environment: context.environment,
                        logger: context.logger.forSource(github.name))
                }, fix: "check url, ca_file, insecure and proxy in [[github]] \(github.name)")
        else { return report }
        defer { api.transport.closeIdleConnections() }
        report.append(survey: GitHubSurvey(settings: github, api: api).run(), fix: "check [[github]] \(github.name)")
        if github.insecure { report.warn("TLS verification is off (insecure = true); prefer ca_file") }
        return report
    }

    public func probe(
        _ settings: any SourceSettings, context: DiagnosisContext, transcript: Bool
    ) throws -> (any SourceProbe)? {
        guard let github = settings as? GitHubSettings else { return nil }
        let recorder = ExchangeTranscript(label: "github", recording: transcript, shape: GitHubSurvey.route)
        let api = try Self.api(
            github, token: try github.credential.headerToken(context.secret, what: "the GitHub token"), environment: context.environment,
            logger: context.logger.forSource(github.name), wrap: { recorder.wrapping($0) })
        let survey = GitHubSurvey(settings: github, api: api)
        return SurveyProbe(survey: survey.run, recorder: recorder)
    }

    static func api(
        _ github: GitHubSettings, token: Secret, environment: [String: String], logger: Logger,
        wrap: (any HTTPTransport) -> any HTTPTransport = { $0 }
    ) throws -> GitHubAPI {
        let http = try github.connection.transport(
            environment: environment, table: "[[github]] \(github.name)", label: github.name, logger: logger,
            maximumBodySize: maximumBodySize)
        return GitHubAPI(base: github.url, token: token, transport: wrap(http), timeout: github.requestTimeout, logger: logger)
    }
}

/// What `doctor` and `probe` ask GitHub, read-only: who the token is, what it may read, what a poll will read.
struct GitHubSurvey {
    let settings: GitHubSettings
    let api: GitHubAPI

    func run() -> ProbeReport {
        var findings = ProbeReport()
        do {
            let answer = try api.get(.user)
            let me = try api.decode(GitHubUser.self, answer, .user)
            findings.add(.pass, "signed in as \(me.actor?.name ?? "?") (id \(me.id.map(String.init) ?? "?"))")
            if let scopes = answer.response.header("X-OAuth-Scopes").map({ SafeText.oneLine(String($0.prefix(200))) }) {
                let list = scopes.split(separator: ",").map { $0.trimmingSpaces }
                if list.contains("repo") {
                    findings.add(.pass, "a classic token with the repo scope")
                } else {
                    findings.add(
                        .warn, "a classic token without the repo scope (it has: \(scopes.isEmpty ? "none" : scopes))",
                        then: "private repositories' issues stay unseen; add the repo scope to see them")
                }
            } else {
                findings.add(.pass, "a fine-grained token (or a GitHub App's): trackwatch does not need notifications")
            }
            let reader = GitHubReader(api: api)
            let assigned = try reader.list(filter: "assigned", state: "open", since: nil, etag: nil)
            findings.add(.pass, "\(assigned.issues.count) open issues and pull requests assigned to you")
            let reviews = try reader.search(GitHubTracker.reviewQuery(repos: settings.repos))
            findings.add(
                reviews.complete ? .pass : .warn, "\(reviews.items.count) pull requests await your review",
                then: reviews.complete ? nil : "GitHub said the search is incomplete: no review request is taken as removed")
            findings.add(
                .pass,
                "a steady poll with nothing changed costs 3 requests: two answered 304 (free of the hourly quota), "
                    + "one search (its own per-minute quota)")
        } catch {
            findings.add(.fail, "\(error)", then: fix(for: error))
            findings.stoppedBy = error
        }
        return findings
    }

    private func fix(for error: any Error) -> String {
        switch error as? GitHubError {
        case .tokenRejected: "make a new personal access token and put it in the \(settings.credential.summary) of [[github]] \(settings.name)"
        case .missingScope: "give the token the repo scope (classic) or read access to Issues and Pull requests (fine-grained)"
        case .rateLimited: "wait: GitHub limits this token for a while; trackwatch backs off by itself"
        default: "check url in [[github]] \(settings.name): https://api.github.com, or your server's /api/v3"
        }
    }

    /// How a probe's transcript names GitHub's routes: `/repos/acme/web/issues/42/timeline` →
    /// `/repos/{owner}/{repo}/issues/{number}/timeline`.
    @Sendable static func route(_ path: String) -> String {
        var segments = path.split(separator: "/").map(String.init)
        if let repos = segments.firstIndex(of: "repos"), repos + 2 < segments.count {
            segments[repos + 1] = "{owner}"
            segments[repos + 2] = "{repo}"
        }
        return "/" + segments.map { $0.allSatisfy(\.isNumber) ? "{number}" : $0 }.joined(separator: "/")
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
