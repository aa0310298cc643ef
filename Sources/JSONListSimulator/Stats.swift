import SimulatorKit

/// `GET /sim/stats`: counts by route and listener, conditional requests and 304s, and which kinds of credentials
/// arrived where. Never a secret: credentials are counted by scheme (`basic`, `bearer`, `token`, `x-api-key`,
/// `private-token`, `none`).
struct Stats {
    var requests = 0
    var requestsByRoute: [String: Int] = [:]
    var requestsByListener: [String: Int] = [:]
    /// Requests carrying `If-None-Match` or `If-Modified-Since`.
    var conditionalRequests = 0
    var notModified = 0
    var credentialsByRoute: [String: [String: Int]] = [:]
    var credentialsByListener: [String: [String: Int]] = [:]
    /// Requests whose `Accept-Encoding` allows gzip, and answers sent gzipped.
    var gzipAccepted = 0
    var gzipped = 0
    var faultsApplied = 0

    mutating func record(_ entry: RequestLog.Entry) {
        requests += 1
        requestsByRoute[entry.route, default: 0] += 1
        requestsByListener[entry.listener, default: 0] += 1
        if entry.ifNoneMatch || entry.ifModifiedSince { conditionalRequests += 1 }
        if entry.status == 304 { notModified += 1 }
        credentialsByRoute[entry.route, default: [:]][entry.credentials, default: 0] += 1
        credentialsByListener[entry.listener, default: [:]][entry.credentials, default: 0] += 1
        if entry.acceptsGzip { gzipAccepted += 1 }
        if entry.gzipped { gzipped += 1 }
        if entry.fault != nil { faultsApplied += 1 }
    }

    var json: JSONValue {
        [
            "requests": .int(requests), "requestsByRoute": Self.counts(requestsByRoute),
            "requestsByListener": Self.counts(requestsByListener), "conditionalRequests": .int(conditionalRequests),
            "notModified": .int(notModified),
            "credentialsByRoute": .object(
                JSONObject(
                    credentialsByRoute.sorted { $0.key < $1.key }.map {
                        JSONObject.Member($0.key, Self.counts($0.value))
                    })),
            "credentialsByListener": .object(
                JSONObject(
                    credentialsByListener.sorted { $0.key < $1.key }.map {
                        JSONObject.Member($0.key, Self.counts($0.value))
                    })),
            "gzipAccepted": .int(gzipAccepted), "gzipped": .int(gzipped), "faultsApplied": .int(faultsApplied),
        ]
    }

    private static func counts(_ values: [String: Int]) -> JSONValue {
        .object(JSONObject(values.sorted { $0.key < $1.key }.map { JSONObject.Member($0.key, .int($0.value)) }))
    }
}

/// `GET /sim/requests`: the last 1,000 requests, oldest first, with what they carried but no secret (the target's
/// token parameters are redacted).
struct RequestLog {
    struct Entry {
        var number: Int
        var listener: String
        var method: String
        var route: String
        var target: String
        var credentials: String
        var ifNoneMatch: Bool
        var ifModifiedSince: Bool
        var acceptsGzip: Bool
        var userAgent: Bool
        var status = 0
        var gzipped = false
        var fault: String?

        var json: JSONValue {
            [
                "n": .int(number), "listener": .string(listener), "method": .string(method), "route": .string(route),
                "target": .string(target), "credentials": .string(credentials), "ifNoneMatch": .bool(ifNoneMatch),
                "ifModifiedSince": .bool(ifModifiedSince), "acceptsGzip": .bool(acceptsGzip),
                "userAgent": .bool(userAgent), "status": .int(status), "gzipped": .bool(gzipped),
                "fault": .text(fault),
            ]
        }
    }

    static let capacity = 1_000
    private(set) var entries: [Entry] = []

    mutating func append(_ entry: Entry) {
        if entries.count == Self.capacity { entries.removeFirst(Self.capacity / 10) }
        entries.append(entry)
    }

    /// Query parameters that carry secrets (GitLab's `private_token`, OAuth's `access_token`, …).
    static let secretParameters: Set = ["private_token", "access_token", "token", "api_key", "apikey", "key"]

    static func entry(for call: Call, route: String, number: Int) -> Entry {
        let headers = call.request.headers
        var kinds = [call.credentials.kind]
        if headers["x-api-key"] != nil { kinds.append("x-api-key") }
        if headers["private-token"] != nil { kinds.append("private-token") }
        if kinds.count > 1 { kinds.removeAll { $0 == "none" } }
        return Entry(
            number: number, listener: call.listener, method: call.method, route: route,
            target: redactedTarget(call), credentials: kinds.joined(separator: "+"),
            ifNoneMatch: headers["if-none-match"] != nil, ifModifiedSince: headers["if-modified-since"] != nil,
            acceptsGzip: Encodings.acceptsGzip(headers["accept-encoding"]), userAgent: headers["user-agent"] != nil)
    }

    private static func redactedTarget(_ call: Call) -> String {
        let pairs = call.request.query.sorted { $0.key < $1.key }.map { name, value in
            "\(name)=" + (secretParameters.contains(name.lowercased()) ? "REDACTED" : Call.escaped(value))
        }
        return call.request.path + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
    }
}
