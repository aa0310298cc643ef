import Logging
import TrackerHTTP
import TrackwatchCore

/// The `SourceFactory` of a tracker on the shared poller (`ActivityPoller`), wired once: a tracker module says its
/// settings type, what it makes of a secret and a transport (its tracker and its survey, over its API) and its
/// words for the secret; the source (with its `ReadBudget`), `doctor`'s checks and `probe` are built here, alike
/// for every tracker.
public protocol ActivityTrackerFactory: SourceFactory {
    associatedtype Settings: TrackerSettings

    /// The largest answer accepted: by default 16 MB, a page of 100 items leaving each 160 kB.
    static var maximumBodySize: Int { get }
    /// The one watch of its sources: `items` (the default), `issues`.
    static var watch: String { get }
    /// How a probe's transcript names the tracker's routes: `/repos/acme/web` → `/repos/{owner}/{repo}`.
    static var route: @Sendable (String) -> String { get }

    /// What the secret is called in `doctor`: `token` (the default), `API token`, `password`.
    func secretName(_ settings: Settings) -> String
    /// `doctor`'s fix for a secret that cannot be read or is no token: where it goes and where to make one.
    func secretFix(_ settings: Settings) -> String
    /// The secret, read and checked (by default: a token, one line of visible ASCII).
    func secret(_ settings: Settings, _ read: (CredentialSource) throws -> Secret) throws -> Secret
    /// The tracker's API over `transport`, signed in with `secret`, and what is made of it.
    func session(_ settings: Settings, secret: Secret, transport: any HTTPTransport, logger: Logger) -> TrackerSession
}

/// What a tracker makes of its API (whose type stays the module's own): the tracker a poll drives, and what
/// `doctor` and `probe` ask, read-only.
public struct TrackerSession {
    public var tracker: any ActivityTracker
    public var survey: () -> ProbeReport

    public init(tracker: any ActivityTracker, survey: @escaping () -> ProbeReport) {
        self.tracker = tracker
        self.survey = survey
    }
}

extension ActivityTrackerFactory {
    public static var maximumBodySize: Int { 16 * 1024 * 1024 }
    public static var watch: String { "items" }

    public func secretName(_ settings: Settings) -> String { "token" }

    public func secret(_ settings: Settings, _ read: (CredentialSource) throws -> Secret) throws -> Secret {
        try settings.credential.headerToken(read, what: "the \(settings.trackerName) \(secretName(settings))")
    }

    public func makeSource(_ settings: any SourceSettings, context: SourceContext) throws -> (any Source)? {
        guard let settings = settings as? Settings else { return nil }
        let logger = context.logger.forSource(settings.name)
        settings.connection.warnings(logger: logger)
        let budget = ReadBudget(bytes: ReadBudget.activityPoll)
        let session = try connect(
            settings, secret: try secret(settings, context.secret), environment: context.environment, logger: logger,
            wrap: { context.wrap(RequestLog(base: BudgetTransport($0, budget: budget), logger: logger, route: Self.route)) }
        ).session
        return poller(session.tracker, settings, context: context, logger: logger, budget: budget)
    }

    private func poller<Tracker: ActivityTracker>(
        _ tracker: Tracker, _ settings: Settings, context: SourceContext, logger: Logger, budget: ReadBudget
    ) -> any Source {
        ActivityPoller(
            tracker: tracker, settings: settings, watch: Self.watch, context: context, logger: logger, budget: budget)
    }

    public func diagnose(_ settings: any SourceSettings, context: DiagnosisContext) -> DoctorReport? {
        guard let settings = settings as? Settings else { return nil }
        var report = DoctorReport()
        let (url, table, secretName) = (settings.url, settings.tableName, secretName(settings))
        if ServerURL.isCleartextToAnotherHost(url) { report.warn("\(url): \(Connection.cleartextWarning)") }
        guard
            let secret = report.check(
                "\(secretName) of \(table) (\(settings.credential.summary))", { try secret(settings, context.secret) },
                fix: secretFix(settings))
        else {
            report.skip("\(settings.trackerName) at \(url) (needs the \(secretName))")
            return report
        }
        guard
            let connected = report.check(
                "\(settings.trackerName) at \(url)",
                {
                    try connect(
                        settings, secret: secret, environment: context.environment,
                        logger: context.logger.forSource(settings.name))
                }, fix: "check url, ca_file, insecure and proxy in \(table)")
        else { return report }
        defer { connected.http.closeIdleConnections() }
        report.append(survey: connected.session.survey(), fix: "check \(table)")
        if settings.insecure { report.warn("TLS verification is off (insecure = true); prefer ca_file") }
        return report
    }

    public func probe(
        _ settings: any SourceSettings, context: DiagnosisContext, transcript: Bool
    ) throws -> (any SourceProbe)? {
        guard let settings = settings as? Settings else { return nil }
        let recorder = ExchangeTranscript(label: Settings.table, recording: transcript, shape: Self.route)
        let session = try connect(
            settings, secret: try secret(settings, context.secret), environment: context.environment,
            logger: context.logger.forSource(settings.name), wrap: { recorder.wrapping($0) }
        ).session
        return SurveyProbe(survey: session.survey, recorder: recorder)
    }

    /// The session over the connection's transport (`wrap`ped: the poll's budget, its deadline, a probe's
    /// transcript), and that transport, to close.
    private func connect(
        _ settings: Settings, secret: Secret, environment: [String: String], logger: Logger,
        wrap: (any HTTPTransport) -> any HTTPTransport = { $0 }
    ) throws -> (session: TrackerSession, http: AsyncHTTPTransport) {
        let http = try settings.connection.transport(
            environment: environment, table: settings.tableName, label: settings.name, logger: logger,
            maximumBodySize: Self.maximumBodySize)
        return (session(settings, secret: secret, transport: wrap(http), logger: logger), http)
    }
}

extension ProbeReport {
    /// A survey's findings, as `body` adds them; an error it throws ends the survey as ✘ with `fix(error)`.
    public static func survey(fix: (any Error) -> String, _ body: (inout ProbeReport) throws -> Void) -> ProbeReport {
        var findings = ProbeReport()
        do { try body(&findings) } catch {
            findings.add(.fail, "\(error)", then: fix(error))
            findings.stoppedBy = error
        }
        return findings
    }
}
