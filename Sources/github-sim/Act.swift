import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import SimulatorKit
import NIOHTTP1

/// Plays a colleague: through GitHub's own write API with their own token (ghp_sim_HANDLE), and through the
/// simulator's control routes for what only git or GitHub's web UI does (push, transfer, delete).
struct Act: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Act as a colleague on the server: assign, comment, rename, label, close, review, merge, push, ….",
        discussion: """
            REF is owner/repo#number (acme/web#3), HANDLE engineer, alice, lead or dependabot[bot], TEAM \
            acme/reviewers. docs/github-sim.md gives each verb's request.

            Through the API, with the actor's own token:
              assign REF HANDLE...            unassign REF HANDLE...
              comment REF TEXT                rename REF TITLE
              label REF LABEL                 unlabel REF LABEL
              close REF [completed|not_planned]   reopen REF
              create OWNER/REPO TITLE [--assignee HANDLE]
              request-review REF HANDLE|TEAM  remove-review-request REF HANDLE|TEAM
              review REF approve|request-changes|comment [TEXT]
              merge REF
            Through the control routes (/sim/):
              push REF [MESSAGE]              transfer REF OWNER/REPO
              force-push REF (its commits rebased: new shas, their old dates)
              delete REF

            Example:
              github-sim act --url http://127.0.0.1:8292 --as alice assign acme/web#2 engineer
            """)

    @Option(help: "The API root as the client uses it (…/api/v3 for Enterprise Server).") var url: String
    @Option(name: .customLong("as"), help: ArgumentHelp("Who acts.", valueName: "handle")) var handle: String
    @Option(help: "For create: who the new issue is assigned to.") var assignee: String?
    @Flag(help: "Accept any TLS certificate (a self-signed --tls-certificate).") var insecure = false
    @Argument(help: "One of the verbs above.") var verb: String
    @Argument(help: "The verb's arguments.") var arguments: [String] = []

    func run() throws {
        let act = ActClient(insecure: insecure)
        defer { act.shutDown() }
        let client = act.client
        let session = Session(client: client, base: url.hasSuffix("/") ? String(url.dropLast()) : url, handle: handle)
        let (method, path, body) = try request(session)
        let answer = try session.call(method, path, body: body)
        print("\(handle): \(verb) \(arguments.joined(separator: " ")) → \(answer.prefix(300))")
    }

    /// `acme/web#3` as (`acme/web`, 3).
    private func reference(_ text: String) throws -> (repo: String, number: Int) {
        let parts = text.split(separator: "#").map(String.init)
        guard parts.count == 2, parts[0].contains("/"), let number = Int(parts[1]) else {
            throw ValidationError("expected OWNER/REPO#NUMBER, got \(text)")
        }
        return (parts[0], number)
    }

    /// The method, path (under the API root, or `/sim/…`) and body of the verb.
    private func request(_ session: Session) throws -> (HTTPMethod, String, Any?) {
        let a = arguments
        func need(_ count: Int, _ usage: String) throws {
            guard a.count >= count else { throw ValidationError("usage: \(verb) \(usage)") }
        }
        try need(1, "REF …")
        if verb == "create" {
            try need(2, "OWNER/REPO TITLE")
            return (.POST, "/repos/\(a[0])/issues", ["title": a[1], "assignees": assignee.map { [$0] } ?? []])
        }
        let ref = try reference(a[0])
        let issue = "/repos/\(ref.repo)/issues/\(ref.number)", pull = "/repos/\(ref.repo)/pulls/\(ref.number)"
        switch verb {
        case "assign", "unassign":
            try need(2, "REF HANDLE...")
            return (verb == "assign" ? .POST : .DELETE, issue + "/assignees", ["assignees": Array(a.dropFirst())])
        case "comment":
            try need(2, "REF TEXT")
            return (.POST, issue + "/comments", ["body": a[1]])
        case "rename":
            try need(2, "REF TITLE")
            return (.PATCH, issue, ["title": a[1]])
        case "label", "unlabel":
            try need(2, "REF LABEL")
            let current = (try session.object(.GET, issue)["labels"] as? [[String: Any]] ?? [])
                .compactMap { $0["name"] as? String }
            let labels = verb == "label" ? current + [a[1]] : current.filter { $0 != a[1] }
            return (.PATCH, issue, ["labels": labels])
        case "close":
            return (.PATCH, issue, ["state": "closed", "state_reason": a.count > 1 ? a[1] : "completed"])
        case "reopen":
            return (.PATCH, issue, ["state": "open"])
        case "request-review", "remove-review-request":
            try need(2, "REF HANDLE|TEAM")
            let team = a[1].contains("/") ? [String(a[1].split(separator: "/").last!)] : []
            let users = a[1].contains("/") ? [] : [a[1]]
            return (verb == "request-review" ? .POST : .DELETE, pull + "/requested_reviewers",
                ["reviewers": users, "team_reviewers": team])
        case "review":
            try need(2, "REF approve|request-changes|comment [TEXT]")
            let events = ["approve": "APPROVE", "request-changes": "REQUEST_CHANGES", "comment": "COMMENT"]
            guard let event = events[a[1]] else {
                throw ValidationError("review takes approve, request-changes or comment")
            }
            return (.POST, pull + "/reviews", ["event": event, "body": a.count > 2 ? a[2] : ""])
        case "merge":
            return (.PUT, pull + "/merge", [String: Any]())
        case "push":
            return (.POST, "/sim/push", ["repo": ref.repo, "number": ref.number, "author": handle,
                "message": a.count > 1 ? a[1] : "Update from \(handle)"])
        case "force-push":
            return (.POST, "/sim/force-push", ["repo": ref.repo, "number": ref.number, "author": handle])
        case "transfer":
            try need(2, "REF OWNER/REPO")
            return (.POST, "/sim/transfer", ["repo": ref.repo, "number": ref.number, "to": a[1], "as": handle])
        case "delete":
            return (.POST, "/sim/delete", ["repo": ref.repo, "number": ref.number])
        default:
            throw ValidationError("unknown verb \(verb); see github-sim act --help")
        }
    }
}

