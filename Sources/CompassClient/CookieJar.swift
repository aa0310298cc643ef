import TrackerHTTP
/// The cookies one Compass server sets for the session, sent back on the following requests (RFC 6265, the
/// parts a non-browser client needs). DevOps Plan deployments with several replicas keep a result set in one
/// replica and route by a cookie; without it, page 2 reaches a replica that never heard of the result set.
///
/// One jar per `CompassClient`, so per `[[server]]` profile: nothing a server sets ever reaches another. The
/// server is untrusted, so the jar is bounded (count, size of each cookie, size of the header it makes) and
/// takes only printable ASCII that cannot break a header line. Cookie values can carry session identifiers:
/// they are never logged, and nothing prints the jar (its description names only the cookies).
struct CookieJar: CustomStringConvertible {
    static let maximumCount = 32
    /// Bytes of a cookie's name and value together (browsers allow 4096).
    static let maximumCookieSize = 4_096
    /// Bytes of the `Cookie` header all cookies for one request make.
    static let maximumHeaderSize = 8_192
    /// A `Set-Cookie` line longer than this is ignored without being read further.
    static let maximumLineSize = 8_192
    /// Expiry dates further away than this are brought in (RFC 6265bis: 400 days).
    static let longestLifetime: Double = 400 * 86_400

    struct Cookie: Equatable {
        let name: String
        let value: String
        /// Lower-cased host, or the domain of a `Domain=` cookie.
        let domain: String
        /// Sent only to exactly `domain`, not to its subdomains (no `Domain=` attribute).
        let hostOnly: Bool
        let path: String
        let secure: Bool
        /// Local seconds since 1970; `nil` for a session cookie.
        let expiresAt: Double?
        let created: Int
    }

    private(set) var cookies: [Cookie] = []
    private var created = 0

    /// The names of the cookies held (for `probe` and tests; values stay inside).
    var names: [String] { cookies.map(\.name) }
    var description: String { "cookies: \(names.joined(separator: ", "))" }

    mutating func removeAll() { cookies.removeAll() }

    /// Takes the `Set-Cookie` headers of a response to `url`; malformed, oversized, foreign-domain and
    /// insecure ones are dropped.
    mutating func store(_ headers: [(name: String, value: String)], from url: RequestURL, now: Double) {
        var seen = 0
        for header in headers where header.name.lowercased() == "set-cookie" {
            seen += 1
            guard seen <= Self.maximumCount else { break }
            if let cookie = Self.parse(header.value, from: url, now: now, order: created) {
                created += 1
                insert(cookie, now: now)
            }
        }
    }

