import Foundation
import TrackerHTTP
import XCTest

/// A json-sim process on a free loopback port (docs/json-sim.md), stopped when the value is released. Its
/// variants are chosen by path, so one process serves a whole test class (`JSONSimTestCase`).
final class JSONSim {
    private let server: SimProcess
    /// `http://127.0.0.1:PORT`, as it printed itself.
    var url: String { server.url }
    /// The second listener on 127.0.0.2 ("another host"), when it could bind.
    private(set) var otherURL: String?
    /// The HTTPS listener, when started with a certificate.
    private(set) var httpsURL: String?

    init(_ arguments: [String] = []) throws {
        server = try SimProcess("json-sim", arguments)
        // The other listeners' lines follow at once; the server knows them, so ask it instead of reading on.
        let listeners = try control(.get, "listeners")
        otherURL = (listeners["other"] as? String).map { "http://\($0)" }
        httpsURL = (listeners["https"] as? String).map { "https://\($0)" }
    }

    /// A control route under `/sim/`, expected to succeed; its JSON answer.
    @discardableResult
    func control(_ method: HTTPMethod, _ path: String, _ body: String? = nil) throws -> [String: Any] {
        try server.control(method, "/sim/" + path, body)
    }

    /// Every list back to its seed, faults disarmed, counters cleared.
    func reset() throws { try control(.post, "reset") }

    func stats() throws -> [String: Any] { try control(.get, "stats") }

    /// Requests to `route` so far (`GET /list/bare`).
    func requests(to route: String) throws -> Int {
        (try stats()["requestsByRoute"] as? [String: Int])?[route] ?? 0
    }

    /// Sets fields of generic item `id` (`PATCH /sim/items/{id}`), e.g. `#"{"status": "closed"}"#`.
    func setItem(_ id: Int, _ json: String) throws { try control(.patch, "items/\(id)", json) }

    func removeItem(_ id: Int) throws { try control(.delete, "items/\(id)") }

    /// Arms a fault on `route` (docs/json-sim.md, Faults): its next `count` answers go wrong as `kind` says.
    func fault(_ kind: String, on route: String, count: Int = 1, _ extra: [String: Any] = [:]) throws {
        var fault: [String: Any] = ["route": route, "kind": kind, "count": count]
        fault.merge(extra) { _, new in new }
        let body = try JSONSerialization.data(withJSONObject: fault)
        try control(.post, "faults", String(decoding: body, as: UTF8.self))
    }

    /// `json-sim act VERB …`: a colleague through the real API.
    @discardableResult
    func act(_ verb: String, _ arguments: String...) throws -> RunResult {
        let result = try runProduct("json-sim", ["act", verb, "--url", url] + arguments)
        XCTAssertEqual(result.status, 0, "act \(verb) \(arguments) failed: \(result.stderr)")
        return result
    }
}

/// A test class whose tests share one json-sim, put back to its seed before each test and stopped after the last.
class JSONSimTestCase: XCTestCase {
    nonisolated(unsafe) private static var servers: [ObjectIdentifier: JSONSim] = [:]
    /// Arguments for this class's json-sim.
    class var simulatorArguments: [String] { [] }

    var sim: JSONSim { Self.servers[ObjectIdentifier(Self.self)]! }

    override func setUpWithError() throws {
        try super.setUpWithError()
        if Self.servers[ObjectIdentifier(Self.self)] == nil {
            Self.servers[ObjectIdentifier(Self.self)] = try JSONSim(Self.simulatorArguments)
        }
        try sim.reset()
    }

    override class func tearDown() {
        servers[ObjectIdentifier(self)] = nil
        super.tearDown()
    }

    /// A workspace whose configuration is one `[[json]]` table named `name` for `path` on the simulator, with
    /// `lines` added.
    func listWorkspace(_ path: String, name: String = "items", _ lines: String = "") throws -> Workspace {
        let workspace = try Workspace(serverURL: sim.url)
        try workspace.useList(url: sim.url + path, name: name, lines)
        return workspace
    }
}

extension Workspace {
    /// One `[[json]]` table (`timeout` as the workspace has it), `[poll]` and the trailer.
    func useList(url: String, name: String = "items", _ lines: String = "") throws {
        customConfig = """
            [[json]]
            name = "\(name)"
            url = "\(url)"
            timeout = "\(timeout)"
            \(lines)

            [poll]
            interval = "\(interval)"
            \(extraPollLines.joined(separator: "\n"))
            \(trailer)
            """
        try writeConfig()
    }
}

/// `field: old → new` of each field change of `change`.
func fieldChanges(_ change: [String: Any]?) -> [String] {
    (change?["changes"] as? [[String: Any]] ?? []).map {
        "\($0["field"] as? String ?? "?"): \($0["old"] as? String ?? "∅") → \($0["new"] as? String ?? "∅")"
    }
}
