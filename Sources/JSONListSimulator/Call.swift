#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SimulatorKit

/// One request as the routes see it: its path segments, the listener it came in on and the origin the client
/// addressed (for absolute links), and the credentials it presented.
struct Call {
    let request: SimRequest
    let segments: [String]
    /// "http", "https" or "other".
    let listener: String
    /// `scheme://host:port` as the client addressed this server.
    let origin: String
    let now: Int

    init(request: SimRequest, listeners: Listeners, now: Int) {
        self.request = request
        self.now = now
        segments = request.path.split(separator: "/").map(String.init)
        let host = request.headers["host"]
        listener = listeners.name(forHost: host)
        origin = (listener == "https" ? "https://" : "http://") + (host ?? listeners.http ?? "127.0.0.1")
    }

    var method: String { request.method }

    func query(_ name: String) -> String? { request.query[name] }

    /// A non-negative integer parameter, `fallback` when absent or not a number.
    func int(_ name: String, _ fallback: Int) -> Int {
        request.query[name].flatMap { Int($0) }.map { max(0, $0) } ?? fallback
    }

    /// The body as JSON, or nil when it is not.
    var json: JSONValue? { try? JSONValue.parse(request.body) }

    /// What the `Authorization` header presents.
    var credentials: Presented { Presented(authorization: request.authorization) }

    /// The request's own path and query (for links that keep every parameter but one).
    func link(_ path: String, replacing changes: [String: String]) -> String {
        var query = request.query
        for (name, value) in changes { query[name] = value }
        let pairs = query.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.escaped($0.value))" }
        return pairs.isEmpty ? path : path + "?" + pairs.joined(separator: "&")
    }

    /// Percent-encodes all but RFC 3986's unreserved characters.
    static func escaped(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var out = ""
        for byte in value.utf8 {
            let scalar = Unicode.Scalar(byte)
            if ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || "-._~".unicodeScalars.contains(scalar)
            {
                out.unicodeScalars.append(scalar)
            } else {
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}

/// Credentials as an `Authorization` header carries them.
enum Presented: Equatable {
    case none
    case basic(user: String, password: String)
    /// `Bearer TOKEN`.
    case bearer(String)
    /// `token TOKEN`, GitHub's older scheme.
    case token(String)
    case other(scheme: String)

    init(authorization: String?) {
        guard let authorization, !authorization.isEmpty else {
            self = .none
            return
        }
        let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
        let scheme = parts[0].lowercased()
        let value = parts.count > 1 ? String(parts[1].drop { $0 == " " }) : ""
        switch scheme {
        case "basic":
            let decoded = Data(base64Encoded: value).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let pair = decoded.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            self = .basic(user: pair[0], password: pair.count > 1 ? pair[1] : "")
        case "bearer": self = .bearer(value)
        case "token": self = .token(value)
        default: self = .other(scheme: String(scheme.prefix(16)))
        }
    }

    /// The scheme only, never the secret: what stats and the request log keep.
    var kind: String {
        switch self {
        case .none: "none"
        case .basic: "basic"
        case .bearer: "bearer"
        case .token: "token"
        case .other(let scheme): scheme
        }
    }
}

/// What a route answered, under the name stats, faults and the request log use (`GET /devices/{id}`).
struct Routed {
    var name: String
    var response: SimResponse
}
