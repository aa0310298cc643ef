import SourceKit
import TrackwatchCore

/// Jira as the application wires it: `[[jira]]` tables become `JiraTracker`s on the shared poller; `doctor` and `probe` survey them.
public typealias JiraFactory = ActivityTrackerFactory<JiraSourceKind>

extension JiraSourceKind: ActivityTrackerKind {
    public static var watch: String { JiraTracker.watch }
    public static var route: @Sendable (String) -> String { JiraTracker.route }

    public static func secretName(_ jira: JiraSettings) -> String { jira.signIn.secret.name }

    public static func secretFix(_ jira: JiraSettings) -> String {
        secretFix("the \(jira.signIn.secret.name)", madeIn: jira.signIn.secret.whereToMakeOne)
    }

    /// The secret, checked: a token goes into a header, so it must be one line of visible ASCII.
    public static func secret(_ jira: JiraSettings, _ read: (CredentialSource) throws -> Secret) throws -> Secret {
        try jira.credential.headerToken(
            read, what: "the Jira \(jira.signIn.secret.name)", advice: jira.signIn.secret.whereToMakeOne,
            visibleASCII: !jira.signIn.isPassword)
    }

    public static func session(_ jira: JiraSettings, _ access: APIAccess) -> TrackerSession {
        let tracker = JiraTracker(settings: jira, api: JiraAPI(access, signIn: jira.signIn))
        return TrackerSession(tracker: tracker, survey: tracker.survey)
    }
}

/// What `doctor` and `probe` ask a Jira server, read-only: which flavour it is, who the credentials are, what a
/// poll will read, and what a steady poll costs.
extension JiraTracker {
    func survey() async -> ProbeReport {
        await .survey(fix: fix(for:)) { findings in
            let flavour = try await api.knownFlavour()
            findings.add(
                .pass,
                flavour == .cloud
                    ? "Jira Cloud (serverInfo): searches with /rest/api/3/search/jql, changelogs in bulk"
                    : "Jira Data Center (serverInfo): searches with /rest/api/2/search and expand=changelog")
            let me: JiraUser = try await api.get(.myself)
            findings.add(.pass, "signed in as \(me.actor?.name ?? "?") (\(SafeText.bounded(me.id ?? "?", 80)))")
            for project in jira.projects ?? [] { await check(project: project, into: &findings) }
            let assigned = try await JiraReader(api: api).search(
                "assignee = currentUser()\(jira.jql.map { " AND (\($0))" } ?? "") ORDER BY key ASC",
                fields: ["updated"]).elements
            findings.add(.pass, "\(assigned.count) issues assigned to you")
            findings.add(
                .pass,
                "a steady poll with nothing changed costs 1 request; issues that changed add "
                    + (flavour == .cloud ? "1 bulk changelog request" : "1 search with their changelogs"))
        }
    }

    /// The action that mends `error`, said as an action.
    private func fix(for error: any Error) -> String {
        switch error as? JiraError {
        case .refused(.credentialsRejected):
            "\(jira.signIn.secret.whereToMakeOne), and put it in the \(jira.credential.summary) of \(jira.tableName)"
        case .unreachable: "check url, ca_file, insecure and proxy in \(jira.tableName), and the network"
        case .refused(.invalidJQL): "correct jql in \(jira.tableName) (try it in Jira's issue search first)"
        case .rateLimited: "wait: Jira limits requests for a while; trackwatch backs off by itself"
        default: "check url in \(jira.tableName): your Jira site or server, with its context path"
        }
    }

    /// Whether this account sees `project` (Jira answers 400 "does not exist" where it does not).
    private func check(project: String, into findings: inout ProbeReport) async {
        do {
            _ = try await JiraReader(api: api, pageSize: 1).search("project = \(project)", fields: ["updated"])
            findings.add(.pass, "project \(project) is visible")
        } catch JiraError.server(400, _, _) {
            findings.add(
                .fail, "project \(project): Jira says it does not exist or this account cannot see it",
                then: "check projects in \(jira.tableName), or ask for access; the other projects are watched")
        } catch {
            findings.add(.unknown, "project \(project): \(error)")
        }
    }

    /// How a probe's transcript names Jira's routes: `/jira/rest/api/3/issue/10001/comment` →
    /// `/rest/api/3/issue/{id}/comment` (the context path, ids and keys go; the API version stays).
    @Sendable static func route(_ path: String) -> String {
        let segments = path.split(separator: "/")
        guard let rest = segments.firstIndex(of: "rest") else { return "/{path}" }
        let kept = segments[rest...].prefix(3).map(String.init)
        return "/" + (kept + segments[rest...].dropFirst(3).map { segment in
            segment.allSatisfy(\.isNumber) ? "{id}" : JiraIssueKey.isValid(String(segment)) ? "{key}" : String(segment)
        }).joined(separator: "/")
    }
}
