#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SourceKit
import Synchronization
import TrackerHTTP
import TrackwatchCore

/// What `doctor` and `probe` ask a Jira server, read-only: which flavour it is, who the credentials are, what a
/// poll will read, and what a steady poll costs.
struct JiraSurvey {
    struct Finding {
        let mark: ProbeReport.Mark
        let text: String
        var then: String? = nil
    }

    let settings: JiraSettings
    let api: JiraAPI

    func run() -> (findings: [Finding], stoppedBy: (any Error)?) {
        var findings: [Finding] = []
        do {
            let flavour = try api.knownFlavour()
            findings.append(
                Finding(
                    mark: .pass,
                    text: flavour == .cloud
                        ? "Jira Cloud (serverInfo): searches with /rest/api/3/search/jql, changelogs in bulk"
                        : "Jira Data Center (serverInfo): searches with /rest/api/2/search and expand=changelog"))
            let me: JiraUser = try api.get(.myself)
            findings.append(
                Finding(mark: .pass, text: "signed in as \(me.actor?.name ?? "?") (\(SafeText.bounded(me.id ?? "?", 80)))"))
            for project in settings.projects ?? [] { findings.append(check(project: project)) }
            let reader = JiraReader(api: api, pageSize: 100)
            let assigned = try reader.search(
                "assignee = currentUser()\(settings.jql.map { " AND (\($0))" } ?? "") ORDER BY key ASC",
                fields: ["updated"])
            findings.append(Finding(mark: .pass, text: "\(assigned.count) issues assigned to you"))
            findings.append(
                Finding(
                    mark: .pass,
                    text: "a steady poll with nothing changed costs 1 request; issues that changed add "
                        + (flavour == .cloud ? "1 bulk changelog request" : "1 search with their changelogs")))
            return (findings, nil)
        } catch {
            findings.append(Finding(mark: .fail, text: "\(error)", then: fix(for: error)))
            return (findings, error)
        }
    }

    /// The action that mends `error`, said as an action.
    private func fix(for error: any Error) -> String {
        switch error as? JiraError {
        case .credentialsRejected:
            "\(JiraFactory.whereToMakeOne(settings)), and put it in the \(settings.credential.summary) of [[jira]] \(settings.name)"
        case .unreachable: "check url, ca_file, insecure and proxy in [[jira]] \(settings.name), and the network"
        case .invalidJQL: "correct jql in [[jira]] \(settings.name) (try it in Jira's issue search first)"
        case .rateLimited: "wait: Jira limits requests for a while; trackwatch backs off by itself"
        default: "check url in [[jira]] \(settings.name): your Jira site or server, with its context path"
        }
    }

    /// Whether this account sees `project` (Jira answers 400 "does not exist" where it does not).
    private func check(project: String) -> Finding {
        do {
            _ = try JiraReader(api: api, pageSize: 1).search("project = \(project)", fields: ["updated"])
            return Finding(mark: .pass, text: "project \(project) is visible")
        } catch JiraError.server(400, _, _) {
            return Finding(
                mark: .fail, text: "project \(project): Jira says it does not exist or this account cannot see it",
                then: "check projects in [[jira]] \(settings.name), or ask for access; the other projects are watched")
        } catch {
            return Finding(mark: .unknown, text: "project \(project): \(error)")
        }
    }
}

/// `trackwatch probe` of a `[[jira]]` source: the survey as ✔/⚠/✘ lines, and the exchange for `--save`.
struct JiraProbe: SourceProbe {
    let survey: JiraSurvey
    let recorder: JiraTranscript

    func run() -> ProbeReport {
        let outcome = survey.run()
        var report = ProbeReport()
        for finding in outcome.findings { report.add(finding.mark, finding.text, then: finding.then) }
        report.stoppedBy = outcome.stoppedBy
        return report
    }

    func transcript() throws -> [UInt8] { try recorder.json() }
}

/// The exchange of a probe, kept to its shape: method, route (ids and keys replaced by their kind), the query's
/// parameter names, status, content type, `Retry-After` and size. No credential, no value, no issue text.
final class JiraTranscript: Sendable {
    struct Entry: Encodable, Sendable {
        let method: String
        let route: String
        let status: Int?
        let contentType: String?
        let retryAfter: String?
        let bytes: Int
        let error: String?
    }

    private let recording: Bool
    private let entries = Mutex<[Entry]>([])

    init(recording: Bool) { self.recording = recording }

    func wrapping(_ base: any HTTPTransport) -> any HTTPTransport {
        recording ? Recording(base: base, transcript: self) : base
    }

    func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(["jira": entries.withLock { $0 }])) + [0x0A]
    }

    /// `https://x/jira/rest/api/3/issue/10001/comment?orderBy=…` → `/rest/api/3/issue/{id}/comment`.
    static func route(_ url: String) -> String {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        let segments = path.split(separator: "/")
        guard let rest = segments.firstIndex(of: "rest") else { return "/{path}" }
        // `/rest/api/3/…`: the version stays, ids and keys after it go.
        let kept = segments[rest...].prefix(3).map(String.init)
        return "/" + (kept + segments[rest...].dropFirst(3).map { segment in
            segment.allSatisfy(\.isNumber) ? "{id}" : JiraIssueKey.isValid(String(segment)) ? "{key}" : String(segment)
        }).joined(separator: "/")
    }

    private struct Recording: HTTPTransport {
        let base: any HTTPTransport
        let transcript: JiraTranscript

        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            let route = JiraTranscript.route(request.url)
            do {
                let response = try base.send(request)
                transcript.entries.withLock {
                    $0.append(
                        Entry(
                            method: request.method.rawValue, route: route, status: response.status,
                            contentType: response.header("Content-Type").map { String($0.prefix(60)) },
                            retryAfter: response.header("Retry-After").map { String($0.prefix(40)) },
                            bytes: response.body.count, error: nil))
                }
                return response
            } catch let error as TransportError {
                transcript.entries.withLock {
                    $0.append(
                        Entry(
                            method: request.method.rawValue, route: route, status: nil, contentType: nil,
                            retryAfter: nil, bytes: 0, error: "\(error.kind)"))
                }
                throw error
            }
        }

        func closeIdleConnections() { base.closeIdleConnections() }
    }
}
