import SimulatorKit

extension ServerState {
    /// `GET /fault/{kind}`: the generic list (a bare array) spoilt by that fault on every answer. `{kind}` is a
    /// `Fault.Kind` or a status code (`/fault/503` = `/fault/status?status=503`); parameters `status`,
    /// `retry_after` (seconds), `retry_after_date` (seconds from now, sent as an HTTP date), `size`, `depth`, `delay`
    /// (milliseconds), `values` (`zeros`, `nested-zeros`, `zeros-beside`).
    mutating func fault(_ call: Call) -> Routed {
        guard call.segments.count == 2 else { return Routed(name: "unknown", response: Reply.notFound(call)) }
        let name = "\(call.method) /fault/\(call.segments[1])"
        var fault: Fault
        if let status = Int(call.segments[1]), (200...599).contains(status) {
            fault = Fault(kind: .status)
            fault.status = status
        } else if let kind = Fault.Kind(rawValue: call.segments[1]) {
            fault = Fault(kind: kind)
            fault.status = call.query("status").flatMap(Int.init)
        } else {
            return Routed(name: "unknown", response: Reply.notFound(call))
        }
        guard call.method == "GET" else { return Routed(name: name, response: Reply.methodNotAllowed("GET")) }
        fault.retryAfter = call.query("retry_after").flatMap(Int.init)
        fault.retryAfterDate = call.query("retry_after_date").flatMap(Int.init)
        fault.size = call.query("size").flatMap(Int.init).map { min(max(0, $0), HostilePayloads.largest) }
        fault.depth = call.query("depth").flatMap(Int.init)
        fault.values = call.query("values").flatMap(Int.init).map { max(0, $0) }
        fault.delay = call.query("delay").flatMap(Int.init).map { min(max(0, $0), Fault.longestDelay) }
        return Routed(name: name, response: answer(fault, insteadOf: Reply.json(200, .array(items)), now: call.now))
    }
}
