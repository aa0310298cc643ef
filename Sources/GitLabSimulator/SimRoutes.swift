#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SimulatorKit

/// Control routes under `/sim/`: what only git or GitLab's admin can do (push, access, rename), and the test
/// bench (stats, faults, switches, clock). No credentials; not counted, never faulted.
extension GitLabState {
    mutating func simRoute(_ call: Call) -> SimResponse {
        do {
            return SimResponse(status: 200, body: try simDispatch(call, Array(call.segments.dropFirst())).bytes)
        } catch let error as GitLabError {
            return errorResponse(error)
        } catch {
            return errorResponse(GitLabError(400, "Invalid control request: \(error)"))
        }
    }

    private mutating func simDispatch(_ call: Call, _ path: [String]) throws -> JSONValue {
        switch (call.method, path.joined(separator: "/")) {
        case ("GET", "stats"): return try encoded(stats)
        case ("DELETE", "stats"):
            stats = GitLabStats()
            return ["ok": true]
        case ("POST", "faults"):
            faults.append(try simDecode(GitLabFault.self, call))
            return ["ok": true, "armed": .int(faults.count)]
        case ("DELETE", "faults"):
            faults.removeAll()
            return ["ok": true]
        case ("GET", "switches"): return try encoded(switches)
        case ("POST", "switches"):
            try checkSwitchNames(call)
            var changed = switches
            changed.apply(try simDecode(GitLabSwitches.Patch.self, call))
            if let problem = changed.problem { throw GitLabError(400, problem) }
            switches = changed
            return try encoded(switches)
        case ("GET", "clock"): return clockJSON
        case ("POST", "clock"):
            guard let seconds = try simDecode([String: Int].self, call)["advance"] else {
                throw GitLabError(400, "expected {\"advance\": SECONDS}")
            }
            clockOffset += seconds * 1000
            return clockJSON
        case ("POST", "push"): return try push(try simDecode(PushRequest.self, call))
        case ("POST", "access"): return try setAccess(try simDecode(AccessRequest.self, call))
        case ("POST", "rename-project"): return try renameProject(try simDecode(RenameRequest.self, call))
        default:
            throw GitLabError(404, "No control route \(call.method) /sim/\(path.joined(separator: "/"))")
        }
    }

    private var clockJSON: JSONValue {
        ["now": .string(View.timestamp(now)), "offset": .int(clockOffset / 1000)]
    }

    /// A misspelt switch would change nothing silently: 400 naming it instead.
    private func checkSwitchNames(_ call: Call) throws {
        let known = Set(try encoded(switches).object?.keys ?? [])
        guard let sent = try? JSONValue.parse(call.request.body).object else {
            throw GitLabError(400, "Invalid control request body: not a JSON object")
        }
        for name in sent.keys where !known.contains(name) {
            throw GitLabError(400, "Unknown switch \(name); known: \(known.sorted().joined(separator: ", "))")
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
            throw GitLabError(400, "Invalid control request body: \(error)")
        }
    }
}
