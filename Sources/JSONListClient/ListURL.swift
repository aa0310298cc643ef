/// An `http(s)` URL taken apart as far as paging and redirects need it: the origin that decides where
/// credentials may go, the query that page parameters change, and references (`Location`, a `next` link)
/// resolved against it (RFC 3986 §5, without dot-segment removal, which no server here needs).
public struct ListURL: Equatable, Sendable, CustomStringConvertible {
    /// `http` or `https`, lower case.
    public let scheme: String
    /// `host:port` as written (lower-cased host); `port` is the effective one.
    public let host: String
    public let port: Int
    let authority: String
    /// From the first `/` up to `?` or `#`; `/` when empty.
    public let path: String
    /// After `?`, without it; `nil` when there is none.
    public let query: String?

    /// `nil` unless `text` is an absolute `http://` or `https://` URL with a host, printable ASCII only.
    public init?(_ text: String) {
        guard text.utf8.count <= 8_192, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }),
            let separator = text.firstRange(of: "://")
        else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        var rest = text[separator.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        rest = rest.dropFirst(authority.count)
        let path = rest.prefix { $0 != "?" }
        let query = rest.dropFirst(path.count)
        let (host, port) = Self.split(authority: authority, scheme: scheme)
        guard let host, let port else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port
        self.authority = String(authority)
        self.path = path.isEmpty ? "/" : String(path)
        self.query = query.isEmpty ? nil : String(query.dropFirst())
    }

    private static func split(authority: Substring, scheme: String) -> (String?, Int?) {
        var hostPart = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return (nil, nil) }
            hostPart = authority[...close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { return (nil, nil) }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        let port: Int?
        if let portText, !portText.isEmpty {
            port =
                portText.count <= 5 && portText.allSatisfy(\.isNumber)
                ? Int(portText).flatMap { $0 <= 65_535 ? $0 : nil } : nil
        } else {
            port = scheme == "https" ? 443 : 80
        }
        return (hostPart.isEmpty ? nil : hostPart.lowercased(), port)
    }

    public var description: String { "\(scheme)://\(authority)\(path)\(query.map { "?\($0)" } ?? "")" }

    /// Scheme, host and port: where a request really goes.
    public var origin: String { "\(scheme)://\(host):\(port)" }

    /// The URL `reference` (a `Location` header, a `next` link) names, read relative to this one; `nil` when it
    /// is no http(s) URL.
    public func resolving(_ reference: String) -> ListURL? {
        let reference =
            reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if reference.contains("://") { return ListURL(reference) }
        if reference.hasPrefix("//") { return ListURL("\(scheme):\(reference)") }
        if reference.hasPrefix("/") { return ListURL("\(scheme)://\(authority)\(reference)") }
        if reference.hasPrefix("?") { return ListURL("\(scheme)://\(authority)\(path)\(reference)") }
        if reference.isEmpty { return self }
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "/"
        return ListURL("\(scheme)://\(authority)\(directory)\(reference)")
    }

    /// This URL with the query parameter `name` set to `value` (percent-encoded), replacing every earlier one.
    public func setting(_ name: String, to value: String) -> ListURL {
        var pairs = (query ?? "").split(separator: "&").filter { pair in
            pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) != name
        }.map(String.init)
        pairs.append("\(name)=\(Self.percentEncoded(value))")
        return ListURL("\(scheme)://\(authority)\(path)?\(pairs.joined(separator: "&"))") ?? self
    }

    /// Unreserved characters as they are, every other byte as `%XX`.
    public static func percentEncoded(_ text: String) -> String {
        var out = ""
        let hex = Array("0123456789ABCDEF")
        for byte in text.utf8 {
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "-._~".utf8.contains(byte)
            {
                out.append(Character(Unicode.Scalar(byte)))
            } else {
                out += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
            }
        }
        return out
    }
}
