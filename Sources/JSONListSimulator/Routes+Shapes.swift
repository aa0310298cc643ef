import SimulatorKit

/// `GET /list/{shape}`: the whole generic list, unpaged, in each shape a JSON list arrives in.
enum ShapeRoutes {
    static let shapes = ["bare", "data", "nested", "jsonapi", "ndjson"]

    /// - bare: `[item, …]`
    /// - data: `{"data": [item, …]}`
    /// - nested: `{"status": "ok", "result": {"count": N, "list": {"items": [item, …]}}}` (items at
    ///   `/result/list/items`)
    /// - jsonapi: `{"data": [{"type": "items", "id": "1", "attributes": {…}, "links": {"self": …}}], "meta",
    ///   "links"}` as `application/vnd.api+json` (JSON:API ids are strings; `id` leaves the attributes)
    /// - ndjson: one item per line, `application/x-ndjson`
    static func render(_ shape: String, _ items: [JSONValue], origin: String) -> SimResponse {
        switch shape {
        case "data": return Reply.json(200, ["data": .array(items)])
        case "nested":
            return Reply.json(
                200,
                [
                    "status": "ok", "result": ["count": .int(items.count), "list": ["items": .array(items)]],
                ])
        case "jsonapi":
            let resources = items.map { resource($0, origin: origin) }
            return Reply.json(
                200,
                [
                    "data": .array(resources), "meta": ["total": .int(items.count)],
                    "links": ["self": .string(origin + "/list/jsonapi")],
                ], contentType: "application/vnd.api+json")
        case "ndjson":
            var body: [UInt8] = []
            for item in items {
                item.write(to: &body)
                body.append(UInt8(ascii: "\n"))
            }
            var response = SimResponse(status: 200, body: body)
            response.headers = [("Content-Type", "application/x-ndjson")]
            return response
        default: return Reply.json(200, .array(items))
        }
    }

    static func resource(_ item: JSONValue, origin: String) -> JSONValue {
        var attributes = item.object ?? JSONObject()
        let id = attributes["id"]
        attributes["id"] = nil
        let idText: JSONValue = id.flatMap { $0.int.map { .string(String($0)) } ?? $0 } ?? .null
        let selfLink = idText.string.map { JSONValue.string(origin + "/list/jsonapi/" + $0) } ?? .null
        return ["type": "items", "id": idText, "attributes": .object(attributes), "links": ["self": selfLink]]
    }
}

extension ServerState {
    mutating func shapes(_ call: Call) -> Routed {
        variant(call, ShapeRoutes.shapes) { state, shape in
            ShapeRoutes.render(shape, state.items, origin: call.origin)
        }
    }
}
