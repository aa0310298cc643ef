import Foundation
import TrackerHTTP
import XCTest

/// An ado-sim process on a free loopback port (docs/azure-devops-sim.md), stopped when released.
final class AzureDevOpsSim {
    private let server: SimProcess
    /// The organization (`/acme`), or with `--server` the collection (`/tfs/DefaultCollection`): what
    /// `[[azure_devops]] url` holds.
    let url: String
    var origin: String { server.url }

    init(_ arguments: [String] = []) throws {
        server = try SimProcess("ado-sim", arguments)
        url = server.url + (arguments.contains("--server") ? "/tfs/DefaultCollection" : "/acme")
    }

    /// A colleague acting (`POST /sim/act`), e.g. `act("alice", "assign", workItem: 4, ["user": "engineer"])`.
    @discardableResult
    func act(
        _ username: String, _ verb: String, workItem: Int? = nil, pullRequest: Int? = nil, _ more: [String: Any] = [:]
    )
        throws -> [String: Any]
    {
        var body: [String: Any] = ["as": username, "verb": verb]
        body["workItem"] = workItem
        body["pullRequest"] = pullRequest
        body.merge(more) { _, new in new }
        return try control(.post, "act", body)
    }

    @discardableResult
    func control(_ method: HTTPMethod, _ path: String, _ body: [String: Any]? = nil) throws -> [String: Any] {
        let text = try body.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        return try server.control(method, "/sim/" + path, text)
    }

    func switches(_ values: [String: Any]) throws { try control(.post, "switches", values) }

    /// The next `count` answers to `route` (`POST wiql`, `GET threads`; "" for any) go wrong as `kind` says.
    /// `item`: the work item (on `GET threads`, the thread) whose `field` is set to `value`, raw JSON (the `item`
    /// fault).
    func fault(
        _ kind: String, on route: String, count: Int = 1, status: Int? = nil, retryAfter: Int? = nil,
        item: Int? = nil, field: String? = nil, value: String? = nil
    ) throws {
        var fault: [String: Any] = ["route": route, "kind": kind, "count": count]
        fault["status"] = status
        fault["retryAfter"] = retryAfter
        fault["item"] = item
        fault["field"] = field
        fault["value"] = value
        try control(.post, "faults", fault)
    }

    func requestsByRoute() throws -> [String: Int] {
        try control(.get, "stats")["requestsByRoute"] as? [String: Int] ?? [:]
    }
    func resetStats() throws { try control(.delete, "stats") }
    /// A minute passes between rounds, as between polls.
    func later(_ seconds: Int = 60) throws { try control(.post, "clock", ["advance": seconds]) }
}

extension Workspace {
    /// A configuration with one `[[azure_devops]]` table for `sim`, as engineer.
    func useAzureDevOps(_ sim: AzureDevOpsSim, token: String = "adosim-pat-engineer", _ lines: [String] = []) throws {
        customConfig = """
            [[azure_devops]]
            url = "\(sim.url)"
            token_file = "\(try secretFile("ado-pat", token))"
            timeout = "\(timeout)"
            \(lines.joined(separator: "\n"))
            [poll]
            interval = "\(interval)"
            \(extraPollLines.joined(separator: "\n"))
            \(trailer)
            """
        try writeConfig()
    }
}
