import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Jira as the application wires it: `[[jira]]` tables become `JiraTracker`s on the shared poller; `doctor` and `probe` survey them.
public struct JiraFactory: SourceFactory {
    /// The largest answer accepted: a page is at most 100 issues with their comments, or 1,000 changelog entries;
    /// 16 MB leaves each issue 160 kB. A larger one is refused before it is parsed.
    public static let maximumBodySize = 16 * 1024 * 1024

    public init() {}

    public var kind: any SourceKind { JiraSourceKind() }

    public func makeSource(_ settings: any SourceSettings, context: SourceContext) throws -> (any Source)? {
        guard let jira = settings as? JiraSettings else { return nil }
        let logger = context.logger.forSource(jira.name)
        jira.connection.warnings(logger: logger)
        let budget = ReadBudget(bytes: ReadBudget.activityPoll)
        let api = try Self.api(jira, secret: context.secret, environment: context.environment, logger: logger,
                               wrap: { context.wrap(BudgetTransport($0, budget: budget)) })
        return ActivityPoller(
            tracker: JiraTracker(settings: jira, api: api, logger: logger), settings: jira, watch: JiraTracker.watch,
            context: context, logger: logger, budget: budget)
    }

    public func diagnose(_ settings: any SourceSettings, context: DiagnosisContext) -> DoctorReport? {
        guard let jira = settings as? JiraSettings else { return nil }
        var report = DoctorReport()
        if ServerURL.isCleartextToAnotherHost(jira.url) { report.warn("\(jira.url): \(Connection.cleartextWarning)") }
        let what = "\(Self.secretName(jira)) of [[jira]] \(jira.name) (\(jira.credential.summary))"
        guard
            let secret = report.check(
                what, { try Self.secret(jira, secret: context.secret) },
                fix: "put the \(Self.secretName(jira)) alone on the first line of that file (\(Self.whereToMakeOne(jira)))")
        else {
            report.skip("Jira at \(jira.url) (needs the \(Self.secretName(jira)))")
            return report
        }
        guard
            let api = report.check(
                "Jira at \(jira.url)",
                { try Self.api(jira, secret: secret, environment: context.environment, logger: context.logger.forSource(jira.name)) },
                fix: "check url, ca_file, insecure and proxy in [[jira]] \(jira.name)")
        else { return report }
        defer { api.transport.closeIdleConnections() }
        report.append(survey: JiraSurvey(settings: jira, api: api).run(), fix: "check [[jira]] \(jira.name)")
        if jira.insecure { report.warn("TLS verification is off (insecure = true); prefer ca_file") }
        return report
    }

    public func probe(
        _ settings: any SourceSettings, context: DiagnosisContext, transcript: Bool
    ) throws -> (any SourceProbe)? {
        guard let jira = settings as? JiraSettings else { return nil }
        let recorder = ExchangeTranscript(label: "jira", recording: transcript, shape: JiraSurvey.route)
        let api = try Self.api(
            jira, secret: context.secret, environment: context.environment, logger: context.logger.forSource(jira.name),
            wrap: { recorder.wrapping($0) })
        let survey = JiraSurvey(settings: jira, api: api)
        return SurveyProbe(survey: survey.run, recorder: recorder)
    }

    // MARK: Parts

    static func secretName(_ jira: JiraSettings) -> String {
        switch jira.signIn {
        case .apiToken: "API token"
        case .personalToken: "personal access token"
        case .password: "password"
        }
    }

    /// The secret, checked: a token goes into a header, so it must be one line of visible ASCII.
    static func secret(_ jira: JiraSettings, secret: (CredentialSource) throws -> Secret) throws -> Secret {
        let isToken: Bool = if case .password = jira.signIn { false } else { true }
        return try jira.credential.headerToken(
            secret, what: "the Jira \(secretName(jira))", advice: whereToMakeOne(jira), visibleASCII: isToken)
    }

    static func whereToMakeOne(_ jira: JiraSettings) -> String {
        switch jira.signIn {
        case .apiToken: "make one at https://id.atlassian.com/manage-profile/security/api-tokens"
        case .personalToken: "make one in Jira: your profile, Personal Access Tokens"
        case .password: "your Jira password"
        }
    }

    static func api(
        _ jira: JiraSettings, secret: (CredentialSource) throws -> Secret, environment: [String: String],
        logger: Logger, wrap: (any HTTPTransport) -> any HTTPTransport = { $0 }
    ) throws -> JiraAPI {
        try api(jira, secret: try Self.secret(jira, secret: secret), environment: environment, logger: logger, wrap: wrap)
    }

    static func api(
        _ jira: JiraSettings, secret: Secret, environment: [String: String], logger: Logger,
        wrap: (any HTTPTransport) -> any HTTPTransport = { $0 }
    ) throws -> JiraAPI {
        let http = try jira.connection.transport(
            environment: environment, table: "[[jira]] \(jira.name)", label: jira.name, logger: logger,
            maximumBodySize: maximumBodySize)
        return JiraAPI(
            base: jira.url, authorization: JiraAPI.authorization(jira.signIn, secret: secret), transport: wrap(http),
            timeout: jira.requestTimeout, logger: logger)
    }
}
