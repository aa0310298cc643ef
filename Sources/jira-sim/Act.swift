import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import SimulatorKit
import NIOHTTP1

/// Plays a colleague: through Jira's own write API with their own credentials, and through the simulator's
/// control routes for what only an admin's screens can do (move, delete). The flavour comes from `serverInfo`.
struct Act: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Act as a colleague on the server: assign, transition, edit, comment, create, move, delete.",
        discussion: """
            KEY is an issue key (WEB-3), HANDLE engineer, alice, lead or automation. docs/jira-sim.md gives each \
            verb's request.

            Through the API, with the actor's own credentials (Cloud: API token; Data Center: PAT):
              assign KEY HANDLE|none
              transition KEY "To Do"|"In Progress"|"Done"
              edit KEY FIELD=VALUE...      (summary, description, priority, labels=a,b, fixVersions=1.0,2.0)
              comment KEY TEXT
              create PROJECT SUMMARY [--assignee HANDLE]
            Through the control routes (/sim/):
              move KEY PROJECT
              delete KEY

            Example:
              jira-sim act --url http://127.0.0.1:8291 --as alice assign WEB-3 engineer
            """)

    @Option(help: "Server URL as printed by serve, with the context path on Data Center (…/jira).") var url: String
    @Option(name: .customLong("as"), help: ArgumentHelp("Who acts.", valueName: "handle")) var handle: String
    @Option(help: "For create: who the new issue is assigned to.") var assignee: String?
    @Flag(help: "Accept any TLS certificate (a self-signed --tls-certificate).") var insecure = false
    @Argument(help: "One of the verbs above.") var verb: String
    @Argument(help: "The verb's arguments.") var arguments: [String] = []

    func run() throws {
        let act = ActClient(insecure: insecure)
        defer { act.shutDown() }
        let client = act.client
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        var session = Session(client: client, base: base, handle: handle, cloud: true)
        let info = try session.object(.GET, "/rest/api/2/serverInfo")
        session.cloud = info["deploymentType"] as? String == "Cloud"
        let (method, path, body) = try request(session)
        print("\(handle): \(verb) \(arguments.joined(separator: " ")) → \(try session.call(method, path, body: body))")
    }

    /// The method, path (under the site, or `/sim/…`) and body of the verb.
    private func request(_ session: Session) throws -> (HTTPMethod, String, Any?) {
        let a = arguments
        func need(_ count: Int, _ usage: String) throws {
            guard count == 0 ? a.count >= 2 : a.count == count else { throw ValidationError("usage: \(verb) \(usage)") }
        }
        let issue = "/rest/api/2/issue/" + (a.first ?? "")
        switch verb {
        case "assign":
            try need(2, "KEY HANDLE|none")
            return (.PUT, issue + "/assignee", [session.cloud ? "accountId" : "name": session.userID(a[1])])
        case "transition":
            try need(2, "KEY STATUS")
            let list = try session.object(.GET, issue + "/transitions")["transitions"] as? [[String: Any]] ?? []
            guard let id = list.first(where: { ($0["name"] as? String)?.lowercased() == a[1].lowercased() })?["id"]
            else { throw ValidationError("\(a[0]) has no transition to \(a[1])") }
            return (.POST, issue + "/transitions", ["transition": ["id": id]])
        case "edit":
            try need(0, "KEY FIELD=VALUE...")
            return (.PUT, issue, ["fields": try fields(a.dropFirst())])
        case "comment":
            try need(2, "KEY TEXT")
            return (.POST, issue + "/comment", ["body": a[1]])
        case "create":
            try need(2, "PROJECT SUMMARY")
            var fields: [String: Any] = ["project": ["key": a[0]], "summary": a[1], "issuetype": ["name": "Task"]]
            if let assignee { fields["assignee"] = [session.cloud ? "accountId" : "name": session.userID(assignee)] }
            return (.POST, "/rest/api/2/issue", ["fields": fields])
        case "move":
            try need(2, "KEY PROJECT")
            return (.POST, "/sim/move", ["issue": a[0], "project": a[1], "as": handle])
        case "delete":
            try need(1, "KEY")
            return (.POST, "/sim/delete", ["issue": a[0]])
        default:
            throw ValidationError("unknown verb \(verb); see jira-sim act --help")
        }
    }

    private func fields(_ pairs: ArraySlice<String>) throws -> [String: Any] {
        var fields: [String: Any] = [:]
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 else { throw ValidationError("expected FIELD=VALUE, got \(pair)") }
            let list = parts[1].split(separator: ",").map(String.init)
            switch parts[0] {
            case "priority": fields["priority"] = ["name": parts[1]]
            case "labels": fields["labels"] = list
            case "fixVersions": fields["fixVersions"] = list.map { ["name": $0] }
            default: fields[parts[0]] = parts[1]
            }
        }
        return fields
    }
}

/// The HTTP side of `act`: the actor's credentials, JSON in and out, a failure for any status but 2xx.
private struct Session {
    let client: HTTPClient
    /// The site: scheme, host, port and context path.
    let base: String
    let handle: String
    var cloud: Bool

    /// Where `/sim/` lives: the host's root, whatever the context path.
    private var root: String {
        guard let scheme = base.range(of: "://"), let slash = base[scheme.upperBound...].firstIndex(of: "/") else {
            return base
        }
        return String(base[..<slash])
    }

    private var authorization: String {
        guard cloud else { return "Bearer jira-sim-\(handle)-pat" }
        let login = handle == "automation" ? "automation@connect.atlassian.com" : "\(handle)@example.com"
        return "Basic " + Data("\(login):jira-sim-\(handle)-token".utf8).base64EncodedString()
    }

    /// How the API names a person: accountId on Cloud, name on Data Center; NSNull for `none`.
    func userID(_ handle: String) -> Any { handle == "none" ? NSNull() : (cloud ? "acc-\(handle)" : handle) }

    /// The answer's status and body as text.
    func call(_ method: HTTPMethod, _ path: String, body: Any?) throws -> String {
        var request = try HTTPClient.Request(url: (path.hasPrefix("/sim/") ? root : base) + path, method: method)
        if !path.hasPrefix("/sim/") { request.headers.add(name: "Authorization", value: authorization) }
        request.headers.add(name: "Accept", value: "application/json")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .data(try JSONSerialization.data(withJSONObject: body))
        }
        let response = try client.execute(request: request, deadline: .now() + .seconds(30)).wait()
        let text = response.body.map { String(buffer: $0) } ?? ""
        guard (200..<300).contains(Int(response.status.code)) else {
            FileHandle.standardError.write(
                Data("jira-sim act: \(method.rawValue) \(path) → HTTP \(response.status.code) \(text)\n".utf8))
            throw ExitCode.failure
        }
        return "\(response.status.code) \(text)"
    }

    func object(_ method: HTTPMethod, _ path: String) throws -> [String: Any] {
        let text = try call(method, path, body: nil).drop { $0 != " " }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }
}
