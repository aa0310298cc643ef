import SimulatorKit

/// The class directory: HTTP Basic `netid:password` on every route. `GET /entries/all` (everyone),
/// `POST /entries/create` (your own entry, once), `PUT /entries/{netid}` (replaces your own entry, and only yours).
extension ServerState {
    static let directoryChallenge = #"Basic realm="ECE 564 directory""#

    mutating func directory(_ call: Call) -> Routed {
        let path = Array(call.segments.dropFirst())
        let name: String
        switch (call.method, path) {
        case ("GET", ["all"]): name = "GET /entries/all"
        case ("POST", ["create"]): name = "POST /entries/create"
        case ("PUT", _) where path.count == 1: name = "PUT /entries/{netid}"
        case (_, ["all"]), (_, ["create"]):
            return Routed(
                name: "\(call.method) /entries/\(path[0])",
                response: Reply.methodNotAllowed(path == ["all"] ? "GET" : "POST"))
        default: return Routed(name: "unknown", response: Reply.notFound(call))
        }
        guard case .basic(let netid, let password) = call.credentials else {
            return Routed(
                name: name,
                response: Reply.unauthorized(
                    "HTTP Basic netid:password required",
                    challenge: Self.directoryChallenge))
        }
        guard accounts[netid] == password else {
            return Routed(
                name: name,
                response: Reply.unauthorized(
                    "Unknown netid or wrong password",
                    challenge: Self.directoryChallenge))
        }
        switch name {
        case "GET /entries/all": return Routed(name: name, response: Reply.json(200, .array(directory)))
        case "POST /entries/create": return Routed(name: name, response: createEntry(call, netid: netid))
        default: return Routed(name: name, response: replaceEntry(path[0], call, netid: netid))
        }
    }

    private mutating func createEntry(_ call: Call, netid: String) -> SimResponse {
        guard var entry = call.json, entry.object != nil else { return Reply.error(400, "Expected a JSON object") }
        if let claimed = entry["netid"]?.string, claimed != netid {
            return Reply.error(403, "You can only create your own entry (\(netid))")
        }
        guard !directory.contains(where: { $0["netid"]?.string == netid }) else {
            return Reply.error(409, "An entry for \(netid) exists: update it with PUT /entries/\(netid)")
        }
        entry["netid"] = .string(netid)
        directory.append(entry)
        return Reply.json(201, entry)
    }

    /// Replaces every entry of `target` (the seeded duplicate has two) with the body.
    private mutating func replaceEntry(_ target: String, _ call: Call, netid: String) -> SimResponse {
        guard target == netid else { return Reply.error(403, "You can only update your own entry (\(netid))") }
        guard var entry = call.json, entry.object != nil else { return Reply.error(400, "Expected a JSON object") }
        if let claimed = entry["netid"]?.string, claimed != netid {
            return Reply.error(400, "The body's netid \(claimed) is not \(netid)")
        }
        entry["netid"] = .string(netid)
        let indices = directory.indices.filter { directory[$0]["netid"]?.string == netid }
        guard !indices.isEmpty else { return Reply.error(404, "No entry for \(netid): create it first") }
        for index in indices { directory[index] = entry }
        return Reply.json(200, entry)
    }
}
