import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import SimulatorKit
import NIOHTTP1

/// Plays a colleague: through the real API with their own token where Qase has a write route, and through the
/// simulator's control routes for what only Qase's web UI can do.
struct Act: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Act as a colleague on the server: edit a case, resolve a defect, approve a review, …",
        discussion: """
            CODE is a project code, HANDLE lead, engineer, alice or bob. FIELD=VALUE takes the API's field \
            names; severity, priority, type, behavior, status (of a case), suite_id and milestone_id are \
            numbers, tags=a,b a list. docs/qase-sim.md gives each verb's request.

            Through the API, with the actor's own token:
              edit-case CODE ID FIELD=VALUE...
              create-case CODE TITLE [FIELD=VALUE...]
              delete-case CODE ID
              create-defect CODE TITLE [FIELD=VALUE...]
              edit-defect CODE ID FIELD=VALUE...
              resolve-defect CODE ID
              defect-status CODE ID in_progress|resolved|invalid
              plan-cases CODE PLAN CASE...
              add-reviewer CODE REVIEW HANDLE
              remove-reviewer CODE REVIEW HANDLE
            What only Qase's web UI can do (control routes under /sim/):
              assign-defect CODE ID HANDLE|none
              reopen-defect CODE ID
              assign-plan-case CODE PLAN CASE HANDLE|none
              approve CODE REVIEW
              request-changes CODE REVIEW
              unapprove CODE REVIEW
              review-status CODE REVIEW open|merged|declined
              rename-project CODE NEWCODE

            Example:
              qase-sim act --url http://127.0.0.1:8191 --as alice \\
                edit-case DEMO 4 title="Checkout totals"
            """)

    @Option(help: "Server URL as printed by serve (the base path is appended unless present).") var url: String
    @Option(
        name: .customLong("as"),
        help: ArgumentHelp("Who acts: lead, engineer, alice, bob, or jenkins (the reporter app).", valueName: "handle"))
    var handle: String
    @Option(help: "The actor's API token (default: the fixture token qase-sim-HANDLE-token).") var token: String?
    @Option(help: "The API's base path on the server.") var basePath = "/v1"
    @Flag(help: "Accept any TLS certificate (a self-signed --tls-certificate).") var insecure = false
    @Argument(help: "One of the verbs above.") var verb: String
    @Argument(help: "The verb's arguments.") var arguments: [String] = []

    func run() throws {
        let act = ActClient(insecure: insecure)
        defer { act.shutDown() }
        let client = act.client
        let session = Session(client: client, root: root, api: root + basePath, token: token ?? defaultToken)
        let (method, path, body) = try request(session)
        let answer = try session.call(method, path, body: body)
        print("\(handle): \(verb) \(arguments.joined(separator: " ")) → \(answer)")
    }

    private var root: String {
        var root = url.hasSuffix("/") ? String(url.dropLast()) : url
        if root.hasSuffix(basePath) { root = String(root.dropLast(basePath.count)) }
        return root
    }

    private var defaultToken: String { handle == "jenkins" ? "qase-sim-jenkins-app-token" : "qase-sim-\(handle)-token" }

    /// The method, the path (under the API, or `/sim/…` for the web UI's actions) and the body of the verb.
    private func request(_ session: Session) throws -> (HTTPMethod, String, Any?) {
        let a = arguments
        func need(_ count: Int, _ usage: String) throws {
            guard a.count >= count else { throw ValidationError("usage: \(verb) \(usage)") }
        }
        switch verb {
        case "edit-case":
            try need(3, "CODE ID FIELD=VALUE...")
            return (.PATCH, "/case/\(a[0])/\(a[1])", try fields(a.dropFirst(2)))
        case "create-case":
            try need(2, "CODE TITLE [FIELD=VALUE...]")
            return (.POST, "/case/\(a[0])", try fields(a.dropFirst(2)).merging(["title": a[1]]) { $1 })
        case "delete-case":
            try need(2, "CODE ID")
            return (.DELETE, "/case/\(a[0])/\(a[1])", nil)
        case "create-defect":
            try need(2, "CODE TITLE [FIELD=VALUE...]")
            let defaults: [String: Any] = ["title": a[1], "actual_result": "Seen by \(handle).", "severity": 4]
            return (.POST, "/defect/\(a[0])", defaults.merging(try fields(a.dropFirst(2))) { $1 })
        case "edit-defect":
            try need(3, "CODE ID FIELD=VALUE...")
            return (.PATCH, "/defect/\(a[0])/\(a[1])", try fields(a.dropFirst(2)))
        case "resolve-defect":
            try need(2, "CODE ID")
            return (.PATCH, "/defect/\(a[0])/resolve/\(a[1])", [String: Any]())
        case "defect-status":
            try need(3, "CODE ID in_progress|resolved|invalid")
            return (.PATCH, "/defect/\(a[0])/status/\(a[1])", ["status": a[2]])
        case "plan-cases":
            try need(2, "CODE PLAN CASE...")
            return (.PATCH, "/plan/\(a[0])/\(a[1])", ["cases": try a.dropFirst(2).map(number)])
        case "add-reviewer", "remove-reviewer":
            try need(3, "CODE REVIEW HANDLE")
            return (.PATCH, "/review/\(a[0])/\(a[1])", ["reviewers": try reviewers(session, a[0], a[1], a[2])])
        default:
            return try webRequest()
        }
    }

    private func webRequest() throws -> (HTTPMethod, String, Any?) {
        let a = arguments
        func need(_ count: Int, _ usage: String) throws {
            guard a.count == count else { throw ValidationError("usage: \(verb) \(usage)") }
        }
        switch verb {
        case "reopen-defect":
            try need(2, "CODE ID")
            return (.POST, "/sim/defect/\(a[0])/\(a[1])/reopen", [String: Any]())
        case "assign-defect":
            try need(3, "CODE ID HANDLE|none")
            let path = "/sim/defect/\(a[0])/\(a[1])/assignee"
            return a[2] == "none" ? (.DELETE, path, nil) : (.PUT, path + "/\(a[2])", nil)
        case "assign-plan-case":
            try need(4, "CODE PLAN CASE HANDLE|none")
            let path = "/sim/plan/\(a[0])/\(a[1])/case/\(a[2])/assignee"
            return a[3] == "none" ? (.DELETE, path, nil) : (.PUT, path + "/\(a[3])", nil)
        case "approve", "request-changes", "unapprove":
            try need(2, "CODE REVIEW")
            let status = ["approve": "approved", "request-changes": "changes_requested", "unapprove": "unapproved"][
                verb]!
            return (.POST, "/sim/review/\(a[0])/\(a[1])/reviewer/\(handle)", ["status": status])
        case "review-status":
            try need(3, "CODE REVIEW open|merged|declined")
            return (.POST, "/sim/review/\(a[0])/\(a[1])/status", ["status": a[2]])
        case "rename-project":
            try need(2, "CODE NEWCODE")
            return (.POST, "/sim/project/\(a[0])/rename", ["code": a[1]])
        default:
            throw ValidationError("unknown verb \(verb); see qase-sim act --help")
        }
    }

    /// The review's reviewers (author UUIDs) with HANDLE added or removed.
    private func reviewers(_ session: Session, _ code: String, _ id: String, _ who: String) throws -> [String] {
        let review = try session.object(.GET, "/review/\(code)/\(id)")
        let result = review["result"] as? [String: Any] ?? [:]
        var uuids = (result["reviewers"] as? [[String: Any]] ?? []).compactMap { $0["author_uuid"] as? String }
        let authors = try session.object(.GET, "/author?type=user&limit=100")
        let entities = (authors["result"] as? [String: Any])?["entities"] as? [[String: Any]] ?? []
        guard let uuid = entities.first(where: { $0["email"] as? String == "\(who)@example.com" })?["uuid"] as? String
        else {
            throw ValidationError("no author \(who)")
        }
        uuids.removeAll { $0 == uuid }
        if verb == "add-reviewer" { uuids.append(uuid) }
        return uuids
    }

    private func fields(_ pairs: ArraySlice<String>) throws -> [String: Any] {
        let numeric: Set = [
            "severity", "priority", "type", "behavior", "layer", "is_flaky", "status", "suite_id", "milestone_id",
        ]
        var body: [String: Any] = [:]
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw ValidationError("expected FIELD=VALUE, got \(pair)") }
            switch parts[0] {
            case "tags": body["tags"] = parts[1].split(separator: ",").map(String.init)
            case let name where numeric.contains(name) && !(verb.hasSuffix("defect") && name == "status"):
                body[name] = try number(parts[1])
            default: body[parts[0]] = parts[1]
            }
        }
        return body
    }

    private func number(_ text: String) throws -> Int {
        guard let value = Int(text) else { throw ValidationError("\(text) is not a number") }
        return value
    }
}

/// The HTTP side of `act`: the `Token` header, JSON in and out, a failure for any status but 2xx.
private struct Session {
    let client: HTTPClient
    let root: String
    let api: String
    let token: String

    /// The answer's body as text; `path` is under the API unless it starts with `/sim/`.
    func call(_ method: HTTPMethod, _ path: String, body: Any?) throws -> String {
        var request = try HTTPClient.Request(url: (path.hasPrefix("/sim/") ? root : api) + path, method: method)
        request.headers.add(name: "Token", value: token)
        request.headers.add(name: "Accept", value: "application/json")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .data(try JSONSerialization.data(withJSONObject: body))
        }
        let response = try client.execute(request: request, deadline: .now() + .seconds(30)).wait()
        let text = response.body.map { String(buffer: $0) } ?? ""
        guard (200..<300).contains(Int(response.status.code)) else {
            FileHandle.standardError.write(
                Data("qase-sim act: \(method.rawValue) \(path) → HTTP \(response.status.code) \(text)\n".utf8))
            throw ExitCode.failure
        }
        return "\(response.status.code) \(text)"
    }

    func object(_ method: HTTPMethod, _ path: String) throws -> [String: Any] {
        let text = try call(method, path, body: nil).drop { $0 != " " }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }
}
