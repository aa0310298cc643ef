import SourceKit
import TrackwatchCore

/// Forgejo as the application wires it: `[[forgejo]]` tables become `ForgejoTracker`s on the shared poller;
/// `doctor` and `probe` survey them.
public typealias ForgejoFactory = ActivityTrackerFactory<ForgejoSourceKind>

extension ForgejoSourceKind: ActivityTrackerKind {
    public static var route: @Sendable (String) -> String { { ForgeRepo.route($0, number: "{index}") } }

    public static func secretFix(_ settings: ForgejoSettings) -> String {
        secretFix("an access token with read:user, read:issue and read:repository", madeIn: "Settings, Applications")
    }

    public static func session(_ settings: ForgejoSettings, _ access: APIAccess) -> TrackerSession {
        TrackerSession(ForgejoTracker(settings: settings, api: ForgejoAPI(access)))
    }
}

/// What `doctor` and `probe` ask, read-only: which server, who the token is, what it may read, what a poll reads.
extension ForgejoTracker {
    func survey(_ findings: inout ProbeReport) async throws {
        let version = try await api.get(ForgejoVersion.self, "/api/v1/version", name: "version")
        // Forgejo answers its own version route; Gitea's router answers 404.
        let forgejo = await (try? api.get("/api/forgejo/v1/version", name: "Forgejo version")) != nil
        findings.add(
            .pass, "\(forgejo ? "Forgejo" : "Gitea") \(SafeText.oneLine(version.version ?? "?", limit: 60))")
        let me = try await api.get(ForgejoUser.self, "/api/v1/user", name: "user")
        findings.add(
            .pass,
            "signed in as \(me.actor?.name ?? "?") (\(me.login.map { SafeText.oneLine($0, limit: 60) } ?? "?"))")
        let honours = try await ForgejoTracker.honoursReviewFilter(api)
        var pages = 2  // the user, and whether review_requested is honoured
        for (filter, what) in [
            ("assigned", "assigned to you"), ("created", "opened by you"),
            ("review_requested", "await your review"),
        ]
        where filter != "review_requested" || honours {
            let extra = filter == "review_requested" ? [("type", "pulls")] : []
            let count = try await count(ForgejoTracker.search, [(filter, "true"), ("state", "open")] + extra)
            pages += max(1, (count + ForgejoAPI.pageSize - 1) / ForgejoAPI.pageSize)
            findings.add(.pass, "\(count) open issues and pull requests \(what)")
        }
        if !honours {
            findings.add(
                .warn, "this server ignores review_requested (before Gitea 1.14): it answers every open item",
                then: "review requests are not reported; assignments and changes are")
        }
        findings.add(.pass, "the token reads your account and the issues (a missing scope would be named here)")
        findings.add(
            .pass,
            "a steady poll with nothing changed costs 3 requests; a full read (hourly) \(pages), a page holding "
                + "50 items whatever is asked")
    }

    /// `X-Total-Count` of a search, one request (or the items of its one page where the server sends no count).
    private func count(_ path: String, _ query: [(String, String)]) async throws -> Int {
        let response = try await api.get(path, query + [("limit", "1")], name: "search")
        if let total = response.header("X-Total-Count").flatMap({ Int($0.prefix(9)) }) { return max(0, total) }
        let page = try api.decode(LossyList<ForgejoIssue>.self, response, name: "search")
        return page.sent
    }

    func fix(for error: any Error) -> String {
        switch error as? ForgejoError {
        case .tokenRejected, .refused:
            "make an access token with read:user, read:issue and read:repository and put it in the "
                + "\(settings.credential.summary) of \(settings.tableName)"
        case .rateLimited: "wait: the server (or a proxy before it) is busy; trackwatch backs off by itself"
        default: "check url in \(settings.tableName): the web root, such as https://codeberg.org"
        }
    }
}
