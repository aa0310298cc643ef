import SimulatorKit

/// `/sim/…`: what tests and `json-sim act` use to look inside and to change the data between two polls. Faults
/// never apply here.
extension ServerState {
    mutating func control(_ call: Call) -> Routed {
        let path = Array(call.segments.dropFirst())
        let name = "\(call.method) /sim/" + Self.pattern(path)
        return Routed(name: name, response: controlAnswer(call, path))
    }

    /// The route pattern of a control path: ids become `{id}`, trackers `{tracker}`, numbers `{number}`.
    private static func pattern(_ path: [String]) -> String {
        switch (path.first, path.count) {
        case ("items", 2) where path[1] != "reset": return "items/{id}"
        case ("issues", 2): return "issues/{tracker}"
        case ("issues", 3): return "issues/{tracker}/{number}"
        default: return path.joined(separator: "/")
        }
    }

    private mutating func controlAnswer(_ call: Call, _ path: [String]) -> SimResponse {
        switch (call.method, path.first, path.count) {
        case ("GET", "stats", 1): return Reply.json(200, stats.json)
        case ("GET", "requests", 1): return Reply.json(200, ["requests": .array(log.entries.map(\.json))])
        case ("GET", "listeners", 1):
            return Reply.json(
                200,
                [
                    "http": .text(listeners.http), "https": .text(listeners.https),
                    "other": .text(listeners.other),
                ])
        case ("POST", "reset", 1):
            reseed()
            return Reply.json(200, ["message": "every list back to its seed; faults and counters cleared"])
        case (_, "faults", 1): return faultsAnswer(call)
        case (_, "items", _): return itemsAnswer(call, Array(path.dropFirst()))
        case (_, "issues", 2...3): return issuesAnswer(call, Array(path.dropFirst()))
        default: return Reply.notFound(call)
        }
    }

    private mutating func faultsAnswer(_ call: Call) -> SimResponse {
        switch call.method {
        case "GET": return Reply.json(200, .array(faults.map(\.json)))
        case "DELETE":
            faults.removeAll()
            return Reply.json(200, ["message": "faults cleared"])
        case "POST":
            guard let fault = call.json.flatMap(Fault.init) else {
                let kinds = Fault.Kind.allCases.map(\.rawValue).joined(separator: "|")
                return Reply.error(400, "Expected {\"route\", \"kind\": \(kinds), \"count\" ≥ 1, \"after\", …}")
            }
            faults.append(fault)
            return Reply.json(200, ["message": "fault armed", "fault": fault.json])
        default: return Reply.methodNotAllowed("GET, POST, DELETE")
        }
    }

    private mutating func itemsAnswer(_ call: Call, _ path: [String]) -> SimResponse {
        switch (call.method, path.first) {
        case ("GET", nil): return Reply.json(200, .array(items))
        case ("POST", nil): return addItem(call)
        case ("PUT", nil):
            guard let list = call.json?.array else { return Reply.error(400, "Expected a JSON array of items") }
            items = list
            itemsChanged(now: call.now)
            return Reply.json(200, ["count": .int(items.count)])
        case ("POST", "reset"):
            items = ItemFixtures.seed(count: call.json?["count"]?.int ?? options.items)
            itemsChanged(now: call.now)
            return Reply.json(200, ["count": .int(items.count)])
        case ("PATCH", let id?), ("DELETE", let id?):
            guard let index = items.firstIndex(where: { Self.hasID($0, id) }) else {
                return Reply.error(404, "No item \(id)")
            }
            return call.method == "DELETE" ? removeItem(at: index, call) : patchItem(at: index, call)
        default: return Reply.methodNotAllowed("GET, POST, PUT /sim/items; PATCH, DELETE /sim/items/{id}")
        }
    }

    /// Whether the item's `id`, spelled as a number or a string, is `id`.
    static func hasID(_ item: JSONValue, _ id: String) -> Bool {
        switch item["id"] {
        case .number(let text)?: return text == id || (Int(id) != nil && item["id"]?.int == Int(id))
        case .string(let text)?: return text == id
        default: return false
        }
    }

    private mutating func addItem(_ call: Call) -> SimResponse {
        guard var item = call.json, item.object != nil else { return Reply.error(400, "Expected a JSON object") }
        if item["id"] == nil {
            let next = (items.compactMap { $0["id"]?.int }.max() ?? 0) + 1
            item = .object(JSONObject([JSONObject.Member("id", .int(next))] + (item.object?.members ?? [])))
        }
        items.append(item)
        itemsChanged(now: call.now)
        return Reply.json(201, item)
    }

    /// Sets each member of the body on the item (a null value sets null; the id stays).
    private mutating func patchItem(at index: Int, _ call: Call) -> SimResponse {
        guard let changes = call.json?.object else { return Reply.error(400, "Expected a JSON object") }
        for member in changes.members where member.key != "id" { items[index][member.key] = member.value }
        itemsChanged(now: call.now)
        return Reply.json(200, items[index])
    }

    private mutating func removeItem(at index: Int, _ call: Call) -> SimResponse {
        items.remove(at: index)
        itemsChanged(now: call.now)
        return Reply.noContent()
    }
}
