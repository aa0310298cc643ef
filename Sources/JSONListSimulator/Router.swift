import SimulatorKit

extension ServerState {
    /// Dispatches on the first path segment; each family lives in its own `Routes+….swift`.
    mutating func route(_ call: Call) -> Routed {
        switch call.segments.first {
        case "devices": return devices(call)
        case "entries": return directory(call)
        case "list": return shapes(call)
        case "paging": return paging(call)
        case "auth": return auth(call)
        case "encoding": return encoding(call)
        case "conditional": return conditional(call)
        case "redirect": return redirect(call)
        case "mess": return mess(call)
        case "fault": return fault(call)
        case "github": return github(call)
        case "gitlab": return gitlab(call)
        case "jira": return jira(call)
        case "sim": return control(call)
        case nil where call.method == "GET": return Routed(name: "GET /", response: Reply.json(200, Self.index))
        default: return Routed(name: "unknown", response: Reply.notFound(call))
        }
    }

    /// The route name of a variant route, `GET /family/variant`, or of an unknown one.
    static func variantName(_ call: Call, known: [String]) -> String? {
        guard call.segments.count == 2, known.contains(call.segments[1]) else { return nil }
        return "\(call.method) /\(call.segments[0])/\(call.segments[1])"
    }

    /// A GET-only variant route: its name and answer, 404 for an unknown variant, 405 for another method.
    mutating func variant(
        _ call: Call, _ known: [String], answer: (inout ServerState, String) -> SimResponse
    ) -> Routed {
        guard let name = Self.variantName(call, known: known) else {
            return Routed(name: "unknown", response: Reply.notFound(call))
        }
        guard call.method == "GET" else { return Routed(name: name, response: Reply.methodNotAllowed("GET")) }
        return Routed(name: name, response: answer(&self, call.segments[1]))
    }

    /// `GET /`: what is where (docs/json-sim.md has the details).
    static let index: JSONValue = [
        "deviceTracker": ["GET /devices", "POST /devices", "POST /devices/{id}", "DELETE /devices/{id}"],
        "classDirectory": ["GET /entries/all", "POST /entries/create", "PUT /entries/{netid}"],
        "shapes": .array(ShapeRoutes.shapes.map { .string("GET /list/\($0)") }),
        "paging": .array(PagingRoutes.styles.map { .string("GET /paging/\($0)") }),
        "auth": .array(AuthRoutes.kinds.map { .string("GET /auth/\($0)") }),
        "encoding": .array(Encodings.variants.map { .string("GET /encoding/\($0)") }),
        "conditional": .array(ConditionalRoutes.variants.map { .string("GET /conditional/\($0)") }),
        "redirect": .array(RedirectRoutes.variants.map { .string("GET /redirect/\($0)") }),
        "mess": .array(MessRoutes.variants.map { .string("GET /mess/\($0)") }),
        "fault": .array(Fault.Kind.allCases.map { .string("GET /fault/\($0.rawValue)") }),
        "recipes": ["GET /github/issues", "GET /gitlab/api/v4/issues", "GET /jira/rest/api/2/search"],
        "control": [
            "GET /sim/stats", "GET /sim/requests", "POST /sim/faults", "GET /sim/faults", "DELETE /sim/faults",
            "GET|POST|PUT /sim/items", "PATCH|DELETE /sim/items/{id}", "POST /sim/items/reset",
            "GET|POST /sim/issues/{tracker}", "PATCH /sim/issues/{tracker}/{number}", "GET /sim/listeners",
            "POST /sim/reset",
        ],
    ]
}
