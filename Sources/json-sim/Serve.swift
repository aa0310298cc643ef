import ArgumentParser
import JSONListSimulator
import SimulatorKit

#if canImport(Glibc)
    import Glibc
#endif

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the JSON lists.",
        discussion: """
            Prints "listening on http://HOST:PORT" as its first line; with --tls-certificate, "listening on \
            https://HOST:PORT" next; then "other host http://127.0.0.2:PORT" (the second listener redirects lead \
            to). GET / lists every route; docs/json-sim.md describes them, with every credential.
            """)

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port; 0 picks a free one.") var port = 8192
    @Option(help: "Items in the generic list (10000 for the benchmark).") var items = 12
    @Option(help: "Items per page when a paging route is asked for no size.") var pageSize = 5
    @Option(help: "Address of the second listener, another host for redirects; empty: none.")
    var otherHost = "127.0.0.2"
    @Option(help: "Port of the second listener; 0 picks a free one.") var otherPort = 0
    @Option(help: "Also serve HTTPS with this PEM certificate (chain); needs --tls-key.") var tlsCertificate: String?
    @Option(help: "The PEM private key for --tls-certificate.") var tlsKey: String?
    @Option(help: "Port of the HTTPS listener; 0 picks a free one.") var tlsPort = 0

    func validate() throws {
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-certificate and --tls-key go together")
        }
        guard (0...1_000_000).contains(items) else { throw ValidationError("--items must be 0…1000000") }
        guard (1...100).contains(pageSize) else { throw ValidationError("--page-size must be 1…100") }
    }

    func run() throws {
        var options = JSONSimOptions()
        options.items = items
        options.pageSize = pageSize
        let simulator = JSONListSimulator(options: options)
        let (servers, listeners, lines) = try bind(simulator)
        simulator.setListeners(listeners)
        stopOnSignals()  // before the lines: a test may stop the server as soon as it has read them
        Self.write(lines.joined(separator: "\n") + "\n", to: 1)  // unbuffered: tests read these lines through a pipe
        try withExtendedLifetime(servers) { try servers[0].wait() }
    }

    /// The HTTP listener, then the HTTPS one and the other host's when asked for, and the lines that announce them.
    private func bind(_ simulator: JSONListSimulator) throws -> ([SimulatorServer], Listeners, [String]) {
        let http = try SimulatorServer(simulator: simulator, host: host, port: port)
        var servers = [http]
        var listeners = Listeners(http: Self.authority(host, http.port))
        var lines = ["listening on http://\(Self.authority(host, http.port))"]
        if let tlsCertificate, let tlsKey {
            let files = SimulatorServer.TLSFiles(certificate: tlsCertificate, privateKey: tlsKey)
            let https = try SimulatorServer(simulator: simulator, host: host, port: tlsPort, tls: files)
            servers.append(https)
            listeners.https = Self.authority(host, https.port)
            lines.append("listening on https://\(Self.authority(host, https.port))")
        }
        guard !otherHost.isEmpty else { return (servers, listeners, lines) }
        do {
            let other = try SimulatorServer(simulator: simulator, host: otherHost, port: otherPort)
            servers.append(other)
            listeners.other = Self.authority(otherHost, other.port)
            lines.append("other host http://\(Self.authority(otherHost, other.port))")
        } catch {
            Self.write(
                "json-sim: no second listener on \(otherHost) (\(error)); /redirect/other-host answers 501\n",
                to: 2)
        }
        return (servers, listeners, lines)
    }

    private static func authority(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }

    /// SIGINT and SIGTERM end the process at once (exit 0), in place before anything is printed. A plain handler:
    /// a dispatch source is armed asynchronously and would lose a signal sent right after the first line; `_exit`
    /// is async-signal-safe, and the kernel closes the listeners.
    private func stopOnSignals() {
        for number in [SIGINT, SIGTERM] {
            signal(number) { _ in _exit(0) }
        }
    }
}
