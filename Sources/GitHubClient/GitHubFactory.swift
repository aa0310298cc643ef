import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// GitHub as the application wires it: `[[github]]` tables become `GitHubTracker`s on the shared poller; `doctor` and `probe` survey them.
public struct GitHubFactory: ActivityTrackerFactory {
    public init() {}

    public var kind: any SourceKind { GitHubSourceKind() }
    public static var route: @Sendable (String) -> String { GitHubTracker.route }

    public func secretFix(_ settings: GitHubSettings) -> String {
        "put a personal access token alone on the first line of that file (GitHub, Settings, Developer settings, "
            + "Personal access tokens)"
    }

    public func session(
        _ settings: GitHubSettings, secret: Secret, transport: any HTTPTransport, logger: Logger
    ) -> TrackerSession {
        let api = GitHubAPI(
            base: settings.url, token: secret, transport: transport, timeout: settings.requestTimeout, logger: logger)
        let tracker = GitHubTracker(settings: settings, api: api, logger: logger)
        return TrackerSession(tracker: tracker, survey: tracker.survey)
    }
}

/// What `doctor` and `probe` ask GitHub, read-only: who the token is, what it may read, what a poll will read.
extension GitHubTracker {
    func survey() -> ProbeReport {
        .survey(fix: fix(for:)) { findings in
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
            // GitHub refuses the whole search when one `repo:` cannot be read: named, as the poll does.
            let reviews = try reader.reviewRequests(repos: github.repos)
            if !reviews.refused.isEmpty { throw GitHubError.refused(.repositoriesUnavailable(names: reviews.refused)) }
            findings.add(
                reviews.complete ? .pass : .warn, "\(reviews.items.count) pull requests await your review",
                then: reviews.complete ? nil : "GitHub said the search is incomplete: no review request is taken as removed")
            findings.add(
                .pass,
                "a steady poll with nothing changed costs 3 requests: two answered 304 (free of the hourly quota), "
                    + "one search (its own per-minute quota)")
        }
    }

    private func fix(for error: any Error) -> String {
        switch error as? GitHubError {
        case .tokenRejected: "make a new personal access token and put it in the \(github.credential.summary) of \(github.tableName)"
        case .refused(.missingScope): "give the token the repo scope (classic) or read access to Issues and Pull requests (fine-grained)"
        case .rateLimited: "wait: GitHub limits this token for a while; trackwatch backs off by itself"
        case .server(422, _, _): "check repos in \(github.tableName): GitHub's message says what it refused"
        case .refused(.repositoriesUnavailable): "correct repos in \(github.tableName) (owner/name, as in the repository's URL), or give the token access to them"
        default: "check url in \(github.tableName): https://api.github.com, or your server's /api/v3"
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
