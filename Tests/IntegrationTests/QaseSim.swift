import Foundation
import TrackerHTTP
import XCTest

/// A qase-sim process on a free loopback port (docs/qase-sim.md), stopped when the value is released.
final class QaseSim {
    private let server: SimProcess
    /// The server as it printed itself, without the API's base path.
    var root: String { server.url }
    /// The API base trackwatch is configured with.
    let apiURL: String

    init(_ arguments: [String] = [], basePath: String = "/v1") throws {
        server = try SimProcess("qase-sim", ["--base-path", basePath] + arguments)
        apiURL = server.url + basePath
    }

    /// `qase-sim act`: a colleague acting through the API (or the web UI's control routes).
    @discardableResult
    func act(_ handle: String, _ verb: String, _ arguments: String...) throws -> RunResult {
        let result = try runProduct("qase-sim", ["act", "--url", apiURL, "--as", handle, verb] + arguments)
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

    /// Arms a fault: the next `count` answers to `route` go wrong as `kind` says (docs/qase-sim.md, Faults).
    func fault(
        _ kind: String, on route: String, count: Int = 1, status: Int? = nil, after: Int? = nil,
        size: Int? = nil
    ) throws {
        var fault: [String: Any] = ["route": route, "kind": kind, "count": count]
        fault["status"] = status
        fault["after"] = after
        fault["size"] = size
        let body = try JSONSerialization.data(withJSONObject: fault)
        try control(.post, "faults", String(decoding: body, as: UTF8.self))
    }

    func stats() throws -> [String: Any] { try control(.get, "stats") }

    func resetStats() throws { try control(.delete, "stats") }

    /// API requests so far (`requests` of the stats).
    func requestCount() throws -> Int { try stats()["requests"] as? Int ?? -1 }
}

extension Workspace {
    /// A configuration with one `[[qase]]` table for `sim`, as `engineer` (its fixture token in a 0600 file), and
    /// `lines` added to the table; `[poll]` and the `trailer` as the workspace has them.
    func useQase(_ sim: QaseSim, token: String = "qase-sim-engineer-token", _ lines: [String] = []) throws {
        let file = try secretFile("qase-token", token)
        customConfig = """
            [[qase]]
            url = "\(sim.apiURL)"
            web_url = "https://app.qase.example"
            email = "engineer@example.com"
            token_file = "\(file)"
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
