import Logging
import TrackerHTTP
import TrackwatchCore

/// A tracker's `[[table]]`s as the application wires them: what a tracker module says besides reading its
/// table — what it makes of the settings, a secret and a transport (its tracker and its survey, over its API) and
/// its words for the secret. `ActivityTrackerFactory` builds the rest from these, alike for every tracker.
public protocol ActivityTrackerKind: TrackerSourceKind {
    init()
    /// The one watch of its sources: `items` (the default), `issues`.
    static var watch: String { get }
    /// How a probe's transcript names the tracker's routes: `/repos/acme/web` → `/repos/{owner}/{repo}`.
    static var route: @Sendable (String) -> String { get }

    /// What the secret is called in `doctor`: `token` (the default), `API token`, `password`.
    static func secretName(_ settings: Settings) -> String
    /// `doctor`'s fix for a secret that cannot be read or is no token: where it goes and where to make one.
    static func secretFix(_ settings: Settings) -> String
    /// The secret, read and checked (by default: a token, one line of visible ASCII).
    static func secret(_ settings: Settings, _ read: (CredentialSource) throws -> Secret) throws -> Secret
    /// The tracker's API over `access`, and what is made of it.
    static func session(_ settings: Settings, _ access: APIAccess) -> TrackerSession
}

extension ActivityTrackerKind {
    public static var watch: String { "items" }

    public static func secretName(_ settings: Settings) -> String { "token" }

    public static func secret(_ settings: Settings, _ read: (CredentialSource) throws -> Secret) throws -> Secret {
        try settings.credential.headerToken(read, what: "the \(settings.trackerName) \(secretName(settings))")
    }

    /// A `secretFix`: `put a personal access token alone on the first line of that file (GitHub, Settings, …)`.
    public static func secretFix(_ secret: String, madeIn place: String) -> String {
        "put \(secret) alone on the first line of that file (\(place))"
    }
}

/// How a tracker's API reaches its server: the table's `url`, signed in with `secret`, over `transport` (wrapped for
/// a poll's budget or deadline, or a probe's transcript), each request within `timeout` seconds; `logger` the
/// source's.
public struct APIAccess {
    public let url: String
    public let secret: Secret
    public let transport: any HTTPTransport
    public let timeout: Int
    public let logger: Logger

    public init(url: String, secret: Secret, transport: any HTTPTransport, timeout: Int, logger: Logger) {
        self.url = url
        self.secret = secret
        self.transport = transport
        self.timeout = timeout
        self.logger = logger
    }
}

/// What a tracker makes of its API (whose type stays the module's own): the tracker a poll drives, and what
/// `doctor` and `probe` ask, read-only.
public struct TrackerSession {
    public var tracker: any ActivityTracker
    public var survey: () async -> ProbeReport

    public init(tracker: any ActivityTracker, survey: @escaping () async -> ProbeReport) {
        self.tracker = tracker
        self.survey = survey
    }
}

/// The `SourceFactory` of a tracker on the shared poller (`ActivityPoller`), written once: the source (with its
/// `ReadBudget`), `doctor`'s checks and `probe`, from what `Kind` says. `GitHubFactory` is
/// `ActivityTrackerFactory<GitHubSourceKind>`.
public struct ActivityTrackerFactory<Kind: ActivityTrackerKind>: SourceFactory {
    public typealias Settings = Kind.Settings
    /// The largest answer accepted: a page of 100 items leaving each 160 kB.
    static var maximumBodySize: Int { 16 * 1024 * 1024 }

    public init() {}

    public var kind: any SourceKind { Kind() }

    public func makeSource(_ settings: any SourceSettings, context: SourceContext) throws -> (any Source)? {
        guard let settings = settings as? Settings else { return nil }
        let logger = context.logger.forSource(settings.name)
        settings.connection.warnings(logger: logger)
        let budget = ReadBudget(bytes: ReadBudget.activityPoll), clock = ServerClock()
        let secret = try Kind.secret(settings, context.secret)
        let connected = try connect(settings, secret: secret, environment: context.environment, logger: logger) {
            context.wrap(
                RequestLog(
                    base: ServerClockTransport(BudgetTransport($0, budget: budget), clock: clock), logger: logger,
                    route: Kind.route))
        }
        return poller(
            connected.session.tracker, settings, context: context, logger: logger, budget: budget, clock: clock,
            connected.http)
    }

    private func poller<Tracker: ActivityTracker>(
        _ tracker: Tracker, _ settings: Settings, context: SourceContext, logger: Logger, budget: ReadBudget,
        clock: ServerClock, _ connection: any HTTPTransport
    ) -> any Source {
        ActivityPoller(
            tracker: tracker, settings: settings, watch: Kind.watch, context: context, logger: logger, budget: budget,
            serverClock: clock, connection: connection)
    }

    public func diagnose(_ settings: any SourceSettings, context: DiagnosisContext) async -> DoctorReport? {
        guard let settings = settings as? Settings else { return nil }
        var report = DoctorReport()
        let (url, table, secretName) = (settings.url, settings.tableName, Kind.secretName(settings))
        if ServerURL.isCleartextToAnotherHost(url) { report.warn("\(url): \(Connection.cleartextWarning)") }
        guard
            let secret = report.check(
                "\(secretName) of \(table) (\(settings.credential.summary))",
                { try Kind.secret(settings, context.secret) }, fix: Kind.secretFix(settings))
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
        report.append(survey: await connected.session.survey(), fix: "check \(table)")
        if settings.insecure { report.warn("TLS verification is off (insecure = true); prefer ca_file") }
        return report
    }

    public func probe(
        _ settings: any SourceSettings, context: DiagnosisContext, transcript: Bool
    ) throws -> (any SourceProbe)? {
        guard let settings = settings as? Settings else { return nil }
        let recorder = ExchangeTranscript(label: Settings.table, recording: transcript, shape: Kind.route)
        let session = try connect(
            settings, secret: try Kind.secret(settings, context.secret), environment: context.environment,
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
        let access = APIAccess(
            url: settings.url, secret: secret, transport: wrap(http), timeout: settings.requestTimeout, logger: logger)
        return (Kind.session(settings, access), http)
    }
}

extension ProbeReport {
    /// A survey's findings, as `body` adds them; an error it throws ends the survey as ✘ with `fix(error)`.
    public static func survey(
        fix: (any Error) -> String, _ body: (inout ProbeReport) async throws -> Void
    ) async -> ProbeReport {
        var findings = ProbeReport()
        do { try await body(&findings) } catch {
            findings.add(.fail, "\(error)", then: fix(error))
            findings.stoppedBy = error
        }
        return findings
    }
}
