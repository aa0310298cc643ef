import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Forgejo as the application wires it: `[[forgejo]]` tables become `ForgejoTracker`s on the shared poller;
/// `doctor` and `probe` survey them.
public struct ForgejoFactory: SourceFactory {
    /// The largest answer accepted: a page of 50 items; 16 MB leaves each 320 kB.
    public static let maximumBodySize = 16 * 1024 * 1024

    public init() {}

    public var kind: any SourceKind { ForgejoSourceKind() }

    public func makeSource(_ settings: any SourceSettings, context: SourceContext) throws -> (any Source)? {
        guard let forgejo = settings as? ForgejoSettings else { return nil }
        let logger = context.logger.forSource(forgejo.name)
        forgejo.connection.warnings(logger: logger)
        let budget = ReadBudget(bytes: ReadBudget.activityPoll)
        let api = try Self.api(
            forgejo, token: try forgejo.credential.headerToken(context.secret, what: "the Forgejo token"),
            environment: context.environment, logger: logger,
            wrap: { context.wrap(BudgetTransport($0, budget: budget)) })
        return ActivityPoller(
            tracker: ForgejoTracker(settings: forgejo, api: api), settings: forgejo, watch: ForgejoTracker.watch,
            context: context, logger: logger, budget: budget)
    }

    public func diagnose(_ settings: any SourceSettings, context: DiagnosisContext) -> DoctorReport? {
        guard let forgejo = settings as? ForgejoSettings else { return nil }
        var report = DoctorReport()
        if ServerURL.isCleartextToAnotherHost(forgejo.url) {
            report.warn("\(forgejo.url): \(Connection.cleartextWarning)")
        }
        guard
            let token = report.check(
                "token of [[forgejo]] \(forgejo.name) (\(forgejo.credential.summary))",
                { try forgejo.credential.headerToken(context.secret, what: "the Forgejo token") },
                fix: "put an access token alone on the first line of that file (Settings, Applications)")
        else {
            report.skip("Forgejo at \(forgejo.url) (needs the token)")
            return report
        }
        guard
            let api = report.check(
                "Forgejo at \(forgejo.url)",
                {
                    try Self.api(
                        forgejo, token: token, environment: context.environment,
                        logger: context.logger.forSource(forgejo.name))
                }, fix: "check url, ca_file, insecure and proxy in [[forgejo]] \(forgejo.name)")
        else { return report }
        defer { api.transport.closeIdleConnections() }
        report.append(
            survey: ForgejoSurvey(settings: forgejo, api: api).run(), fix: "check [[forgejo]] \(forgejo.name)")
        return report
    }

    public func probe(
        _ settings: any SourceSettings, context: DiagnosisContext, transcript: Bool
    ) throws -> (any SourceProbe)? {
        guard let forgejo = settings as? ForgejoSettings else { return nil }
        let recorder = ExchangeTranscript(label: "forgejo", recording: transcript, shape: ForgejoSurvey.route)
        let api = try Self.api(
            forgejo, token: try forgejo.credential.headerToken(context.secret, what: "the Forgejo token"),
            environment: context.environment, logger: context.logger.forSource(forgejo.name),
            wrap: { recorder.wrapping($0) })
        return SurveyProbe(survey: ForgejoSurvey(settings: forgejo, api: api).run, recorder: recorder)
    }

    static func api(
        _ forgejo: ForgejoSettings, token: Secret, environment: [String: String], logger: Logger,
        wrap: (any HTTPTransport) -> any HTTPTransport = { $0 }
    ) throws -> ForgejoAPI {
        let http = try forgejo.connection.transport(
            environment: environment, table: "[[forgejo]] \(forgejo.name)", label: forgejo.name, logger: logger,
            maximumBodySize: maximumBodySize)
        return ForgejoAPI(web: forgejo.url, token: token, transport: wrap(http), timeout: forgejo.requestTimeout)
    }
}

/// What `doctor` and `probe` ask, read-only: which server, who the token is, what a poll will read.
struct ForgejoSurvey {
    let settings: ForgejoSettings
    let api: ForgejoAPI

    func run() -> ProbeReport {
        var findings = ProbeReport()
        do {
            let version = try api.decode(
                ForgejoVersion.self, try api.get("/api/v1/version", name: "version"), name: "version")
            let forgejo = (try? api.get("/api/forgejo/v1/version", name: "forgejo version")) != nil
            findings.add(
                .pass, "\(forgejo ? "Forgejo" : "Gitea") \(SafeText.oneLine(version.version ?? "?", limit: 60))")
            let me = try api.decode(ForgejoUser.self, try api.get("/api/v1/user", name: "user"), name: "user")
            findings.add(
                .pass,
                "signed in as \(me.actor?.name ?? "?") (\(me.login.map { SafeText.oneLine($0, limit: 60) } ?? "?"))")
            for filter in ["assigned", "review_requested"] {
                let items = try api.all(
                    ForgejoIssue.self, ForgejoTracker.search, [(filter, "true"), ("state", "open")], name: "search")
                findings.add(
                    .pass, "\(items.count) open items \(filter == "assigned" ? "assigned to you" : "await your review")"
                )
            }
            findings.add(
                .pass,
                "a steady poll with nothing changed costs 3 requests; a full read (hourly) one per 50 items of "
                    + "each list"
            )
        } catch {
            findings.add(.fail, "\(error)", then: "check url and the token in [[forgejo]] \(settings.name)")
            findings.stoppedBy = error
        }
        return findings
    }

    /// How a probe's transcript names routes: `/api/v1/repos/acme/web/issues/42` →
    /// `/api/v1/repos/{owner}/{repo}/issues/{index}`.
    @Sendable static func route(_ path: String) -> String {
        var segments = path.split(separator: "/").map(String.init)
        if let repos = segments.firstIndex(of: "repos"), repos + 2 < segments.count, segments[repos + 1] != "issues" {
            segments[repos + 1] = "{owner}"
            segments[repos + 2] = "{repo}"
        }
        return "/" + segments.map { $0.allSatisfy(\.isNumber) ? "{index}" : $0 }.joined(separator: "/")
    }
}
