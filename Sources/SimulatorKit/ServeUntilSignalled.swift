import Dispatch
#if canImport(Glibc)
    import Glibc
#endif

/// The signal sources of `serveUntilSignalled`, kept for the process's life.
nonisolated(unsafe) private var signalSources: [any DispatchSourceSignal] = []

extension SimulatorServer {
    /// What a `*-sim serve` does once listening: prints `listening on SCHEME://HOST:PORT` unbuffered (tests read
    /// that line through a pipe), stops cleanly on SIGINT or SIGTERM, and blocks until then.
    public func serveUntilSignalled(host: String, https: Bool = false) throws {
        var text = "listening on \(https ? "https" : "http")://\(host):\(port)\n"
        text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                shutdown()
                Glibc.exit(0)
            }
            source.activate()
            signalSources.append(source)
        }
        try wait()
    }
}
