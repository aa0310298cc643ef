/// A listening TCP socket of this machine, as `/proc/net/tcp` and `/proc/net/tcp6` show it: who receives what
/// trackwatch sends to a plain `http://` URL on this machine. Nothing authenticates such a server: whoever binds its
/// port first (another user, while the real server is down) receives the token or password with every request.
public struct LoopbackListener: Equatable, Sendable {
    /// The local address in network order: 4 bytes, or 16 for IPv6.
    public let address: [UInt8]
    public let port: UInt16
    /// The socket's owner.
    public let uid: UInt32

    public init(address: [UInt8], port: UInt16, uid: UInt32) {
        self.address = address
        self.port = port
        self.uid = uid
    }

    /// The sockets in state LISTEN of one `/proc/net/tcp` or `/proc/net/tcp6` text. Each line:
    /// `sl local_address rem_address st tx:rx tr:when retrnsmt uid …`, the address as 32-bit words in hex, each in
    /// the host's byte order, the port in hex, LISTEN as state `0A`. Lines that do not read so are passed over.
    public static func listening(inProcNetTCP text: String) -> [LoopbackListener] {
        text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: " ")
            guard columns.count > 7, columns[3] == "0A" else { return nil }
            let local = columns[1].split(separator: ":")
            guard local.count == 2, let port = UInt16(local[1], radix: 16), let uid = UInt32(columns[7]),
                let address = addressBytes(local[0])
            else { return nil }
            return LoopbackListener(address: address, port: port, uid: uid)
        }
    }

    /// `0100007F` → 127.0.0.1 on a little-endian host: each word's value laid out in the host's byte order.
    static func addressBytes(_ hex: Substring) -> [UInt8]? {
        guard hex.count == 8 || hex.count == 32, hex.utf8.allSatisfy({ isHexDigit($0) }) else { return nil }
        var bytes: [UInt8] = []
        var word = hex.startIndex
        while word < hex.endIndex {
            let end = hex.index(word, offsetBy: 8)
            guard let value = UInt32(hex[word..<end], radix: 16) else { return nil }
            withUnsafeBytes(of: value) { bytes += $0 }
            word = end
        }
        return bytes
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// Whether a connection to `host` (a loopback address or `localhost`) on this socket's port may end here: the
    /// socket is bound to that address, to any address of its family, or (IPv6) to `::` or the IPv4-mapped address.
    func accepts(_ host: [UInt8]) -> Bool {
        if address == host { return true }
        if address.allSatisfy({ $0 == 0 }) { return address.count == host.count || address.count == 16 }
        return address.count == 16 && host.count == 4 && address == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + host
    }
}

/// Who would receive a plain `http://` request to this machine.
public enum LoopbackServer: Equatable, Sendable {
    /// Every socket that could take the connection is yours (or root's, who can read your secrets anyway).
    case yours
    /// Nothing listens now: whoever binds the port first receives the next request.
    case nobody
    /// Another user's socket takes it.
    case anotherUser(uid: UInt32)

    /// Who listens on `port` of `host` among `listeners`, for the user `uid`. `host` is an address `ServerURL`
    /// calls loopback; `localhost` may resolve to 127.0.0.1 or ::1, so both count.
    public static func of(host: String, port: UInt16, listeners: [LoopbackListener], uid: UInt32) -> LoopbackServer {
        let name = host.lowercased()
        var addresses: [[UInt8]] = []
        if name == "localhost" || name == "localhost." {
            addresses = [[127, 0, 0, 1], [UInt8](repeating: 0, count: 15) + [1]]
        } else if let octets = ServerURL.ipv4Octets(name) {
            addresses = [octets]
        } else if let groups = ServerURL.ipv6Groups(name) {
            addresses = [groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }]
        }
        let taking = listeners.filter { listener in listener.port == port && addresses.contains { listener.accepts($0) } }
        if let other = taking.first(where: { $0.uid != uid && $0.uid != 0 }) { return .anotherUser(uid: other.uid) }
        return taking.isEmpty ? .nobody : .yours
    }
}

extension ServerURL {
    /// The port of an `http(s)://` URL: the one written, else 80 or 443. `nil` for a port that is no number.
    public static func port(of url: String) -> UInt16? {
        guard var authority = authority(of: url) else { return nil }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            authority = authority[authority.index(after: close)...]
        }
        guard let colon = authority.lastIndex(of: ":") else { return url.lowercased().hasPrefix("https://") ? 443 : 80 }
        return UInt16(authority[authority.index(after: colon)...])
    }

    /// True for a plain `http://` URL to this machine: its requests, and the token or password in them, go to
    /// whichever local process listens on the port (`LoopbackServer`).
    public static func isCleartextToThisMachine(_ url: String) -> Bool {
        url.lowercased().hasPrefix("http://") && (host(of: url).map(isLoopback) ?? false)
    }
}
