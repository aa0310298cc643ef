import Foundation
import TrackerHTTP
import XCTest

/// A forgejo-sim process on a free loopback port (docs/forgejo-sim.md), stopped when released.
final class ForgejoSim {
    private let server: SimProcess
    /// The web root: what `[[forgejo]] url` holds (with `--sub-path`, under it).
    var url: String { server.url + subPath }
    private let subPath: String

    init(_ arguments: [String] = []) throws {
        server = try SimProcess("forgejo-sim", arguments)
        subPath = arguments.firstIndex(of: "--sub-path").map { arguments[$0 + 1] } ?? ""
    }

    /// A colleague acting (`POST /sim/act`): `verb` on `item` (`acme/web#3`) with `value` (a login, a text).
    @discardableResult
    func act(_ login: String, _ verb: String, _ item: String, _ value: String = "") throws -> [String: Any] {
        let body = try JSONSerialization.data(withJSONObject: ["as": login, "verb": verb, "item": item, "value": value])
        return try server.control(.post, "/sim/act", String(decoding: body, as: UTF8.self))
    }

    func switches(_ json: String) throws { try server.control(.post, "/sim/switches", json) }

    /// A repository renamed or transferred (`{"rename": "acme/web", "to": "acme/site"}`), deleted
    /// (`{"delete": …}`) or no longer readable (`{"revoke": …}`).
    func repos(_ json: String) throws { try server.control(.post, "/sim/repos", json) }

    /// Arms a fault: the next `count` answers to `route` (`search`, `timeline`, …, or `*`) go wrong as `kind` says
    /// (`500`, `html503`, `html429`, `html`, `truncated`, `hang`).
    /// `item`: the issue or pull request whose `field` is set to `value`, raw JSON (the `item` fault).
    func fault(
        _ kind: String, on route: String, count: Int = 1, retryAfter: Int? = nil, item: Int? = nil,
        field: String? = nil, value: String? = nil
    ) throws {
        var fault: [String: Any] = ["route": route, "kind": kind, "count": count]
        fault["retryAfter"] = retryAfter
        fault["item"] = item
        fault["field"] = field
        fault["value"] = value
        let body = try JSONSerialization.data(withJSONObject: fault)
        try server.control(.post, "/sim/faults", String(decoding: body, as: UTF8.self))
    }

    func clearFaults() throws { try server.control(.delete, "/sim/faults") }

    /// `count` more issues assigned to engineer in `repo`.
    func seed(_ count: Int, in repo: String = "acme/web") throws {
        try server.control(.post, "/sim/seed", #"{"count": \#(count), "repo": "\#(repo)"}"#)
    }

    func stats() throws -> [String: Any] { try server.control(.get, "/sim/stats") }
    func resetStats() throws { try server.control(.delete, "/sim/stats") }
}

extension Workspace {
    /// A configuration with one `[[forgejo]]` table for `sim`, as engineer.
    func useForgejo(_ sim: ForgejoSim, token: String = "fj_sim_engineer", _ lines: [String] = []) throws {
        customConfig = """
            [[forgejo]]
            url = "\(sim.url)"
            token_file = "\(try secretFile("forgejo-token", token))"
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
