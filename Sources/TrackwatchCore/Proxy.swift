/// How a server is reached: `proxy` in `[server]`, or the proxy environment variables as curl reads them.
public enum ProxySetting: Equatable, Sendable {
    /// No `proxy` key: `https_proxy`/`http_proxy`/`all_proxy` and `no_proxy` decide (upper-case forms too).
    case environment
    /// `proxy = ""`: never a proxy, whatever the environment says.
    case direct
    /// `proxy = "http://host:port"`: this proxy for this server; `no_proxy` does not apply (the key is per server).
    case proxy(ProxyURL)
}

/// An HTTP proxy: `http://[user:password@]host[:port]`. https:// requests go through it with CONNECT, so TLS runs
/// end to end between trackwatch and the tracker's server; http:// requests are sent to it as absolute-URI
/// requests, which it reads (as it could read a tunnel of plain HTTP).
public struct ProxyURL: Equatable, Sendable, CustomStringConvertible {
    /// curl's default proxy port.
    public static let defaultPort = 1080

    public let host: String
    public let port: Int
    /// Sent as `Proxy-Authorization: Basic …`; never printed.
    public let username: String?
    public let password: Secret?

    public init(host: String, port: Int, username: String? = nil, password: Secret? = nil) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// `http://host:port`, without the credentials: what logs and messages show.
    public var description: String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Why a proxy URL was refused, in words for the key or variable that held it.
    public struct ParseError: Error, Equatable, Sendable {
        public let message: String
    }

