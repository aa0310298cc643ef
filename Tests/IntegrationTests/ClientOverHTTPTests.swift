import CompassClient
import Foundation
import Logging
import TrackerHTTP
import TrackwatchCore
import XCTest

/// The Compass client library against compass-sim over real HTTP.
final class ClientOverHTTPTests: XCTestCase {
    private func client(_ sim: Simulator, credential: Credential = .password(Secret("engineer"))) throws -> CompassClient {
        CompassClient(
            server: try CompassServer(baseURL: sim.url, repo: "2.0.0", database: "SAMPL", username: "engineer"),
            credential: credential, transport: try AsyncHTTPTransport(), requestTimeout: 5,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, now: { Date().timeIntervalSince1970 })
    }

    private func assigned(_ client: CompassClient) throws -> [Record] {
        try WatchQueries.records(fromRows: client.run(
            WatchQueries.assignedToMe, storedAs: WatchQueries.assignedQueryName, lifetime: .reused, pageSize: 100))
    }

    func test_tokenExpiringMidRun_logsInAgainOnce() throws {
        let sim = try Simulator()
        let client = try client(sim)
        let before = try assigned(client)
        XCTAssertFalse(before.isEmpty)
        try sim.post("/ccmweb/sim/expire-tokens")
        XCTAssertEqual(try assigned(client), before)
        XCTAssertEqual(client.loginCount, 2)
        XCTAssertEqual(try sim.stats()["logins"] as? Int, 2)
        client.logoff()
        XCTAssertEqual(try sim.stats()["logoffs"] as? Int, 1)
    }

    func test_steadyState_reusesTheTokenAndNeedsTwoRequestsPerQuery() throws {
        let sim = try Simulator()
        let client = try client(sim)
        _ = try assigned(client)
        let first = try sim.stats()["requests"] as? Int ?? 0
        _ = try assigned(client)
        let second = try sim.stats()["requests"] as? Int ?? 0
        XCTAssertEqual(second - first - 1, 2, "POST query + GET page 1, no login (the -1 is the stats call itself)")
        XCTAssertEqual(client.loginCount, 1)
    }

    func test_personalAccessToken_worksWithoutLogin() throws {
        let sim = try Simulator(["--pat", "engineer=pat-engineer-1"])
        let client = try client(sim, credential: .personalAccessToken(Secret("pat-engineer-1")))
        XCTAssertFalse(try assigned(client).isEmpty)
        XCTAssertEqual(try sim.stats()["logins"] as? Int, 0)
        let bad = try self.client(sim, credential: .personalAccessToken(Secret("nope")))
        XCTAssertThrowsError(try assigned(bad)) { error in
            guard case CompassError.tokenRejected = error else { return XCTFail("\(error)") }
        }
    }

    func test_serverClockBehindOrAhead_oneLoginForManyPolls() throws {
        for offset in ["-3600", "3600"] {
            let sim = try Simulator(["--clock-offset=\(offset)", "--token-ttl", "1800"])
            let client = try client(sim)
            for _ in 0..<3 { _ = try assigned(client) }
            XCTAssertEqual(try sim.stats()["logins"] as? Int, 1, "server clock off by \(offset) s: the token is reused")
        }
    }
}