    /// The `Cookie` header for a request to `url`, or `nil` when no cookie applies.
    mutating func header(for url: RequestURL, now: Double) -> String? {
        cookies.removeAll { $0.expiresAt.map { $0 <= now } ?? false }
        let matching = cookies.filter { cookie in
            (cookie.hostOnly ? url.host == cookie.domain : Self.domain(url.host, matches: cookie.domain))
                && Self.path(url.path, matches: cookie.path) && (!cookie.secure || url.isSecure)
        }
        .sorted { ($0.path.count, -$0.created) > ($1.path.count, -$1.created) }
        guard !matching.isEmpty else { return nil }
        return matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    private mutating func insert(_ cookie: Cookie, now: Double) {
        cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
        cookies.removeAll { $0.expiresAt.map { $0 <= now } ?? false }
        if let expiresAt = cookie.expiresAt, expiresAt <= now { return }  // an expiry in the past deletes it
        cookies.append(cookie)
        // Over a bound: the oldest go first, as in browsers.
        while cookies.count > Self.maximumCount
            || cookies.reduce(0, { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 })
                > Self.maximumHeaderSize
        {
            cookies.removeFirst()
        }
    }

    // MARK: - Parsing (RFC 6265 §5.2)

    static func parse(_ line: String, from url: RequestURL, now: Double, order: Int) -> Cookie? {
        guard line.utf8.count <= maximumLineSize else { return nil }
        let parts = line.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
        let name = trimmed(pair[..<equals]), value = trimmed(pair[pair.index(after: equals)...])
        guard !name.isEmpty, name.utf8.count + value.utf8.count <= maximumCookieSize,
            name.utf8.allSatisfy(isNameByte), value.utf8.allSatisfy(isValueByte)
        else { return nil }
        var domain: String?, path: String?, secure = false, maxAge: Double?, expires: Double?
        for attribute in parts.dropFirst() {
            let keyValue = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = trimmed(keyValue[0]).lowercased()
            let argument = keyValue.count > 1 ? trimmed(keyValue[1]) : ""
            switch key {
            case "domain":
                var text = argument.lowercased()
                while text.hasPrefix(".") { text.removeFirst() }
                if !text.isEmpty { domain = text }
            case "path": path = argument.hasPrefix("/") ? argument : nil
            case "secure": secure = true
            case "max-age": maxAge = Self.maxAge(argument) ?? maxAge
            case "expires":
                expires = RetryAfter.httpDate(argument.split(separator: " ").joined(separator: " ")) ?? expires
            default: break  // HttpOnly, SameSite, Partitioned…: meaningless without a browser
            }
        }
        // A cookie for another site, or a Secure one from a plain-HTTP answer, is refused (RFC 6265bis).
        if let domain, !Self.domain(url.host, matches: domain) || !domain.contains(".") && domain != url.host {
            return nil
        }
        if secure, !url.isSecure { return nil }
        let expiresAt: Double?
        if let maxAge {
            expiresAt = maxAge <= 0 ? now - 1 : now + min(maxAge, longestLifetime)
        } else if let expires {
            expiresAt = min(expires, now + longestLifetime)
        } else {
            expiresAt = nil
        }
        return Cookie(
            name: name, value: value, domain: domain ?? url.host, hostOnly: domain == nil,
            path: path ?? defaultPath(url.path), secure: secure, expiresAt: expiresAt, created: order)
    }

    /// `Max-Age`: an optional minus and digits; any number of digits is bounded, never trapped on.
    private static func maxAge(_ text: String) -> Double? {
        let negative = text.hasPrefix("-")
        let digits = negative ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        if negative { return 0 }
        let significant = digits.drop { $0 == "0" }
        guard significant.count <= 10, let seconds = Double(significant.isEmpty ? "0" : String(significant)) else {
            return longestLifetime
        }
        return seconds
    }

    /// Token characters: printable ASCII without separators.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
    }

    /// Printable ASCII without `;`, `,`, `\` and spaces (RFC 6265 cookie-octet, and `"` for quoted values).
    private static func isValueByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: ";") && byte != UInt8(ascii: ",")
            && byte != UInt8(ascii: "\\")
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// RFC 6265 §5.1.3; never a match across an IP address's "subdomains".
    static func domain(_ host: String, matches domain: String) -> Bool {
        if host == domain { return true }
        guard host.hasSuffix("." + domain) else { return false }
        return !host.allSatisfy { $0.isNumber || $0 == "." } && !host.contains(":")
    }

    /// RFC 6265 §5.1.4.
    static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    /// RFC 6265 §5.1.4: the request path up to its last `/`.
    static func defaultPath(_ requestPath: String) -> String {
        guard requestPath.hasPrefix("/"), let last = requestPath.lastIndex(of: "/"), last != requestPath.startIndex
        else {
            return "/"
        }
        return String(requestPath[..<last])
    }
}

/// The parts of a request URL cookies are scoped by.
struct RequestURL: Equatable {
    let isSecure: Bool
    /// Lower-cased, without brackets or port.
    let host: String
    /// The path without the query, `/` when empty.
    let path: String

    init(_ url: String) {
        isSecure = url.lowercased().hasPrefix("https://")
        var rest = Substring(url)
        if let range = rest.firstRange(of: "://") { rest = rest[range.upperBound...] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close].lowercased()
        } else {
            host = (authority.lastIndex(of: ":").map { authority[..<$0] } ?? authority).lowercased()
        }
        let pathAndQuery = rest[authorityEnd...]
        let path = pathAndQuery.prefix { $0 != "?" && $0 != "#" }
        self.path = path.isEmpty ? "/" : String(path)
    }
}
