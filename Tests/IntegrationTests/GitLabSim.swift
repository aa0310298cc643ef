import Foundation
import TrackerHTTP
import XCTest

/// A gitlab-sim process on a free loopback port (docs/gitlab-sim.md), stopped when released.
final class GitLabSim {
    private let server: SimProcess
    /// The instance (without /api/v4): what `[[gitlab]] url` holds.
    var url: String { server.url }

    init(_ arguments: [String] = []) throws {
        server = try SimProcess("gitlab-sim", arguments)
    }

    /// `gitlab-sim act`: a colleague acting through GitLab's API.
    @discardableResult
    func act(_ username: String, _ verb: String, _ arguments: String...) throws -> RunResult {
        let result = try runProduct("gitlab-sim", ["act", "--url", url, "--as", username, verb] + arguments)
        XCTAssertEqual(result.status, 0, "act \(verb) \(arguments) failed: \(result.stderr)")
        return result
    }

    @discardableResult
    func control(_ method: HTTPMethod, _ path: String, _ body: String? = nil) throws -> [String: Any] {
        try server.control(method, "/sim/" + path, body)
    }

    func switches(_ json: String) throws { try control(.post, "switches", json) }

    func fault(_ kind: String, on route: String, count: Int = 1, status: Int? = nil, retryAfter: Int? = nil,
               item: Int? = nil, field: String? = nil, value: String? = nil) throws {
        var fault: [String: Any] = ["route": route, "kind": kind, "count": count]
        fault["status"] = status
        fault["retryAfter"] = retryAfter
        fault["item"] = item
        fault["field"] = field
        fault["value"] = value
        let body = try JSONSerialization.data(withJSONObject: fault)
        try control(.post, "faults", String(decoding: body, as: UTF8.self))
    }

    func stats() throws -> [String: Any] { try control(.get, "stats") }
    func resetStats() throws { try control(.delete, "stats") }
    /// GitLab's times have milliseconds, but tests act within one: a minute passes between rounds, as polls do.
    func later() throws { try control(.post, "clock", #"{"advance": 60}"#) }
}

extension Workspace {
    func useGitLab(_ sim: GitLabSim, token: String = "glpat-sim-engineer", _ lines: [String] = []) throws {
        customConfig = """
            [[gitlab]]
            url = "\(sim.url)"
            token_file = "\(try secretFile("gitlab-token", token))"
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
