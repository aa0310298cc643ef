import SimulatorKit

/// `GET /encoding/{variant}`: the generic list (a bare array, non-ASCII titles first) as servers encode it.
/// - gzip: gzipped when `Accept-Encoding` allows gzip (with `Vary: Accept-Encoding`), plain otherwise
/// - gzip-always: gzipped whatever the request asked, as misconfigured servers do
/// - chunked: `Transfer-Encoding: chunked`, no `Content-Length`, chunks cut mid-character
/// - bom: a UTF-8 byte order mark before the JSON
/// - charset: `Content-Type: application/json;charset=UTF-8`
/// - text-plain: `Content-Type: text/plain` with no charset (the body is UTF-8)
enum Encodings {
    static let variants = ["gzip", "gzip-always", "chunked", "bom", "charset", "text-plain"]

    /// Whether an `Accept-Encoding` value admits gzip (`gzip`, `x-gzip` or `*`, with a q-value above 0).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for coding in header.lowercased().split(separator: ",") {
            let parts = coding.split(separator: ";").map { String($0.filter { $0 != " " }) }
            guard ["gzip", "x-gzip", "*"].contains(parts[0]) else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { return true }
        }
        return false
    }

    static func gzip(_ response: inout SimResponse) {
        response.body = Gzip.compress(response.body)
        response.headers.append(("Content-Encoding", "gzip"))
    }

    static func encode(_ variant: String, _ items: [JSONValue], _ call: Call) -> SimResponse {
        var response = Reply.json(200, .array(items))
        switch variant {
        case "gzip":
            response.headers.append(("Vary", "Accept-Encoding"))
            if acceptsGzip(call.request.headers["accept-encoding"]) { gzip(&response) }
        case "gzip-always": gzip(&response)
        case "chunked": response.delivery = .chunked
        case "bom": response.body = [0xEF, 0xBB, 0xBF] + response.body
        case "charset": response.headers = [("Content-Type", "application/json;charset=UTF-8")]
        default: response.headers = [("Content-Type", "text/plain")]
        }
        return response
    }
}

extension ServerState {
    mutating func encoding(_ call: Call) -> Routed {
        variant(call, Encodings.variants) { state, variant in Encodings.encode(variant, state.items, call) }
    }
}
