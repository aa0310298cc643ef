import SimulatorKit

/// `GET /conditional/{variant}`: the generic list (a bare array) with validators, answering 304 when the request's
/// validator still holds. The stats count conditional requests and 304s.
/// - etag: a strong `ETag` (a hash of the body); `If-None-Match` with it (or `*`) → 304
/// - weak-etag: the same as `W/"…"`, compared weakly, as servers that gzip on the fly send it
/// - last-modified: `Last-Modified` (one second later at least after every change); `If-Modified-Since` at or
///   after it → 304
/// - both: both validators; `If-None-Match`, when sent, decides alone (RFC 9110 §13.2.2)
enum ConditionalRoutes {
    static let variants = ["etag", "weak-etag", "last-modified", "both"]

    /// FNV-1a, 64 bits, as 16 hex digits: a validator that changes whenever a byte does.
    static func tag(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Whether an `If-None-Match` value matches `etag` (weak comparison, as RFC 9110 §13.1.2 asks for GET).
    static func matches(_ ifNoneMatch: String, _ etag: String) -> Bool {
        let strip = { (tag: Substring) in tag.filter { $0 != " " }.replacing("W/", with: "") }
        return ifNoneMatch.split(separator: ",").contains { strip($0) == "*" || strip($0) == strip(Substring(etag)) }
    }

    /// The answer, or 304 with the validators when the request's hold. `lastModified` nil: no `Last-Modified`.
    static func answer(_ body: SimResponse, etag: String?, lastModified: Int?, _ call: Call) -> SimResponse {
        var validators: [(String, String)] = []
        if let etag { validators.append(("ETag", etag)) }
        if let lastModified { validators.append(("Last-Modified", HTTPDate.format(lastModified))) }
        let headers = call.request.headers
        let unchanged: Bool
        if let ifNoneMatch = headers["if-none-match"], etag != nil {
            unchanged = etag.map { matches(ifNoneMatch, $0) } ?? false
        } else if let since = headers["if-modified-since"].flatMap(HTTPDate.parse), let lastModified {
            unchanged = lastModified <= since
        } else {
            unchanged = false
        }
        if unchanged {
            var notModified = SimResponse(status: 304, body: [])
            notModified.headers = validators
            return notModified
        }
        var response = body
        response.headers += validators
        return response
    }
}

extension ServerState {
    mutating func conditional(_ call: Call) -> Routed {
        variant(call, ConditionalRoutes.variants) { state, variant in
            let body = Reply.json(200, .array(state.items))
            let tag = "\"\(ConditionalRoutes.tag(of: body.body))\""
            let etag: String? =
                switch variant {
                case "etag", "both": tag
                case "weak-etag": "W/" + tag
                default: nil
                }
            let lastModified = ["last-modified", "both"].contains(variant) ? state.itemsModified : nil
            return ConditionalRoutes.answer(body, etag: etag, lastModified: lastModified, call)
        }
    }
}
