import CompassClient
import Foundation
import Logging
import TrackerHTTP
import TrackwatchCore
import TestSupport
import XCTest

/// The Compass client library against compass-sim over real HTTP.
final class ClientOverHTTPTests: XCTestCase {
    private func client(_ sim: Simulator, credential: Credential = .password(Secret("engineer"))) throws -> CompassClient {
        CompassClient(
            server: try CompassServer(baseURL: sim.url, repo: "2.0.0", database: "SAMPL", username: "engineer"),
            credential: credential, transport: try AsyncHTTPTransport(), requestTimeout: 5,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, now: { Date().timeIntervalSince1970 })
    }

    private func assigned(_ client: CompassClient) async throws -> [Record] {
        try await WatchQueries.records(fromRows: client.run(
            WatchQueries.assignedToMe, storedAs: WatchQueries.assignedQueryName, lifetime: .reused, pageSize: 100))
    }

    func test_tokenExpiringMidRun_logsInAgainOnce() async throws {
        let sim = try Simulator()
        let client = try client(sim)
        let before = try await assigned(client)
        XCTAssertFalse(before.isEmpty)
        try sim.post("/ccmweb/sim/expire-tokens")
        await XCTAssertEqualAsync(try await assigned(client), before)
        XCTAssertEqual(client.loginCount, 2)
        XCTAssertEqual(try sim.stats()["logins"] as? Int, 2)
        await client.logoff()
        XCTAssertEqual(try sim.stats()["logoffs"] as? Int, 1)
    }

    func test_steadyState_reusesTheTokenAndNeedsTwoRequestsPerQuery() async throws {
        let sim = try Simulator()
        let client = try client(sim)
        _ = try await assigned(client)
        let first = try sim.stats()["requests"] as? Int ?? 0
        _ = try await assigned(client)
        let second = try sim.stats()["requests"] as? Int ?? 0
        XCTAssertEqual(second - first - 1, 2, "POST query + GET page 1, no login (the -1 is the stats call itself)")
        XCTAssertEqual(client.loginCount, 1)
    }

    func test_personalAccessToken_worksWithoutLogin() async throws {
        let sim = try Simulator(["--pat", "engineer=pat-engineer-1"])
        let client = try client(sim, credential: .personalAccessToken(Secret("pat-engineer-1")))
        await XCTAssertFalseAsync(try await assigned(client).isEmpty)
        XCTAssertEqual(try sim.stats()["logins"] as? Int, 0)
        let bad = try self.client(sim, credential: .personalAccessToken(Secret("nope")))
        await XCTAssertThrowsErrorAsync(try await assigned(bad)) { error in
            guard case CompassError.tokenRejected = error else { return XCTFail("\(error)") }
        }
    }

    func test_serverClockBehindOrAhead_oneLoginForManyPolls() async throws {
        for offset in ["-3600", "3600"] {
            let sim = try Simulator(["--clock-offset=\(offset)", "--token-ttl", "1800"])
            let client = try client(sim)
            for _ in 0..<3 { _ = try await assigned(client) }
            XCTAssertEqual(try sim.stats()["logins"] as? Int, 1, "server clock off by \(offset) s: the token is reused")
        }
    }
}
