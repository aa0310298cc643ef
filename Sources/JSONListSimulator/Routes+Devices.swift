import SimulatorKit

/// The device check-out tracker: `GET /devices` (a bare array), `GET /devices/{id}`, `POST /devices` (add: device,
/// os and manufacturer required), `POST /devices/{id}` (update: check out with `lastCheckedOutBy`, check in with
/// `isCheckedOut: false`), `DELETE /devices/{id}`. No authentication, as the mock it copies.
extension ServerState {
    mutating func devices(_ call: Call) -> Routed {
        let path = Array(call.segments.dropFirst())
        switch (call.method, path.count) {
        case ("GET", 0): return Routed(name: "GET /devices", response: Reply.json(200, .array(devices)))
        case ("POST", 0): return Routed(name: "POST /devices", response: addDevice(call))
        case (_, 1):
            let name = "\(call.method) /devices/{id}"
            guard let id = Int(path[0]), let index = devices.firstIndex(where: { $0["id"]?.int == id }) else {
                return Routed(name: name, response: Reply.error(404, "No device \(path[0])"))
            }
            switch call.method {
            case "GET": return Routed(name: name, response: Reply.json(200, devices[index]))
            case "POST": return Routed(name: name, response: updateDevice(at: index, call))
            case "DELETE":
                devices.remove(at: index)
                return Routed(name: name, response: Reply.noContent())
            default: return Routed(name: name, response: Reply.methodNotAllowed("GET, POST, DELETE"))
            }
        case (_, 0): return Routed(name: "\(call.method) /devices", response: Reply.methodNotAllowed("GET, POST"))
        default: return Routed(name: "unknown", response: Reply.notFound(call))
        }
    }

    private mutating func addDevice(_ call: Call) -> SimResponse {
        guard let body = call.json, body.object != nil else { return Reply.error(400, "Expected a JSON object") }
        let fields = ["device", "os", "manufacturer"]
        guard fields.allSatisfy({ !(body[$0]?.string ?? "").isEmpty }) else {
            return Reply.error(400, "device, os and manufacturer are required")
        }
        let device = DeviceFixtures.device(
            nextDeviceID, body["device"]?.string ?? "", body["os"]?.string ?? "",
            body["manufacturer"]?.string ?? "")
        nextDeviceID += 1
        devices.append(device)
        return Reply.json(201, device, headers: [("Location", "/devices/\(nextDeviceID - 1)")])
    }

    /// Checking out needs a name; the date is the client's or now. Checking in keeps who had it last.
    private mutating func updateDevice(at index: Int, _ call: Call) -> SimResponse {
        guard let body = call.json, body.object != nil else { return Reply.error(400, "Expected a JSON object") }
        var device = devices[index]
        for field in ["device", "os", "manufacturer"] {
            if let value = body[field]?.string, !value.isEmpty { device[field] = .string(value) }
        }
        switch body["isCheckedOut"] {
        case .bool(true)?:
            guard let name = body["lastCheckedOutBy"]?.string, !name.isEmpty else {
                return Reply.error(400, "Checking out needs lastCheckedOutBy (a name)")
            }
            device["isCheckedOut"] = true
            device["lastCheckedOutBy"] = .string(name)
            device["lastCheckedOutDate"] = .string(body["lastCheckedOutDate"]?.string ?? HTTPDate.iso8601(call.now))
        case .bool(false)?:
            device["isCheckedOut"] = false
        case nil:
            break
        default:
            return Reply.error(400, "isCheckedOut must be true or false")
        }
        devices[index] = device
        return Reply.json(200, device)
    }
}
