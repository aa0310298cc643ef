/// What the configuration's `url` reveals about how safely trackwatch talks to the server.
public enum ServerURL {
    /// `scheme://authority/…` → `authority` (`user:password@host:port`), or `nil` without `://`.
    static func authority(of url: String) -> Substring? {
        guard let separator = url.firstRange(of: "://") else { return nil }
        let rest = url[separator.upperBound...]
        return rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    }

    /// True when the URL carries user info (`https://user:password@host`): a password there would end up in
    /// logs, status lines and error messages, so such a URL is refused.
    public static func hasUserInfo(_ url: String) -> Bool {
        if let authority = authority(of: url) { return authority.contains("@") }
        return url.contains("@")
    }

    /// The host of an `http(s)://` URL, without the brackets of an IPv6 literal; `nil` if there is none.
    public static func host(of url: String) -> String? {
        guard var authority = authority(of: url) else { return nil }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        let host = authority.prefix { $0 != ":" }
        return host.isEmpty ? nil : String(host)
    }

    /// True for plain `http://` to a host that is not this machine: the password, the session token and every
    /// record then cross the network unencrypted. Warned about on every start and by `doctor`.
    public static func isCleartextToAnotherHost(_ url: String) -> Bool {
        guard url.lowercased().hasPrefix("http://") else { return false }
        return !(host(of: url).map(isLoopback) ?? false)
    }

    /// How a plain `http://` URL exposes the password, the session token and the records.
    public enum CleartextRisk: Equatable, Sendable {
        /// They cross the network to another host.
        case toAnotherHost
        /// The server is on this machine, but the requests go through a proxy, which reads them.
        case throughAProxy
    }

    /// `nil` for `https://`, and for `http://` to this machine reached directly.
    public static func cleartextRisk(_ url: String, proxied: Bool) -> CleartextRisk? {
        guard url.lowercased().hasPrefix("http://") else { return nil }
        if isCleartextToAnotherHost(url) { return .toAnotherHost }
        return proxied ? .throughAProxy : nil
    }

    /// `localhost`, `127.0.0.0/8` and `::1` (in any of its spellings).
    public static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        if name == "localhost" || name == "localhost." { return true }
        if let octets = ipv4Octets(name) { return octets[0] == 127 }
        return ipv6Groups(name) == [0, 0, 0, 0, 0, 0, 0, 1]
    }

    /// The four octets of a dotted IPv4 literal, or `nil`. ASCII digits only: `isNumber` also admits full-width
    /// and other digits that `Int` cannot read (a forced unwrap of it once trapped `check` on `１２７.0.0.1`).
    static func ipv4Octets(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = UInt8(part)
            else { return nil }
            octets.append(value)
        }
        return octets
    }

    /// The eight 16-bit groups of an IPv6 literal (`::` expanded), or `nil`.
    static func ipv6Groups(_ text: String) -> [UInt16]? {
        let halves = text.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            guard !part.isEmpty else { return [] }
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.allSatisfy({ (1...4).contains($0.count) }) else { return nil }
            let values = fields.compactMap { UInt16($0, radix: 16) }
            return values.count == fields.count ? values : nil
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count < 8 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }
}
