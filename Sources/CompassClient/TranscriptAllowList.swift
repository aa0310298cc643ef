import TrackerHTTP

/// What a `probe --save` transcript may keep verbatim besides values (`TranscriptRedactor`): the Compass API's JSON
/// keys, the JWT claims it issues, header names, and header values in the shape their header allows. A server
/// can put anything in a key or a header (the password it just received, say), so everything else is hashed.
extension TranscriptRedactor {
    /// The keys of the Compass REST API's requests and answers (shared/compass-api.md), and of its errors.
    static let keptKeys: Set<String> = [
        "token", "username", "password", "repo", "db", "message", "error", "errorMessage", "messageText", "status",
        "timestamp", "path", "result_set_id", "columns", "name", "dataType", "sortOrder", "sortType", "recordCount",
        "resultSetIsLimited", "sql", "queryLimitHard", "queryLimitSoft", "rows", "values", "totalNumberOfPages",
        "totalNumberOfRecords", "pageNumber", "pageSize", "dbId", "dbIdParent", "dbid", "workspaceItemType",
        "pathName", "children", "isWritable", "isReadable", "queryDef", "primaryEntityDefName", "queryFieldDefs",
        "fieldPathName", "isShown", "filterNode", "boolOp", "fieldFilters", "childFilterNodes", "fieldPath", "compOp",
        "resultSetOptions", "enableRecordCount", "convertToLocalTime", "maxResultSetRows", "maxMultiLineTextLength",
        "databaseNames", "displayName", "description", "type", "id", "value", "valueAsList", "valueStatus",
        "validationStatus", "fields", "truncated", "content", "legalActions", "actions", "actionName", "actionType",
        "actionDestStateName", "actionSourceStateNames", "entityDefName", "entityDefNames", "isFamily", "isMaster",
        "masterReplicaName", "requiredness", "requirednessForUser", "maxLength", "helpText",
    ]

    /// Registered JWT claims (RFC 7519) and the few more a login token carries.
    static let keptClaims: Set<String> = ["iss", "sub", "aud", "exp", "nbf", "iat", "jti", "typ", "scope", "roles"]

    /// Header names, lower-cased, that are the protocol's own.
    static let keptHeaderNames: Set<String> = [
        "accept", "accept-encoding", "authorization", "proxy-authorization", "cookie", "set-cookie", "content-type",
        "content-length", "date", "retry-after", "server", "transfer-encoding", "connection", "keep-alive",
        "cache-control", "vary", "expires", "pragma", "x-content-type-options", "content-encoding",
        "www-authenticate", "proxy-authenticate", "allow", "host", "user-agent", "location", "last-modified", "etag",
        "strict-transport-security", "x-frame-options", "x-xss-protection", "referrer-policy",
        "content-security-policy", "access-control-allow-origin",
    ]

    /// The words each header's value may consist of (lower-cased; `=0` stands for any number after `=`,
    /// `/0` for any version after a product's name). A value made of other words is hashed.
    static let headerWords: [String: Set<String>] = [
        "accept": ["application/json", "*/*"],
        "content-type": [
            "application/json", "text/html", "text/plain", "text/csv", "text/xml", "application/xml",
            "application/octet-stream", "application/problem+json", "charset=utf-8", "charset=iso-8859-1",
            "charset=us-ascii",
        ],
        "transfer-encoding": ["chunked", "gzip", "deflate", "identity"],
        "content-encoding": ["gzip", "deflate", "br", "identity"],
        "accept-encoding": ["gzip", "deflate", "br", "identity"],
        "connection": ["keep-alive", "close"],
        "keep-alive": ["timeout=0", "max=0"],
        "cache-control": [
            "no-cache", "no-store", "must-revalidate", "private", "public", "no-transform", "proxy-revalidate",
            "max-age=0", "s-maxage=0",
        ],
        "pragma": ["no-cache"],
        "x-content-type-options": ["nosniff"],
        "x-frame-options": ["deny", "sameorigin"],
        "allow": ["get", "post", "put", "patch", "delete", "head", "options"],
        "vary": [
            "accept", "accept-encoding", "origin", "access-control-request-method", "access-control-request-headers",
        ],
        // Products, alone or with a version.
        "server": [
            "apache", "apache/0", "apache-coyote/0", "nginx", "nginx/0", "microsoft-iis", "microsoft-iis/0",
            "ibm_http_server", "websphere", "jetty", "kestrel", "openresty", "openresty/0", "envoy",
        ],
    ]

    /// Cookie names of session and load-balancer cookies (their values are always removed).
    static let keptCookieNames: Set<String> = [
        "jsessionid", "route", "serverid", "awsalb", "awsalbcors", "ltpatoken2", "twsimroute", "path", "domain",
        "expires", "max-age", "httponly", "secure", "samesite",
    ]

    /// Schemes a `WWW-Authenticate` or `Proxy-Authenticate` value may start with (the rest is hashed).
    static let authenticationSchemes: Set<String> = ["basic", "bearer", "negotiate", "ntlm", "digest"]

    /// The header's name as it may be written into the transcript.
    func headerName(_ name: String) -> String {
        Self.keptHeaderNames.contains(name.lowercased()) ? name : hashed(name)
    }

    /// The value as it may be written: verbatim when it has its header's shape, else hashed. Credentials and
    /// cookies are handled before this (`headers(_:)`).
    func headerValue(name: String, _ value: String) -> String {
        guard value.utf8.count <= 200 else { return hashed(value) }
        switch name {
        case "content-length":
            return value.utf8.allSatisfy { (0x30...0x39).contains($0) } && !value.isEmpty ? value : hashed(value)
        case "date", "expires", "last-modified":
            return RetryAfter.httpDate(value) != nil ? value : hashed(value)
        case "retry-after":
            return RetryAfter.seconds(value, now: 0) != nil ? value : hashed(value)
        case "www-authenticate", "proxy-authenticate":
            let scheme = value.prefix { $0 != " " }
            guard Self.authenticationSchemes.contains(scheme.lowercased()) else { return hashed(value) }
            let rest = value.dropFirst(scheme.count).drop { $0 == " " }
            return rest.isEmpty ? String(scheme) : "\(scheme) \(hashed(String(rest)))"
        default:
            guard let words = Self.headerWords[name], Self.words(of: value).allSatisfy(words.contains) else {
                return hashed(value)
            }
            return value
        }
    }

    /// `no-cache, max-age=3600` → `no-cache`, `max-age=0`; `nginx/1.22.1` → `nginx/0`.
    static func words(of value: String) -> [String] {
        value.lowercased().split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " }).map { word in
            var word = String(word)
            for separator: Character in ["=", "/"] {
                if let index = word.lastIndex(of: separator),
                    !word[word.index(after: index)...].isEmpty,
                    word[word.index(after: index)...].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
                {
                    word = String(word[...index]) + "0"
                }
            }
            return word
        }
    }
}
