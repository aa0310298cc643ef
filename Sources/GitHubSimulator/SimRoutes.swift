#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SimulatorKit

/// Control routes under `/sim/`: what only GitHub's web UI or git can do (push, transfer, delete, access, rename),
/// and the test bench (stats, faults, switches, clock). No credentials; not counted, never faulted.
extension GitHubState {
    mutating func simRoute(_ call: Call) -> SimResponse {
        do {
            return SimResponse(status: 200, body: try simDispatch(call, Array(call.segments.dropFirst())).bytes)
        } catch let error as GitHubError {
            return errorResponse(error)
        } catch {
            return errorResponse(GitHubError(400, "Invalid control request: \(error)"))
        }
    }

    private mutating func simDispatch(_ call: Call, _ path: [String]) throws -> JSONValue {
        switch (call.method, path.joined(separator: "/")) {
        case ("GET", "stats"): return try encoded(stats)
        case ("DELETE", "stats"):
            stats = GitHubStats()
            return ["ok": true]
        case ("POST", "faults"):
            faults.append(try simDecode(GitHubFault.self, call))
            return ["ok": true, "armed": .int(faults.count)]
        case ("DELETE", "faults"):
            faults.removeAll()
            return ["ok": true]
        case ("GET", "switches"): return try encoded(switches)
        case ("POST", "switches"):
            try checkSwitchNames(call)
            var changed = switches
            changed.apply(try simDecode(GitHubSwitches.Patch.self, call))
            if let problem = changed.problem { throw GitHubError(400, problem) }
            switches = changed
            return try encoded(switches)
        case ("GET", "clock"): return clockJSON
        case ("POST", "clock"):
            let body = try simDecode([String: Int].self, call)
            guard !body.isEmpty, body.keys.allSatisfy({ $0 == "advance" || $0 == "freeze" }) else {
                throw GitHubError(400, "expected {\"advance\": SECONDS} and/or {\"freeze\": 1 or 0}")
            }
            // Frozen: every change lands in one second; thawed: real time plus the offset again.
            if let freeze = body["freeze"] { frozenAt = freeze == 0 ? nil : now }
            if let seconds = body["advance"] {
                clockOffset += seconds
                frozenAt = frozenAt.map { $0 + seconds }
            }
            return clockJSON
        case ("POST", "push"): return try push(try simDecode(PushRequest.self, call))
        case ("POST", "force-push"): return try forcePush(try simDecode(PushRequest.self, call))
        case ("POST", "transfer"): return try transfer(try simDecode(TransferRequest.self, call))
        case ("POST", "delete"): return try delete(try simDecode(IssueRequest.self, call))
        case ("POST", "access"): return try access(try simDecode(AccessRequest.self, call))
        case ("POST", "rename-repo"): return try renameRepo(try simDecode(RenameRequest.self, call))
        default:
            throw GitHubError(404, "No control route \(call.method) /sim/\(path.joined(separator: "/"))")
        }
    }

    private var clockJSON: JSONValue {
        ["now": .string(HTTPDate.iso8601(now)), "offset": .int(clockOffset), "frozen": .bool(frozenAt != nil)]
    }

    /// A misspelt switch would change nothing silently: 400 naming it instead.
    private func checkSwitchNames(_ call: Call) throws {
        let known = Set(try encoded(switches).object?.keys ?? [])
        guard let sent = try? JSONValue.parse(call.request.body).object else {
            throw GitHubError(400, "Invalid control request body: not a JSON object")
        }
        for name in sent.keys where !known.contains(name) {
            throw GitHubError(400, "Unknown switch \(name); known: \(known.sorted().joined(separator: ", "))")
        }
    }

    /// `value` as `JSONEncoder` writes it (keys sorted), read back into a tree.
    func encoded<T: Encodable>(_ value: T) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try JSONValue.parse(Array(try encoder.encode(value)))
    }

    func simDecode<T: Decodable>(_ type: T.Type, _ call: Call) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(call.request.body))
        } catch {
            throw GitHubError(400, "Invalid control request body: \(error)")
        }
    }
}
