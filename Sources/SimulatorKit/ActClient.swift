import AsyncHTTPClient
import NIOCore
import NIOPosix

/// The HTTP client of every simulator's `act` command: one event-loop thread of its own, shut down only after that
/// thread has handed the last connection back to the pool.
///
/// Why not `HTTPClient(eventLoopGroupProvider: .singleton)` and `syncShutdown()` right after the answer: a request
/// with a body can be answered before async-http-client (1.37) has marked its connection idle. A shutdown in
/// between drops the connection from the pool, and the late release then stops the process with "A connection
/// that we don't know was released?" — one `act` in ~300 on two busy cores, which failed a CI run. Running one
/// empty task on the loop first lets the release land.
public final class ActClient {
    public let client: HTTPClient
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// - Parameter insecure: accept any TLS certificate (a simulator's self-signed `--tls-certificate`).
    public init(insecure: Bool = false) {
        var configuration = HTTPClient.Configuration()
        if insecure {
            configuration.tlsConfiguration = .clientDefault
            configuration.tlsConfiguration?.certificateVerification = .none
        }
        client = HTTPClient(eventLoopGroup: group, configuration: configuration)
    }

    /// Lets the loop finish what the last answer left (the connection's release), then ends the client and the
    /// thread.
    public func shutDown() {
        for _ in 0..<2 { try? group.next().submit {}.wait() }
        try? client.syncShutdown()
        try? group.syncShutdownGracefully()
    }
}
