import Foundation

/// A small HTTP proxy on a free loopback port that opens CONNECT tunnels, as corporate proxies do, and records
/// every tunnel asked for and the `Proxy-Authorization` sent with it. Enough proxy for trackwatch's client,
/// which tunnels every request (http and https) with CONNECT; anything else is answered 405.
public final class ConnectProxy: @unchecked Sendable {
    public struct Tunnel: Equatable, Sendable {
        /// `host:port` from the CONNECT line.
        public let target: String
        public let proxyAuthorization: String?
    }

    public let port: Int
    public var url: String { "http://127.0.0.1:\(port)" }

    private let listener: Int32
    private let lock = NSLock()
    private var recorded: [Tunnel] = []
    private var stopped = false
    private let requiredAuthorization: String?

    /// - Parameter credentials: when given, a CONNECT without `Proxy-Authorization: Basic` of exactly these is
    ///   refused with 407.
    public init(credentials: (user: String, password: String)? = nil) throws {
        requiredAuthorization = credentials.map {
            "Basic " + Data("\($0.user):\($0.password)".utf8).base64EncodedString()
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Self.error("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw Self.error("bind/listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting; tunnels already open end when either side closes.
    public func stop() {
        // Once only: the accept loop closes the descriptor, whose number may then belong to another socket.
        guard
            lock.withLock({ () -> Bool in
                defer { stopped = true }; return !stopped
            })
        else { return }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// The tunnels asked for so far, refused ones included.
    public var tunnels: [Tunnel] { lock.withLock { recorded } }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            Thread { [self] in serve(client) }.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let (head, leftover) = Self.readHead(client) else { return }
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let request = lines.first?.split(separator: " ") ?? []
        guard request.count == 3, request[0] == "CONNECT" else {
            Self.send(client, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        let authorization = lines.dropFirst().first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { String($0.dropFirst("proxy-authorization:".count)).trimmingCharacters(in: .whitespaces) }
        let target = String(request[1])
        lock.withLock { recorded.append(Tunnel(target: target, proxyAuthorization: authorization)) }
        if let requiredAuthorization, authorization != requiredAuthorization {
            Self.send(
                client,
                "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\n"
                    + "Content-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        guard let colon = target.lastIndex(of: ":"), let port = UInt16(target[target.index(after: colon)...]),
            let upstream = Self.connect(
                host: String(target[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: port)
        else {
            Self.send(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        defer { close(upstream) }
        Self.send(client, "HTTP/1.1 200 Connection established\r\n\r\n")
        if !leftover.isEmpty { _ = leftover.withUnsafeBytes { write(upstream, $0.baseAddress, $0.count) } }
        Self.pump(client, upstream)
    }

    /// Copies bytes both ways until one side closes.
    private static func pump(_ a: Int32, _ b: Int32) {
        var fds = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while poll(&fds, 2, 30_000) > 0 {
            for (index, entry) in fds.enumerated() where entry.revents != 0 {
                let from = entry.fd, to = index == 0 ? b : a
                let count = read(from, &buffer, buffer.count)
                guard count > 0 else { return }
                var written = 0
                while written < count {
                    let result = buffer.withUnsafeBytes { write(to, $0.baseAddress! + written, count - written) }
                    guard result > 0 else { return }
                    written += result
                }
            }
        }
    }

    /// The request head up to the blank line, and whatever followed it in the same reads.
    private static func readHead(_ fd: Int32) -> (String, [UInt8])? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while data.count < 16_384 {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return nil }
            data += buffer[0..<count]
            if let end = data.firstRange(of: Array("\r\n\r\n".utf8)) {
                return (String(decoding: data[..<end.lowerBound], as: UTF8.self), Array(data[end.upperBound...]))
            }
        }
        return nil
    }

    private static func connect(host: String, port: UInt16) -> Int32? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let first = result else { return nil }
        defer { freeaddrinfo(result) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if fd >= 0 {
                if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
                close(fd)
            }
            entry = info.pointee.ai_next
        }
        return nil
    }

    private static func send(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        _ = write(fd, &bytes, bytes.count)
    }

    private static func error(_ what: String) -> NSError {
        NSError(
            domain: "ConnectProxy", code: Int(errno),
            userInfo: [NSLocalizedDescriptionKey: "\(what): \(String(cString: strerror(errno)))"])
    }
}
