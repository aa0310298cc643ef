extension TransportError {
    /// What went wrong in a few words for people, without the URL the detail names (an outage bubble shows the
    /// server as the user wrote it instead): `connection refused`, `no answer in time`.
    public var reason: String {
        switch kind {
        case .connectionFailed:
            if detail.hasPrefix("the server closed the connection") { return "the server closed the connection" }
            // "cannot connect to HOST:PORT: <the operating system's words>"
            guard let colon = detail.ranges(of: ": ").last else { return "cannot connect" }
            let words = detail[colon.upperBound...]
            return words.isEmpty || words.contains("://") ? "cannot connect" : words.prefix(1).lowercased() + words.dropFirst()
        case .timedOut: return "no answer in time"
        case .tls: return "the TLS handshake failed (certificate or protocol)"
        case .notTLS: return "the port answers in plain HTTP, not TLS"
        case .tlsVersion: return "the server offers only TLS older than 1.2"
        case .proxy: return "the proxy did not open a connection to the server"
        case .proxyCredentials: return "the proxy asks for other credentials (HTTP 407)"
        case .responseTooLarge:
            return isOversizedHeader ? "\(Self.headerWords); not read" : "an answer larger than trackwatch accepts"
        case .invalidURL: return "an invalid URL"
        case .other: return "the connection failed"
        }
    }
}