    /// Parses `http://host:port`, `host:port` (http assumed, as curl does) or `http://user:pw@host:port`, with
    /// percent-encoded credentials. A missing port is 1080, as in curl. Other schemes are refused: trackwatch
    /// speaks to HTTP proxies only.
    public init(parsing text: String) throws(ParseError) {
        var rest = Substring(text.trimmingWhitespace)
        guard !rest.isEmpty else { throw ParseError(message: "is empty") }
        guard rest.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw ParseError(
                message: "must be a URL without spaces or control characters, e.g. http://proxy.example.com:3128")
        }
        if let range = rest.firstRange(of: "://") {
            let scheme = rest[..<range.lowerBound].lowercased()
            guard scheme == "http" else {
                throw ParseError(
                    message: "uses \(scheme)://; trackwatch supports http:// proxies only "
                        + "(it tunnels TLS to the server through them with CONNECT)")
            }
            rest = rest[range.upperBound...]
        }
        if let slash = rest.firstIndex(of: "/") {
            guard rest[slash...].allSatisfy({ $0 == "/" }) else {
                throw ParseError(message: "must not have a path; write http://host:port")
            }
            rest = rest[..<slash]
        }
        var username: String?, password: Secret?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let user = Self.percentDecoded(parts[0]),
                let secret = Self.percentDecoded(parts.count > 1 ? parts[1] : "")
            else { throw ParseError(message: "has badly percent-encoded credentials") }
            username = user
            password = Secret(secret)
        }
        let host: Substring, portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw ParseError(message: "has an unclosed [ in its host")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else {
                throw ParseError(message: "has text after the ] of its host")
            }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
            portText = nil
        }
        guard !host.isEmpty else { throw ParseError(message: "names no host; write http://host:port") }
        var port = Self.defaultPort
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(portText), (1...65_535).contains(number)
            else { throw ParseError(message: "has an invalid port; expected a number 1–65535 after the host") }
            port = number
        }
        self.init(host: host.lowercased(), port: port, username: username, password: password)
    }

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high < utf8.endIndex, utf8.index(after: high) < utf8.endIndex,
                    let value = UInt8(
                        String(decoding: [utf8[high], utf8[utf8.index(after: high)]], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                index = utf8.index(index, offsetBy: 3)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// The proxy chosen for one server, and where the choice came from (for the log and `probe`).
public struct ProxyChoice: Equatable, Sendable {
    /// `nil`: the server is reached directly.
    public let proxy: ProxyURL?
    /// `proxy in [server]`, `https_proxy`, `NO_PROXY`, … — what decided.
    public let source: String?

    public init(proxy: ProxyURL?, source: String?) {
        self.proxy = proxy
        self.source = source
    }

    /// The proxy for a server at `url` (`https://host:port/…`), as curl would pick it: `proxy` in the
    /// configuration first (`""` = none); else `https_proxy`/`HTTPS_PROXY` for https and `http_proxy`/
    /// `HTTP_PROXY` for http, then `all_proxy`/`ALL_PROXY` — lower case before upper case, empty meaning
    /// unset — unless `no_proxy`/`NO_PROXY` lists the host.
    ///
    /// Unlike curl, `HTTP_PROXY` in upper case is honoured: curl ignores it because a CGI program gets the
    /// request's `Proxy:` header under that name, and trackwatch is never run as CGI.
    ///
    /// A URL on this machine (`ServerURL.isLoopback`) never takes a proxy from the environment, as Go's and
    /// Chrome's clients do: the proxy would see the password of a plain `http://localhost` login, which the
    /// clear-text warning exempts. The `proxy` key still decides for it.
    public static func choose(
        for url: String, setting: ProxySetting, environment: [String: String]
    ) throws(ProxyURL.ParseError) -> ProxyChoice {
        switch setting {
        case .direct: return ProxyChoice(proxy: nil, source: "proxy = \"\" in [server]")
        case .proxy(let proxy): return ProxyChoice(proxy: proxy, source: "proxy in [server]")
        case .environment: break
        }
        if let host = ServerURL.host(of: url), ServerURL.isLoopback(host) {
            return ProxyChoice(proxy: nil, source: "a url on this machine")
        }
        let lower = url.lowercased()
        let scheme = lower.hasPrefix("https://") ? "https" : "http"
        let host = Self.host(of: url)
        let names = ["\(scheme)_proxy", "\(scheme.uppercased())_PROXY", "all_proxy", "ALL_PROXY"]
        guard let name = names.first(where: { !(environment[$0] ?? "").isEmpty }), let value = environment[name] else {
            return ProxyChoice(proxy: nil, source: nil)
        }
        for noProxyName in ["no_proxy", "NO_PROXY"] {
            guard let list = environment[noProxyName], !list.isEmpty else { continue }
            if NoProxy(list).matches(host: host) { return ProxyChoice(proxy: nil, source: noProxyName) }
            break  // the lower-case form, when set, hides the upper-case one
        }
        do {
            return ProxyChoice(proxy: try ProxyURL(parsing: value), source: name)
        } catch {
            throw ProxyURL.ParseError(message: "the \(name) environment variable \(error.message)")
        }
    }

    /// The host of `scheme://[user@]host[:port]/…`, lower-cased, without brackets.
    static func host(of url: String) -> String {
        var rest = Substring(url)
        if let range = rest.firstRange(of: "://") { rest = rest[range.upperBound...] }
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            return rest[rest.index(after: rest.startIndex)..<close].lowercased()
        }
        if let colon = rest.lastIndex(of: ":") { rest = rest[..<colon] }
        return rest.lowercased()
    }
}

/// A `no_proxy` list as curl reads it: comma-separated host names (each also matching its subdomains; a
/// leading dot is ignored), IP addresses, CIDR ranges (`10.0.0.0/8`, `fd00::/8`), or `*` for every host.
public struct NoProxy: Sendable {
    private let entries: [String]

    public init(_ list: String) {
        entries = list.split(separator: ",").map { entry in
            var text = entry.trimmingWhitespace.lowercased()
            while text.hasPrefix(".") { text.removeFirst() }
            while text.hasSuffix("."), text.count > 1 { text.removeLast() }
            if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
                text = String(text[text.index(after: text.startIndex)..<close]) + text[text.index(after: close)...]
            }
            return text
        }.filter { !$0.isEmpty }
    }

    public func matches(host rawHost: String) -> Bool {
        var host = rawHost.lowercased()
        while host.hasSuffix("."), host.count > 1 { host.removeLast() }
        let address = IPAddress(host)
        for entry in entries {
            if entry == "*" { return true }
            if let address {
                if let (network, prefix) = Self.cidr(entry) {
                    if address.isIn(network, prefixLength: prefix) { return true }
                } else if IPAddress(entry) == address {
                    return true
                }
            } else if host == entry || host.hasSuffix("." + entry) {
                return true
            }
        }
        return false
    }

    private static func cidr(_ entry: String) -> (IPAddress, Int)? {
        let parts = entry.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let network = IPAddress(String(parts[0])), parts[1].count <= 3,
            let prefix = Int(parts[1]),
            prefix >= 0, prefix <= network.bytes.count * 8
        else { return nil }
        return (network, prefix)
    }
}

/// An IPv4 or IPv6 address as bytes, for `no_proxy` matching.
struct IPAddress: Equatable {
    let bytes: [UInt8]

    init?(_ text: String) {
        if let v4 = Self.ipv4(Substring(text)) {
            bytes = v4
        } else if text.contains(":"), let v6 = Self.ipv6(text) {
            bytes = v6
        } else {
            return nil
        }
    }

    func isIn(_ network: IPAddress, prefixLength: Int) -> Bool {
        guard bytes.count == network.bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(bytes, network.bytes) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if mine & mask != theirs & mask { return false }
            remaining -= 8
        }
        return true
    }

    private static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = UInt8(part)
            else {
                return nil
            }
            bytes.append(value)
        }
        return bytes
    }

    private static func ipv6(_ text: String) -> [UInt8]? {
        guard text.count <= 45 else { return nil }
        let halves = text.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt8]? {
            guard !part.isEmpty else { return [] }
            var bytes: [UInt8] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains("."), let v4 = ipv4(piece) {
                    bytes += v4
                    continue
                }
                guard !piece.isEmpty, piece.count <= 4, let value = UInt16(piece, radix: 16) else { return nil }
                bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
            return bytes
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 16 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count < 16 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}

extension StringProtocol {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
