import SimulatorKit

/// `GET /redirect/{variant}?to=PATH&status=30x`: redirects (status 302 unless `status` says 301, 303, 307 or 308)
/// that end at `to` (default `/list/bare`; `/auth/bearer` to see whether credentials followed).
/// - same-host: to `to` on this listener, as an absolute URL
/// - other-host: to `to` on the second listener (127.0.0.2 by default): another host
/// - https-to-http: to `to` on the plain HTTP listener (meant to be asked over https)
/// - loop: `/redirect/loop` → `/redirect/loop-b` → `/redirect/loop` → …
/// - loop-b: the other half of the loop
/// - chain: `hops` (default 3) relative redirects, `/redirect/chain?hops=N` → `…hops=N-1` → … → `to`
enum RedirectRoutes {
    static let variants = ["same-host", "other-host", "https-to-http", "loop", "loop-b", "chain"]
    static let statuses = [301, 302, 303, 307, 308]

    static func redirect(_ variant: String, _ call: Call, listeners: Listeners) -> SimResponse {
        let status = call.query("status").flatMap(Int.init).flatMap { statuses.contains($0) ? $0 : nil } ?? 302
        let target = call.query("to").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/list/bare"
        let location: String
        switch variant {
        case "same-host": location = call.origin + target
        case "other-host":
            guard let other = listeners.other else { return Reply.error(501, "json-sim runs without --other-host") }
            location = "http://\(other)\(target)"
        case "https-to-http":
            guard let http = listeners.http else { return Reply.error(501, "No plain HTTP listener is known") }
            location = "http://\(http)\(target)"
        case "loop": location = call.link("/redirect/loop-b", replacing: [:])
        case "loop-b": location = call.link("/redirect/loop", replacing: [:])
        default:
            let hops = call.int("hops", 3)
            location = hops <= 1 ? target : call.link("/redirect/chain", replacing: ["hops": String(hops - 1)])
        }
        var response = Reply.json(status, ["message": .string("Moved to \(location)")])
        response.headers.append(("Location", location))
        return response
    }
}

extension ServerState {
    mutating func redirect(_ call: Call) -> Routed {
        variant(call, RedirectRoutes.variants) { state, variant in
            RedirectRoutes.redirect(variant, call, listeners: state.listeners)
        }
    }
}
