import Foundation

/// A small HTTP proxy on a free loopback port, as corporate proxies are: it opens CONNECT tunnels (for https://)
/// and forwards absolute-URI requests (`GET http://host:port/path HTTP/1.1`, for http://), and records each with
/// the `Proxy-Authorization` sent. `connectOnlyTo443` refuses CONNECT to any other port, as a stock Squid does.
public final class ConnectProxy: @unchecked Sendable {
    public struct Tunnel: Equatable, Sendable {
        /// `host:port` from the CONNECT line.
        public let target: String
        public let proxyAuthorization: String?
    }

    /// A request forwarded in absolute form.
    public struct Forwarded: Equatable, Sendable {
        public let method: String
        /// The absolute URI of the request line, `http://host:port/path?query`.
        public let target: String
        public let proxyAuthorization: String?
        /// Request headers as received, names lower-cased.
        public let headers: [String: String]
    }

    public let port: Int
    public var url: String { "http://127.0.0.1:\(port)" }

    private let listener: Int32
    private let lock = NSLock()
    private var recorded: [Tunnel] = []
    private var recordedForwards: [Forwarded] = []
    private var stopped = false
    private let requiredAuthorization: String?
    private let connectOnlyTo443: Bool
    private let hosts: [String: String]

    /// - Parameters:
    ///   - credentials: when given, a request without `Proxy-Authorization: Basic` of exactly these is refused
    ///     with 407.
    ///   - connectOnlyTo443: CONNECT to a port other than 443 is refused with 403 (Squid's default `SSL_ports`).
    ///   - hosts: names only this proxy knows, and the address each stands for (`compass.test` → `127.0.0.1`):
    ///     a server reached by such a name was reached through the proxy.
    public init(
        credentials: (user: String, password: String)? = nil, connectOnlyTo443: Bool = false,
        hosts: [String: String] = [:]
    ) throws {
        self.hosts = hosts
        requiredAuthorization = credentials.map {
            "Basic " + Data("\($0.user):\($0.password)".utf8).base64EncodedString()
        }
        self.connectOnlyTo443 = connectOnlyTo443
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

    /// The absolute-URI requests received so far, refused ones included.
    public var forwarded: [Forwarded] { lock.withLock { recordedForwards } }

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
        let authorization = lines.dropFirst().first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { String($0.dropFirst("proxy-authorization:".count)).trimmingCharacters(in: .whitespaces) }
        if request.count == 3, request[0] == "CONNECT" {
            tunnel(client, target: String(request[1]), authorization: authorization, leftover: leftover)
        } else if request.count == 3, request[1].lowercased().hasPrefix("http://") {
            forward(client, request: request.map(String.init), lines: lines.dropFirst().map(String.init),
                    authorization: authorization, leftover: leftover)
        } else {
            Self.send(client, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
    }

    /// False (after answering 407) when credentials are required and these are not they.
    private func admits(_ client: Int32, _ authorization: String?) -> Bool {
        guard let requiredAuthorization, authorization != requiredAuthorization else { return true }
        Self.send(
            client,
            "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\n"
                + "Content-Length: 0\r\nConnection: close\r\n\r\n")
        return false
    }

    private func tunnel(_ client: Int32, target: String, authorization: String?, leftover: [UInt8]) {
        lock.withLock { recorded.append(Tunnel(target: target, proxyAuthorization: authorization)) }
        guard admits(client, authorization) else { return }
        guard let colon = target.lastIndex(of: ":"), let port = UInt16(target[target.index(after: colon)...]),
            !connectOnlyTo443 || port == 443
        else {
            Self.send(client, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        let host = String(target[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard let upstream = Self.connect(host: hosts[host] ?? host, port: port) else {
            Self.send(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        defer { close(upstream) }
        Self.send(client, "HTTP/1.1 200 Connection established\r\n\r\n")
        if !leftover.isEmpty { _ = leftover.withUnsafeBytes { write(upstream, $0.baseAddress, $0.count) } }
        Self.pump(client, upstream)
    }

    /// One absolute-URI request: sent on to its server in origin form with `Connection: close`, the answer
    /// relayed until the server closes. One request per connection is all a test needs.
    private func forward(
        _ client: Int32, request: [String], lines: [String], authorization: String?, leftover: [UInt8]
    ) {
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[line[..<colon].lowercased()] = value
        }
        lock.withLock {
            recordedForwards.append(
                Forwarded(method: request[0], target: request[1], proxyAuthorization: authorization, headers: headers))
        }
        guard admits(client, authorization) else { return }
        guard let url = URLComponents(string: request[1]), let host = url.host,
            let upstream = Self.connect(host: hosts[host] ?? host, port: UInt16(url.port ?? 80))
        else {
            Self.send(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        defer { close(upstream) }
        let path = (url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath)
            + (url.percentEncodedQuery.map { "?" + $0 } ?? "")
        let kept = lines.filter { line in
            let name = line.split(separator: ":").first.map { $0.lowercased() } ?? ""
            return !line.isEmpty && !["proxy-authorization", "proxy-connection", "connection"].contains(name)
        }
        Self.send(upstream, "\(request[0]) \(path) \(request[2])\r\n" + kept.joined(separator: "\r\n")
                  + "\r\nConnection: close\r\n\r\n")
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
