import CompassClient
import Foundation
import Logging
import TrackerHTTP
import TrackwatchCore
import TestSupport
import XCTest

/// After a poll the daemon ends the HTTP connections and their event-loop thread, so that nothing is left to
/// wake it before the next poll (docs/performance.md); the next request starts them again.
final class TransportIdleTests: XCTestCase {
    private func eventLoopThreads() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").filter { task in
            let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return name.hasPrefix("NIO-ELT")
        }.count
    }

    func test_closeIdleConnections_endsTheEventLoopThread_andTheNextRequestStartsItAgain() async throws {
        let sim = try Simulator()
        let transport = try AsyncHTTPTransport()
        let client = CompassClient(
            server: try CompassServer(baseURL: sim.url, repo: "2.0.0", database: "SAMPL", username: "engineer"),
            credential: .password(Secret("engineer")), transport: transport, requestTimeout: 5,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, now: { Date().timeIntervalSince1970 })
        func assigned() async throws -> [Record] {
            try await WatchQueries.records(fromRows: client.run(
                WatchQueries.assignedToMe, storedAs: WatchQueries.assignedQueryName, lifetime: .reused, pageSize: 100))
        }
        let threadsBefore = try eventLoopThreads()
        let first = try await assigned()
        XCTAssertFalse(first.isEmpty)
        XCTAssertEqual(try eventLoopThreads(), threadsBefore + 1)

        // The close returns at once; the thread ends on its own a moment later (nothing waits for it).
        client.closeIdleConnections()
        XCTAssertTrue(try waitUntil(timeout: 5) { try eventLoopThreads() == threadsBefore }, "the event-loop thread ended with the connections")

        await XCTAssertEqualAsync(try await assigned(), first)
        XCTAssertEqual(try eventLoopThreads(), threadsBefore + 1)
        XCTAssertEqual(client.loginCount, 1, "the session outlives the connection")
        transport.closeIdleConnections()
        XCTAssertTrue(try waitUntil(timeout: 5) { try eventLoopThreads() == threadsBefore })
    }
}
