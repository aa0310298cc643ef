import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Qase as the application wires it: `[[qase]]` tables become `QaseSource`s; `doctor` and `probe` survey them.
public struct QaseFactory: SourceFactory {
    /// The largest answer accepted: a page is at most 100 items, and 16 MB leaves each 160 kB of text. A larger
    /// one is refused before it is parsed.
    public static let maximumBodySize = 16 * 1024 * 1024

    public init() {}

    public var kind: any SourceKind { QaseSourceKind() }

    public func makeSource(_ settings: any SourceSettings, context: SourceContext) throws -> (any Source)? {
        guard let qase = settings as? QaseSettings else { return nil }
        let logger = context.logger.forSource(qase.name)
        qase.connection.warnings(logger: logger)
        let api = try Self.api(
            qase, secret: context.secret, environment: context.environment, poll: context.poll,
            logger: logger, wrap: context.wrap)
        return QaseSource(settings: qase, api: api, context: context, logger: logger)
    }

    public func diagnose(_ settings: any SourceSettings, context: DiagnosisContext) async -> DoctorReport? {
        guard let qase = settings as? QaseSettings else { return nil }
        var report = DoctorReport()
        if ServerURL.isCleartextToAnotherHost(qase.url) { report.warn("\(qase.url): \(Connection.cleartextWarning)") }
        let what = "API token of [[qase]] \(qase.name) (\(qase.credential.summary))"
        guard
            let token = report.check(
                what, { try qase.credential.headerToken(context.secret, what: "the Qase API token", place: qase.credential.summary) },
                fix: qase.credential.fix(putting: "API token", makeOne: "Qase makes one under your profile, API tokens"))
        else {
            report.skip("Qase at \(qase.url) (needs the token)")
            return report
        }
        guard
            let api = report.check(
                "Qase at \(qase.url)",
                {
                    try Self.api(
                        qase, token: token, environment: context.environment, poll: context.poll,
                        logger: context.logger.forSource(qase.name))
                }, fix: "check url, ca_file, insecure and proxy in [[qase]] \(qase.name)")
        else { return report }
        defer { api.transport.closeIdleConnections() }
        await report.append(
            survey: QaseSurvey(settings: qase, api: api, logger: context.logger).run(),
            fix: "check url and projects in [[qase]] \(qase.name)")
        if qase.insecure { report.warn("TLS verification is off (insecure = true); prefer ca_file") }
        return report
    }

    public func probe(
        _ settings: any SourceSettings, context: DiagnosisContext,
        transcript: Bool
    ) throws -> (any SourceProbe)? {
        guard let qase = settings as? QaseSettings else { return nil }
        let recorder = QaseTranscript.recorder(recording: transcript)
        let api = try Self.api(
            qase, secret: context.secret, environment: context.environment, poll: context.poll,
            logger: context.logger.forSource(qase.name), wrap: { recorder.wrapping($0) })
        let survey = QaseSurvey(settings: qase, api: api, logger: context.logger)
        return SurveyProbe(survey: survey.run, recorder: recorder)
    }

    // MARK: Parts

    static func api(
        _ qase: QaseSettings, secret: (CredentialSource) throws -> Secret, environment: [String: String],
        poll: PollConfig, logger: Logger, wrap: (any HTTPTransport) -> any HTTPTransport = { $0 }
    ) throws -> QaseAPI {
        try api(
            qase, token: try qase.credential.headerToken(secret, what: "the Qase API token", place: qase.credential.summary), environment: environment, poll: poll,
            logger: logger, wrap: wrap)
    }

    static func api(
        _ qase: QaseSettings, token: Secret, environment: [String: String], poll: PollConfig, logger: Logger,
        wrap: (any HTTPTransport) -> any HTTPTransport = { $0 }
    ) throws -> QaseAPI {
        let http = try qase.connection.transport(
            environment: environment, table: "[[qase]] \(qase.name)", label: qase.name, logger: logger,
            maximumBodySize: maximumBodySize)
        return QaseAPI(
            base: qase.url, token: token, transport: wrap(http), timeout: qase.requestTimeout,
            pageSize: poll.pageSize, logger: logger)
    }
}
