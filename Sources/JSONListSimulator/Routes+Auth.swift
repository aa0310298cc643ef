import SimulatorKit

/// `GET /auth/{kind}`: the generic list (a bare array) behind credentials (`ListCredentials`).
/// - basic: HTTP Basic. None or unknown: 401 with `WWW-Authenticate: Basic`; the forbidden user: 403.
/// - bearer: `Authorization: Bearer`. None: 401 `WWW-Authenticate: Bearer`; unknown: 401 with
///   `error="invalid_token"` (RFC 6750); the forbidden token: 403.
/// - api-key: an `X-API-Key` header. None: 401; unknown or forbidden: 403, as API gateways answer a bad key.
enum AuthRoutes {
    static let kinds = ["basic", "bearer", "api-key"]
    static let realm = "json-sim"

    static func refusal(_ kind: String, _ call: Call) -> SimResponse? {
        switch kind {
        case "basic": return basicRefusal(call.credentials)
        case "bearer": return bearerRefusal(call.credentials)
        default: return apiKeyRefusal(call.request.headers[ListCredentials.apiKeyHeader.lowercased()])
        }
    }

    private static func basicRefusal(_ presented: Presented) -> SimResponse? {
        let challenge = #"Basic realm="\#(realm)""#
        guard case .basic(let user, let password) = presented else {
            return Reply.unauthorized("HTTP Basic credentials required", challenge: challenge)
        }
        switch (user, password) {
        case (ListCredentials.basicUser, ListCredentials.basicPassword): return nil
        case (ListCredentials.forbiddenBasicUser, ListCredentials.forbiddenBasicPassword):
            return Reply.error(403, "\(user) may not read this list")
        default: return Reply.unauthorized("Unknown user or wrong password", challenge: challenge)
        }
    }

    private static func bearerRefusal(_ presented: Presented) -> SimResponse? {
        guard case .bearer(let token) = presented else {
            return Reply.unauthorized("A bearer token is required", challenge: #"Bearer realm="\#(realm)""#)
        }
        switch token {
        case ListCredentials.bearerToken: return nil
        case ListCredentials.forbiddenBearerToken:
            return Reply.error(
                403, "This token may not read this list",
                headers: [("WWW-Authenticate", #"Bearer realm="\#(realm)", error="insufficient_scope""#)])
        default:
            return Reply.unauthorized(
                "Invalid token", challenge: #"Bearer realm="\#(realm)", error="invalid_token""#)
        }
    }

    private static func apiKeyRefusal(_ key: String?) -> SimResponse? {
        guard let key else { return Reply.error(401, "Missing \(ListCredentials.apiKeyHeader) header") }
        return key == ListCredentials.apiKey ? nil : Reply.json(403, ["message": "Forbidden"])
    }
}

extension ServerState {
    mutating func auth(_ call: Call) -> Routed {
        variant(call, AuthRoutes.kinds) { state, kind in
            AuthRoutes.refusal(kind, call) ?? Reply.json(200, .array(state.items))
        }
    }
}
