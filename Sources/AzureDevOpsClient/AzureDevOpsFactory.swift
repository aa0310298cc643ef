import SourceKit
import TrackwatchCore

/// Azure DevOps as the application wires it: `[[azure_devops]]` tables become `AzureDevOpsTracker`s on the shared
/// poller; `doctor` and `probe` survey them.
public typealias AzureDevOpsFactory = ActivityTrackerFactory<AzureDevOpsSourceKind>

extension AzureDevOpsSourceKind: ActivityTrackerKind {
    public static var route: @Sendable (String) -> String { AzureDevOpsTracker.route }

    public static func secretName(_ settings: AzureDevOpsSettings) -> String { "personal access token" }

    public static func secretFix(_ settings: AzureDevOpsSettings) -> String {
        secretFix(
            "a personal access token with Work Items (Read) and Code (Read)",
            madeIn: "Azure DevOps, User settings, Personal access tokens")
    }

    public static func session(_ settings: AzureDevOpsSettings, _ access: APIAccess) -> TrackerSession {
        TrackerSession(AzureDevOpsTracker(settings: settings, api: AzureDevOpsAPI(access)))
    }
}

/// What `doctor` and `probe` ask Azure DevOps, read-only: who the token is, Services or Server and its API version,
/// which projects it can read, what each question finds and what a steady poll costs.
extension AzureDevOpsTracker {
    func survey(_ findings: inout ProbeReport) async throws {
        let connection = try await api.get(AzureDevOpsConnection.self, .connectionData)
        let user = connection.authenticatedUser
        guard let id = user?.id?.lowercased() else {
            throw AzureDevOpsError.invalidResponse(endpoint: "connectionData", detail: "no authenticated user")
        }
        let name = SafeText.oneLine(user?.customDisplayName ?? user?.providerDisplayName ?? "?", limit: 80)
        findings.add(.pass, "signed in as \(name) (id \(SafeText.oneLine(id, limit: 64)))")
        let kind = connection.deploymentType == "onPremises" ? "Azure DevOps Server" : "Azure DevOps Services"
        findings.add(.pass, "\(kind), REST API \(api.version)")
        var readable: [String] = [], opened = 0
        let projects = if let named = settings.projects { named } else { try await allProjects() }
        for project in projects {
            do {
                let reviewing = try await activePullRequests(project, "searchCriteria.reviewerId", id)
                let authored = try await activePullRequests(project, "searchCriteria.creatorId", id)
                readable.append(project)
                opened += authored
                findings.add(
                    .pass,
                    "project \(SafeText.oneLine(project, limit: 64)): \(reviewing) active pull requests "
                        + "await your review, you opened \(authored)")
            } catch AzureDevOpsError.server(let status, _, _) where status == 404 || status == 403 {
                findings.add(
                    .fail, "\(AzureDevOpsError.projectUnavailable(name: project, status: status))",
                    then: "check projects in \(settings.tableName), or ask for access")
            }
        }
        struct Body: Encodable { var query: String }
        let mine = try await api.post(
            WIQLAnswer.self, .wiql, [("timePrecision", "true")],
            body: Body(query: WIQL.mine(projects: settings.projects.map { _ in readable })))
        findings.add(
            .pass, "\(AzureDevOpsTracker.ids(mine).count) work items assigned to you, created by you or followed")
        findings.add(
            .pass,
            "a steady poll with nothing changed costs \(1 + 2 * readable.count + opened) requests (1 WIQL, "
                + "2 per project, 1 per active pull request you opened); a work item that changed adds its updates")
    }

    private func activePullRequests(_ project: String, _ criterion: String, _ me: String) async throws -> Int {
        try await api.get(
            ValueList<PullRequest>.self, .pullRequests(project: project),
            [(criterion, me), ("searchCriteria.status", "active"), ("$top", "1000")]
        ).entries.elements.count
    }

    private func allProjects() async throws -> [String] {
        try await api.get(ValueList<AzureDevOpsProjectInfo>.self, .projects, [("$top", "500")]).entries.elements
            .compactMap(\.name).filter(AzureDevOpsProject.isValid).sorted()
    }

    func fix(for error: any Error) -> String {
        switch error as? AzureDevOpsError {
        case .tokenRejected, .refused(.signInPage):
            "make a new personal access token with Work Items (Read) and Code (Read) and put it in the "
                + "\(settings.credential.summary) of \(settings.tableName)"
        case .rateLimited: "wait: Azure DevOps is delaying this token's requests; trackwatch backs off by itself"
        default: "check url in \(settings.tableName): your organization (https://dev.azure.com/ORG) or collection"
        }
    }

    /// `/acme/Web/_apis/git/repositories/1f…/pullRequests/7/threads` →
    /// `/{base}/_apis/git/repositories/{repository}/pullRequests/{id}/threads`: what comes before `_apis` (an
    /// organization, a collection, a project) is no route.
    @Sendable static func route(_ path: String) -> String {
        var segments = path.split(separator: "/").map(String.init)
        guard let apis = segments.firstIndex(of: "_apis") else { return "/{base}" }
        segments.replaceSubrange(0..<apis, with: apis > 0 ? ["{base}"] : [])
        for index in segments.indices.dropFirst() {
            if segments[index - 1] == "repositories" {
                segments[index] = "{repository}"
            } else if segments[index].allSatisfy(\.isNumber) {
                segments[index] = "{id}"
            }
        }
        return "/" + segments.joined(separator: "/")
    }
}
