#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SimulatorKit

/// Control routes under `/sim/`: what only Qase's web UI can do (assign a defect or a plan case, set a reviewer's
/// verdict, rename a project, grant access), and the test bench (stats, faults, clock, switches). No token needed;
/// not counted in the stats, never rate-limited or faulted.
extension QaseState {
    mutating func simRoute(_ call: Call, _ path: [String]) -> SimResponse {
        do {
            let result = try simDispatch(call, path)
            return SimResponse(status: 200, body: result.bytes)
        } catch let error as APIError {
            return errorResponse(error)
        } catch {
            return errorResponse(APIError(400, "Invalid control request: \(error)"))
        }
    }

    private mutating func simDispatch(_ call: Call, _ path: [String]) throws -> JSONValue {
        let method = call.request.method
        switch (method, path.count, path.first ?? "") {
        case ("GET", 1, "stats"): return try encoded(stats)
        case ("DELETE", 1, "stats"):
            stats = QaseStats()
            return ["status": true]
        case ("POST", 1, "faults"):
            let fault = try simDecode(QaseFault.self, call)
            faults.append(fault)
            return ["status": true, "armed": .int(faults.count)]
        case ("DELETE", 1, "faults"):
            faults.removeAll()
            return ["status": true]
        case ("GET", 1, "clock"): return clockJSON
        case ("POST", 1, "clock"):
            guard let seconds = try simDecode([String: Int].self, call)["advance"], abs(seconds) <= 3_153_600_000 else {
                throw APIError(400, "expected {\"advance\": SECONDS}, at most a century either way")
            }
            clock.advance(seconds)
            return clockJSON
        case ("GET", 1, "switches"): return try encoded(switches)
        case ("POST", 1, "switches"):
            try checkSwitchNames(call)
            var changed = switches
            changed.apply(try simDecode(QaseSwitches.Patch.self, call))
            if let problem = changed.problem { throw APIError(400, problem) }
            if changed.rateLimit != switches.rateLimit || changed.rateLimitTimeout != switches.rateLimitTimeout {
                limiter.reset()
            }
            switches = changed
            return try encoded(switches)
        case (_, _, "defect"), (_, _, "plan"), (_, _, "review"), (_, _, "project"), (_, _, "access"):
            return try webAction(method, path, call)
        default:
            throw APIError(404, "No control route \(method) /sim/\(path.joined(separator: "/"))")
        }
    }

    private var clockJSON: JSONValue {
        ["now": .string(QaseClock.iso(clock.now)), "epochMs": .int(clock.now * 1_000), "offset": .int(clock.offset)]
    }

    /// A misspelt switch would change nothing silently: 400 naming it instead.
    private func checkSwitchNames(_ call: Call) throws {
        let known = Set(try JSONDecoder().decode([String: AnyJSON].self, from: JSONEncoder().encode(switches)).keys)
        for name in try simDecode([String: AnyJSON].self, call).keys where !known.contains(name) {
            throw APIError(400, "Unknown switch \(name); known: \(known.sorted().joined(separator: ", "))")
        }
    }

    /// `value` as `JSONEncoder` writes it (keys sorted), read back into a tree, so that its strings are written
    /// as every other answer's are.
    func encoded<T: Encodable>(_ value: T) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try JSONValue.parse(Array(try encoder.encode(value)))
    }

    func simDecode<T: Decodable>(_ type: T.Type, _ call: Call) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(call.request.body))
        } catch {
            throw APIError(400, "Invalid control request body: \(error)")
        }
    }
}
