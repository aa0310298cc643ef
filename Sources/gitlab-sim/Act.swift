import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import SimulatorKit
import NIOHTTP1

/// Plays a colleague: through GitLab's own API v4 with their own token (glpat-sim-USERNAME), and through the
/// simulator's control routes for what only git does (push).
struct Act: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Act as a colleague on the server: assign, comment, rename, label, close, approve, merge, push, ….",
        discussion: """
            REF is platform/web#42 (an issue) or platform/web!7 (a merge request), USER engineer, alice, lead or \
            project_42_bot_1a2b, PROJECT platform/web. docs/gitlab-sim.md gives each verb's request.

            Through the API, with the actor's own token:
              assign REF USER...              unassign REF USER...
              request-review MR USER...       remove-review MR USER...
              comment REF TEXT                rename REF TITLE
              edit-description REF TEXT       milestone REF v1.0|v2.0|none
              label REF LABEL                 unlabel REF LABEL
              close REF                       reopen REF
              approve MR                      unapprove MR
              merge MR                        move ISSUE PROJECT
              create PROJECT TITLE [--assignee USER]
            Through the control routes (/sim/):
              push MR [MESSAGE] [--author NAME]   (the actor pushes; the commit's author defaults to the actor)

            Example:
              gitlab-sim act --url http://127.0.0.1:8293 --as alice assign platform/web#2 engineer
            """)

    @Option(help: "The server's root (the API is ROOT/api/v4).") var url: String
    @Option(name: .customLong("as"), help: ArgumentHelp("Who acts.", valueName: "username")) var username: String
    @Option(help: "For create: who the new issue is assigned to.") var assignee: String?
    @Option(help: "For push: the commit's author (default: the actor).") var author: String?
    @Flag(help: "Accept any TLS certificate (a self-signed --tls-certificate).") var insecure = false
    @Argument(help: "One of the verbs above.") var verb: String
    @Argument(help: "The verb's arguments.") var arguments: [String] = []

    func run() throws {
        let act = ActClient(insecure: insecure)
        defer { act.shutDown() }
        let client = act.client
        var root = url.hasSuffix("/") ? String(url.dropLast()) : url
        if root.hasSuffix("/api/v4") { root = String(root.dropLast(7)) }
        let session = ActSession(client: client, root: root, username: username)
        let (method, path, body) = try ActRequests(verb: verb, arguments: arguments, assignee: assignee,
            author: author ?? username, session: session).request()
        let answer = try session.call(method, path, body: body)
        print("\(username): \(verb) \(arguments.joined(separator: " ")) → \(answer.prefix(300))")
    }
}

/// The HTTP side of `act`: the actor's token, JSON in and out, a failure for any status but 2xx.
struct ActSession {
    let client: HTTPClient
    /// Scheme, host and port.
    let root: String
    let username: String

    /// The answer's status and body as text; `path` is under `/api/v4`, or `/sim/…`.
    func call(_ method: HTTPMethod, _ path: String, body: Any?) throws -> String {
        let target = path.hasPrefix("/sim/") ? root + path : root + "/api/v4" + path
        var request = try HTTPClient.Request(url: target, method: method)
        if !path.hasPrefix("/sim/") { request.headers.add(name: "PRIVATE-TOKEN", value: "glpat-sim-\(username)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .data(try JSONSerialization.data(withJSONObject: body))
        }
        let response = try client.execute(request: request, deadline: .now() + .seconds(30)).wait()
        let text = response.body.map { String(buffer: $0) } ?? ""
        guard (200..<300).contains(Int(response.status.code)) else {
            FileHandle.standardError.write(
                Data("gitlab-sim act: \(method.rawValue) \(path) → HTTP \(response.status.code) \(text)\n".utf8))
            throw ExitCode.failure
        }
        return "\(response.status.code) \(text)"
    }

    func json(_ path: String) throws -> Any? {
        let text = try call(.GET, path, body: nil).drop { $0 != " " }
        return try? JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    func object(_ path: String) throws -> [String: Any] { try json(path) as? [String: Any] ?? [:] }

    /// The id of the user with this username (`GET /users?username=`).
    func userID(_ username: String) throws -> Int {
        let bare = username.hasPrefix("@") ? String(username.dropFirst()) : username
        guard let users = try json("/users?username=\(bare)") as? [[String: Any]],
            let id = users.first?["id"] as? Int
        else { throw ValidationError("no user \(username)") }
        return id
    }
}