/// The HTTP side of `act`: the actor's token, JSON in and out, a failure for any status but 2xx.
private struct Session {
    let client: HTTPClient
    /// The API root: scheme, host, port and base path.
    let base: String
    let handle: String

    /// Where `/sim/` lives: the host's root, whatever the base path.
    private var root: String {
        guard let scheme = base.range(of: "://"), let slash = base[scheme.upperBound...].firstIndex(of: "/") else {
            return base
        }
        return String(base[..<slash])
    }

    /// The answer's status and body as text.
    func call(_ method: HTTPMethod, _ path: String, body: Any?) throws -> String {
        var request = try HTTPClient.Request(url: (path.hasPrefix("/sim/") ? root : base) + path, method: method)
        if !path.hasPrefix("/sim/") { request.headers.add(name: "Authorization", value: "Bearer ghp_sim_\(handle)") }
        request.headers.add(name: "Accept", value: "application/vnd.github+json")
        request.headers.add(name: "X-GitHub-Api-Version", value: "2026-03-10")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .data(try JSONSerialization.data(withJSONObject: body))
        }
        let response = try client.execute(request: request, deadline: .now() + .seconds(30)).wait()
        let text = response.body.map { String(buffer: $0) } ?? ""
        guard (200..<300).contains(Int(response.status.code)) else {
            FileHandle.standardError.write(
                Data("github-sim act: \(method.rawValue) \(path) → HTTP \(response.status.code) \(text)\n".utf8))
            throw ExitCode.failure
        }
        return "\(response.status.code) \(text)"
    }

    func object(_ method: HTTPMethod, _ path: String) throws -> [String: Any] {
        let text = try call(method, path, body: nil).drop { $0 != " " }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }
}
