import Foundation
import TrackerHTTP
import XCTest

/// A github-sim process on a free loopback port (docs/github-sim.md), at `/` as github.com or under `/api/v3` as
/// an Enterprise Server, stopped when released.
final class GitHubSim {
    private let server: SimProcess
    /// The API's base: what `[[github]] url` holds.
    let url: String

    init(enterprise: Bool = false, _ arguments: [String] = []) throws {
        server = try SimProcess("github-sim", (enterprise ? ["--base-path", "/api/v3"] : []) + arguments)
        url = server.url + (enterprise ? "/api/v3" : "")
    }

    /// `github-sim act`: a colleague acting through GitHub's API (or the control routes).
    @discardableResult
    func act(_ login: String, _ verb: String, _ arguments: String...) throws -> RunResult {
        let result = try runProduct("github-sim", ["act", "--url", url, "--as", login, verb] + arguments)
        XCTAssertEqual(result.status, 0, "act \(verb) \(arguments) failed: \(result.stdout) \(result.stderr)")
        return result
    }

    @discardableResult
    func control(_ method: HTTPMethod, _ path: String, _ body: String? = nil) throws -> [String: Any] {
        try server.control(method, "/sim/" + path, body)
    }

    func switches(_ json: String) throws { try control(.post, "switches", json) }

    /// Arms a fault: the next `count` answers to `route` (a stats name) go wrong as `kind` says.
    func fault(_ kind: String, on route: String, count: Int = 1, status: Int? = nil, retryAfter: Int? = nil,
               page: Int? = nil, item: Int? = nil, field: String? = nil, value: String? = nil, size: Int? = nil) throws {
        var fault: [String: Any] = ["route": route, "kind": kind, "count": count]
        fault["status"] = status
        fault["retryAfter"] = retryAfter
        fault["page"] = page
        fault["item"] = item
        fault["field"] = field
        fault["value"] = value
        fault["size"] = size
        let body = try JSONSerialization.data(withJSONObject: fault)
        try control(.post, "faults", String(decoding: body, as: UTF8.self))
    }

    func stats() throws -> [String: Any] { try control(.get, "stats") }
    func resetStats() throws { try control(.delete, "stats") }
}

extension Workspace {
    /// A configuration with one `[[github]]` table for `sim`, as engineer (`token`: classic by default).
    func useGitHub(_ sim: GitHubSim, token: String = "ghp_sim_engineer", _ lines: [String] = []) throws {
        customConfig = """
            [[github]]
            url = "\(sim.url)"
            token_file = "\(try secretFile("github-token", token))"
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
