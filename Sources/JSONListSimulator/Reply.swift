import SimulatorKit

/// Building answers.
enum Reply {
    static func json(
        _ status: Int, _ value: JSONValue, contentType: String = "application/json", headers: [(String, String)] = []
    ) -> SimResponse {
        var response = SimResponse(status: status, body: value.bytes)
        response.headers = [("Content-Type", contentType)] + headers
        return response
    }

    static let reasons = [
        200: "OK", 201: "Created", 204: "No Content", 301: "Moved Permanently", 302: "Found", 303: "See Other",
        304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
        401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict",
        429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    /// The generic error body: `{"status": 404, "error": "Not Found", "message": "…"}`.
    static func error(_ status: Int, _ message: String, headers: [(String, String)] = []) -> SimResponse {
        json(
            status, ["status": .int(status), "error": .text(reasons[status] ?? "Error"), "message": .string(message)],
            headers: headers)
    }

    static func notFound(_ call: Call) -> SimResponse { error(404, "No route \(call.method) \(call.request.path)") }

    static func methodNotAllowed(_ allowed: String) -> SimResponse {
        error(405, "Allowed: \(allowed)", headers: [("Allow", allowed)])
    }

    static func noContent() -> SimResponse { SimResponse(status: 204, body: []) }

    /// 401 with the challenge a browser or client answers with credentials.
    static func unauthorized(_ message: String, challenge: String) -> SimResponse {
        error(401, message, headers: [("WWW-Authenticate", challenge)])
    }
}
