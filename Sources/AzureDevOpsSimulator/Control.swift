#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SimulatorKit

/// Control routes under `/sim/`: colleagues acting (`act`), access and PATs, and the test bench (stats, faults,
/// switches, clock). No credentials; not counted, never faulted.
extension AzureDevOpsState {
    mutating func simRoute(_ call: Call) -> SimResponse {
        var response: SimResponse
        do {
            response = SimResponse(status: 200, body: try simDispatch(call, Array(call.segments.dropFirst())).bytes)
        } catch let error as AzureDevOpsError {
            response = SimResponse(status: error.status, body: Self.failure(error.message))
        } catch {
            response = SimResponse(status: 400, body: Self.failure("\(error)"))
        }
        response.headers = [("Content-Type", "application/json")]
        return response
    }

    static func failure(_ message: String) -> [UInt8] {
        let body: JSONValue = ["ok": false, "message": .string(message)]
        return body.bytes
    }

    private mutating func simDispatch(_ call: Call, _ path: [String]) throws -> JSONValue {
        switch (call.method, path.joined(separator: "/")) {
        case ("GET", "stats"): return try encoded(stats)
        case ("DELETE", "stats"):
            stats = AzureDevOpsStats()
            return ["ok": true]
        case ("POST", "faults"):
            faults.append(try simDecode(AzureDevOpsFault.self, call))
            return ["ok": true, "armed": .int(faults.count)]
        case ("DELETE", "faults"):
            faults.removeAll()
            return ["ok": true]
        case ("GET", "switches"): return try encoded(switches)
        case ("POST", "switches"):
            try checkSwitchNames(call)
            var changed = switches
            changed.apply(try simDecode(AzureDevOpsSwitches.Patch.self, call))
            if let problem = changed.problem { throw AzureDevOpsError.badRequest(problem) }
            switches = changed
            return try encoded(switches)
        case ("GET", "clock"): return clockJSON
        case ("POST", "clock"):
            guard let seconds = try simDecode([String: Int].self, call)["advance"] else {
                throw AzureDevOpsError.badRequest("expected {\"advance\": SECONDS}")
            }
            clockOffset += seconds * 1000
            return clockJSON
        case ("POST", "pat"):
            let request = try simDecode(PATRequest.self, call)
            let person = try self.person(request.username)
            if request.valid { revoked.remove(person) } else { revoked.insert(person) }
            return ["ok": true]
        case ("POST", "access"):
            let request = try simDecode(AccessRequest.self, call)
            let who = try person(request.username), project = try projectNamed(request.project)
            let key = "\(who) \(project)"
            if request.read { noAccess.remove(key) } else { noAccess.insert(key) }
            return ["ok": true]
        case ("POST", "act"): return try act(try simDecode(ActRequest.self, call))
        default:
            throw AzureDevOpsError(404, "No control route \(call.method) /sim/\(path.joined(separator: "/"))",
                "NotFound")
        }
    }

    struct PATRequest: Decodable {
        var username: String
        var valid: Bool
    }

    struct AccessRequest: Decodable {
        var username: String
        var project: String
        var read: Bool
    }

    private var clockJSON: JSONValue { ["now": .string(View.timestamp(now)), "offset": .int(clockOffset / 1000)] }

    /// A misspelt switch would change nothing silently: 400 naming it instead.
    private func checkSwitchNames(_ call: Call) throws {
        let known = Set(try encoded(switches).object?.keys ?? [])
        guard let sent = try? JSONValue.parse(call.request.body).object else {
            throw AzureDevOpsError.badRequest("Invalid control request body: not a JSON object")
        }
        for name in sent.keys where !known.contains(name) {
            throw AzureDevOpsError.badRequest("Unknown switch \(name); known: \(known.sorted().joined(separator: ", "))")
        }
    }

    func encoded<T: Encodable>(_ value: T) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try JSONValue.parse(Array(try encoder.encode(value)))
    }

    func simDecode<T: Decodable>(_ type: T.Type, _ call: Call) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(call.request.body))
        } catch {
            throw AzureDevOpsError.badRequest("Invalid control request body: \(error)")
        }
    }

    func person(_ name: String) throws -> Int {
        guard let index = Directory.person(named: name) else {
            throw AzureDevOpsError.badRequest("No person \(name); known: "
                + Directory.people.map(\.username).joined(separator: ", "))
        }
        return index
    }

    func projectNamed(_ name: String) throws -> Int {
        guard let index = Directory.project(named: name) else {
            throw AzureDevOpsError.badRequest("No project \(name); known: " + Directory.projectNames.joined(separator: ", "))
        }
        return index
    }
}
