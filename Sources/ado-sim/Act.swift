import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import SimulatorKit
import NIOHTTP1

/// Plays a colleague through the control route `POST /sim/act` (docs/azure-devops-sim.md, "Acting").
struct Act: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Act as a colleague: assign, set a field, comment, move, delete; request review, vote, push, ….",
        discussion: """
            WI is a work item id (42 or #42), PR a pull request id (!7 or pr7), USER engineer, alice, lead or build \
            (reviewers also "Web Team"), PROJECT Web, Platform or Secret.

            Work items:
              create PROJECT TITLE [--assignee USER] [--type Bug|Task|"User Story"]
              assign WI USER            unassign WI
              set WI FIELD VALUE        (FIELD: State, Title, Priority, Iteration, Area, Tags; "" clears)
              comment WI TEXT           move WI PROJECT
              delete WI                 follow WI / unfollow WI
            Pull requests:
              open PROJECT TITLE [--reviewer USER]
              request-review PR USER    remove-review PR USER
              vote PR 10|5|0|-5|-10     comment PR TEXT
              push PR [MESSAGE]         complete PR / abandon PR

            Example:
              ado-sim act --url http://127.0.0.1:8295 --as alice assign 1 engineer
            """)

    @Option(help: "The server (its origin; a path such as /acme is ignored).") var url: String
    @Option(name: .customLong("as"), help: ArgumentHelp("Who acts.", valueName: "username")) var username: String
    @Option(help: "For create: who the new work item is assigned to.") var assignee: String?
    @Option(help: "For create: the work item type.") var type: String?
    @Option(help: "For open: the first reviewer.") var reviewer: String?
    @Flag(help: "Accept any TLS certificate (a self-signed --tls-certificate).") var insecure = false
    @Argument(help: "One of the verbs above.") var verb: String
    @Argument(help: "The verb's arguments.") var arguments: [String] = []

    /// The JSON body of `POST /sim/act` for the verb.
    func body() throws -> [String: Any] {
        var body: [String: Any] = ["as": username, "verb": verb]
        let a = arguments
        func need(_ count: Int, _ usage: String) throws {
            guard a.count >= count else { throw ValidationError("usage: \(verb) \(usage)") }
        }
        func reference(_ text: String, pull: Bool) throws -> Int {
            var digits = Substring(text)
            for prefix in ["!", "#", "pr", "PR"] where digits.hasPrefix(prefix) { digits = digits.dropFirst(prefix.count) }
            guard let id = Int(digits) else { throw ValidationError("expected \(pull ? "a pull request (!7)" : "a work item id (42)"), got \(text)") }
            return id
        }
        switch verb {
        case "create", "open":
            try need(2, "PROJECT TITLE")
            body["project"] = a[0]
            body["title"] = a[1]
            if let user = verb == "create" ? assignee : reviewer { body["user"] = user }
            if let type { body["type"] = type }
        case "assign", "set", "move", "unassign", "delete", "follow", "unfollow":
            try need(1, "WI …")
            body["workItem"] = try reference(a[0], pull: false)
            switch verb {
            case "assign":
                try need(2, "WI USER")
                body["user"] = a[1]
            case "set":
                try need(3, "WI FIELD VALUE")
                body["field"] = a[1]
                body["value"] = a[2]
            case "move":
                try need(2, "WI PROJECT")
                body["project"] = a[1]
            default: break
            }
        case "comment":
            try need(2, "WI|PR TEXT")
            let pull = a[0].hasPrefix("!") || a[0].lowercased().hasPrefix("pr")
            body[pull ? "pullRequest" : "workItem"] = try reference(a[0], pull: pull)
            body["text"] = a[1]
        case "request-review", "remove-review", "vote", "push", "complete", "abandon":
            try need(1, "PR …")
            body["pullRequest"] = try reference(a[0], pull: true)
            switch verb {
            case "request-review", "remove-review":
                try need(2, "PR USER")
                body["user"] = a[1]
            case "vote":
                try need(2, "PR 10|5|0|-5|-10")
                guard let vote = Int(a[1]) else { throw ValidationError("a vote is 10, 5, 0, -5 or -10") }
                body["vote"] = vote
            case "push": if a.count > 1 { body["text"] = a[1] }
            default: break
            }
        default:
            throw ValidationError("unknown verb \(verb); see ado-sim act --help")
        }
        return body
    }

    func run() throws {
        let act = ActClient(insecure: insecure)
        defer { act.shutDown() }
        let client = act.client
        var request = try HTTPClient.Request(url: Self.origin(url) + "/sim/act", method: .POST)
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .data(try JSONSerialization.data(withJSONObject: try body()))
        let response = try client.execute(request: request, deadline: .now() + .seconds(30)).wait()
        let text = response.body.map { String(buffer: $0) } ?? ""
        guard response.status == .ok else {
            FileHandle.standardError.write(Data("ado-sim act: HTTP \(response.status.code) \(text)\n".utf8))
            throw ExitCode.failure
        }
        print("\(username): \(verb) \(arguments.joined(separator: " ")) → \(text.prefix(300))")
    }

    /// Scheme, host and port of a URL.
    static func origin(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        return String(url[..<scheme.upperBound]) + String(rest.prefix { $0 != "/" })
    }
}
