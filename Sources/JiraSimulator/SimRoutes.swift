#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SimulatorKit

/// Control routes under `/sim/`: what only Jira's web UI or an admin can do (move, delete, project access), and
/// the test bench (stats, faults, switches, clock). No credentials; not counted, never faulted.
extension JiraState {
    mutating func simRoute(_ call: Call) -> SimResponse {
        do {
            return SimResponse(status: 200, body: try simDispatch(call, Array(call.segments.dropFirst())).bytes)
        } catch let error as JiraError {
            return errorResponse(error)
        } catch {
            return errorResponse(JiraError(400, "Invalid control request: \(error)"))
        }
    }

    private mutating func simDispatch(_ call: Call, _ path: [String]) throws -> JSONValue {
        let method = call.request.method
        switch (method, path.joined(separator: "/")) {
        case ("GET", "stats"): return try encoded(stats)
        case ("DELETE", "stats"):
            stats = JiraStats()
            return ["ok": true]
        case ("POST", "faults"):
            faults.append(try simDecode(JiraFault.self, call))
            return ["ok": true, "armed": .int(faults.count)]
        case ("DELETE", "faults"):
            faults.removeAll()
            return ["ok": true]
        case ("GET", "switches"): return try encoded(switches)
        case ("POST", "switches"):
            try checkSwitchNames(call)
            var changed = switches
            changed.apply(try simDecode(JiraSwitches.Patch.self, call))
            if let problem = changed.problem { throw JiraError(400, problem) }
            switches = changed
            return try encoded(switches)
        case ("GET", "clock"): return clockJSON
        case ("POST", "clock"):
            guard let seconds = try simDecode([String: Int].self, call)["advance"] else {
                throw JiraError(400, "expected {\"advance\": SECONDS}")
            }
            clockOffset += seconds
            return clockJSON
        case ("POST", "move"): return try move(try simDecode(MoveRequest.self, call))
        case ("POST", "delete"): return try delete(try simDecode([String: String].self, call)["issue"] ?? "")
        case ("POST", "access"): return try access(try simDecode(AccessRequest.self, call))
        default:
            throw JiraError(404, "No control route \(method) /sim/\(path.joined(separator: "/"))")
        }
    }

    private struct MoveRequest: Decodable {
        var issue: String
        var project: String
        var `as`: String?
    }

    private struct AccessRequest: Decodable {
        var handle: String
        var project: String
        var allowed: Bool
    }

    /// Moves an issue to another project: a new key there, the old one still finds it, the id stays; a history
    /// by `as` (default lead) with items `Key` and `project`.
    private mutating func move(_ request: MoveRequest) throws -> JSONValue {
        let author = try person(request.as ?? "lead")
        let slot = try slot(request.issue, for: author)
        guard let target = projects.firstIndex(where: { $0.key == request.project.uppercased() }) else {
            throw JiraError(400, "No project \(request.project)")
        }
        let issue = issues[slot]!, oldKey = key(of: issue), source = projects[issue.projectIndex]
        guard target != issue.projectIndex else { throw JiraError(400, "\(oldKey) is already in \(source.key)") }
        issues[slot]!.oldKeys.append(oldKey)
        issues[slot]!.projectIndex = target
        issues[slot]!.number = projects[target].nextNumber
        projects[target].nextNumber += 1
        let newKey = key(of: issues[slot]!)
        slotByKey[newKey] = slot
        record([
            HistoryItem(field: "Key", fieldtype: "jira", fieldId: "issuekey", from: .text(id: nil, oldKey),
                to: .text(id: nil, newKey)),
            HistoryItem(field: "project", fieldtype: "jira", fieldId: "project",
                from: .text(id: String(source.id), source.name),
                to: .text(id: String(projects[target].id), projects[target].name)),
        ], on: slot, by: author)
        return ["id": .string(String(issue.id)), "key": .string(newKey), "oldKey": .string(oldKey)]
    }

    /// Deletes an issue: 404 by id and by every key it had, gone from searches.
    private mutating func delete(_ idOrKey: String) throws -> JSONValue {
        let slot = try slot(idOrKey, for: Directory.lead)
        let issue = issues[slot]!
        slotByID[issue.id] = nil
        for old in issue.oldKeys + [key(of: issue)] { slotByKey[old] = nil }
        issues[slot] = nil
        return ["ok": true, "id": .string(String(issue.id))]
    }

    /// Lets a person see a project or not: a hidden project's issues answer 404 and are missing from searches,
    /// and JQL naming it is refused.
    private mutating func access(_ request: AccessRequest) throws -> JSONValue {
        let person = try person(request.handle)
        guard let project = projects.firstIndex(where: { $0.key == request.project.uppercased() }) else {
            throw JiraError(400, "No project \(request.project)")
        }
        if request.allowed { hidden.remove([person, project]) } else { hidden.insert([person, project]) }
        return ["ok": true]
    }

    private func person(_ handle: String) throws -> Int {
        guard let index = Directory.person(handle: handle) else { throw JiraError(400, "No person \(handle)") }
        return index
    }

    private var clockJSON: JSONValue {
        ["now": .string(HTTPDate.iso8601(now)), "offset": .int(clockOffset)]
    }

    /// A misspelt switch would change nothing silently: 400 naming it instead.
    private func checkSwitchNames(_ call: Call) throws {
        let known = Set(try encoded(switches).object?.keys ?? [])
        guard let sent = try? JSONValue.parse(call.request.body).object else {
            throw JiraError(400, "Invalid control request body: not a JSON object")
        }
        for name in sent.keys where !known.contains(name) {
            throw JiraError(400, "Unknown switch \(name); known: \(known.sorted().joined(separator: ", "))")
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
            throw JiraError(400, "Invalid control request body: \(error)")
        }
    }
}
