import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Jira as the application wires it: `[[jira]]` tables become `JiraTracker`s on the shared poller; `doctor` and `probe` survey them.
public struct JiraFactory: ActivityTrackerFactory {
    public init() {}

    public var kind: any SourceKind { JiraSourceKind() }
    public static var watch: String { JiraTracker.watch }
    public static var route: @Sendable (String) -> String { JiraSurvey.route }

    public func secretName(_ jira: JiraSettings) -> String {
        switch jira.signIn {
        case .apiToken: "API token"
        case .personalToken: "personal access token"
        case .password: "password"
        }
    }

    public func secretFix(_ jira: JiraSettings) -> String {
        "put the \(secretName(jira)) alone on the first line of that file (\(Self.whereToMakeOne(jira)))"
    }

    /// The secret, checked: a token goes into a header, so it must be one line of visible ASCII.
    public func secret(_ jira: JiraSettings, _ read: (CredentialSource) throws -> Secret) throws -> Secret {
        let isToken: Bool = if case .password = jira.signIn { false } else { true }
        return try jira.credential.headerToken(
            read, what: "the Jira \(secretName(jira))", advice: Self.whereToMakeOne(jira), visibleASCII: isToken)
    }

    static func whereToMakeOne(_ jira: JiraSettings) -> String {
        switch jira.signIn {
        case .apiToken: "make one at https://id.atlassian.com/manage-profile/security/api-tokens"
        case .personalToken: "make one in Jira: your profile, Personal Access Tokens"
        case .password: "your Jira password"
        }
    }

    public func session(
        _ jira: JiraSettings, secret: Secret, transport: any HTTPTransport, logger: Logger
    ) -> TrackerSession {
        let api = JiraAPI(
            base: jira.url, authorization: JiraAPI.authorization(jira.signIn, secret: secret), transport: transport,
            timeout: jira.requestTimeout, logger: logger)
        return TrackerSession(
            tracker: JiraTracker(settings: jira, api: api, logger: logger),
            survey: JiraSurvey(settings: jira, api: api).run)
    }
}
