import Foundation
import TrackerHTTP
import XCTest

/// A jira-sim process on a free loopback port (docs/jira-sim.md), Cloud or Data Center, stopped when released.
final class JiraSim {
    private let server: SimProcess
    /// The site (Cloud) or the server with its context path (Data Center): what `[[jira]] url` holds.
    let url: String
    let isCloud: Bool

    init(dataCenter: Bool = false, _ arguments: [String] = []) throws {
        isCloud = !dataCenter
        let flavour = dataCenter ? ["--flavor", "dc", "--context-path", "/jira"] : []
        server = try SimProcess("jira-sim", flavour + arguments)
        url = server.url + (dataCenter ? "/jira" : "")
    }

    /// `jira-sim act`: a colleague acting through Jira's write API (or the control routes).
    @discardableResult
    func act(_ handle: String, _ verb: String, _ arguments: String...) throws -> RunResult {
        let result = try runProduct("jira-sim", ["act", "--url", url, "--as", handle, verb] + arguments)
        XCTAssertEqual(result.status, 0, "act \(verb) \(arguments) failed: \(result.stderr)")
        return result
    }

    /// A control route under `/sim/`, expected to succeed; its JSON answer.
    @discardableResult
    func control(_ method: HTTPMethod, _ path: String, _ body: String? = nil) throws -> [String: Any] {
        try server.control(method, "/sim/" + path, body)
    }

    /// Changes server variants between polls (`POST /sim/switches`).
    func switches(_ json: String) throws { try control(.post, "switches", json) }

    /// Arms a fault: the next `count` answers to `route` go wrong as `kind` says.
    /// `item`: the history or comment (`entry`) whose `field` is set to `value`, raw JSON (the `item` fault).
    func fault(
        _ kind: String, on route: String, count: Int = 1, status: Int? = nil, retryAfter: Int? = nil,
        item: Int? = nil, entry: String? = nil, field: String? = nil, value: String? = nil
    ) throws {
        var fault: [String: Any] = ["route": route, "kind": kind, "count": count]
        fault["status"] = status
        fault["retryAfter"] = retryAfter
        fault["item"] = item
        fault["entry"] = entry
        fault["field"] = field
        fault["value"] = value
        let body = try JSONSerialization.data(withJSONObject: fault)
        try control(.post, "faults", String(decoding: body, as: UTF8.self))
    }

    func stats() throws -> [String: Any] { try control(.get, "stats") }

    func resetStats() throws { try control(.delete, "stats") }

    /// Requests by route name since the last reset (`GET /search/jql` …).
    func requestsByRoute() throws -> [String: Int] { try stats()["requestsByRoute"] as? [String: Int] ?? [:] }
}

extension Workspace {
    /// A configuration with one `[[jira]]` table for `sim`, as engineer: Cloud with e-mail and API token, Data
    /// Center with a personal access token (or `password`: username and password); `lines` added to the table.
    func useJira(_ sim: JiraSim, password: Bool = false, token: String? = nil, _ lines: [String] = []) throws {
        let signIn: String
        if password {
            signIn = "username = \"engineer\"\npassword_file = \"\(try secretFile("jira-password", "engineer-password"))\""
        } else if sim.isCloud {
            let file = try secretFile("jira-token", token ?? "jira-sim-engineer-token")
            signIn = "email = \"engineer@example.com\"\ntoken_file = \"\(file)\""
        } else {
            signIn = "token_file = \"\(try secretFile("jira-token", token ?? "jira-sim-engineer-pat"))\""
        }
        customConfig = """
            [[jira]]
            url = "\(sim.url)"
            \(signIn)
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
