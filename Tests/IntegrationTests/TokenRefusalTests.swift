import CompassClient
import Foundation
import Logging
import TrackerHTTP
import TrackwatchCore
import TestSupport
import XCTest

/// Servers that refuse a token they lost (a restart) or revoked with 403 or 500 instead of 401 (issue 11,
/// item 8), and servers whose `/query` has a bad moment (item 7): the Compass client against compass-sim over
/// real HTTP, logins counted by the server.
final class TokenRefusalTests: XCTestCase {
    private var clock = Date().timeIntervalSince1970

    private func client(_ sim: Simulator) throws -> CompassClient {
        CompassClient(
            server: try CompassServer(baseURL: sim.url, repo: "2.0.0", database: "SAMPL", username: "engineer"),
            credential: .password(Secret("engineer")), transport: try AsyncHTTPTransport(), requestTimeout: 5,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, now: { [unowned self] in clock })
    }

    private func assigned(_ client: CompassClient) async throws -> [Record] {
        try await WatchQueries.records(
            fromRows: client.run(
                WatchQueries.assignedToMe, storedAs: WatchQueries.assignedQueryName, lifetime: .reused, pageSize: 5))
    }

    private func logins(_ sim: Simulator) throws -> Int { try sim.stats()["logins"] as? Int ?? -1 }

    private func count(_ route: String, _ sim: Simulator) throws -> Int {
        (try sim.stats()["requestsByRoute"] as? [String: Int] ?? [:])[route] ?? 0
    }

    func test_serverRestartRefusingTheOldTokenWith403Or500_logsInOnceAndReplays() async throws {
        for status in ["403", "500"] {
            let sim = try Simulator(["--refused-token-status", status])
            let client = try client(sim)
            let before = try await assigned(client)
            XCTAssertFalse(before.isEmpty)
            try sim.restart()
            await XCTAssertEqualAsync(try await assigned(client), before, "\(status): complete after the restart")
            XCTAssertEqual(try logins(sim), 2, "\(status): one login more, no loop")
            XCTAssertEqual(client.tokenRefusalStatuses, [Int(status)!])
            await XCTAssertEqualAsync(try await assigned(client), before)
            XCTAssertEqual(try logins(sim), 2, "\(status): the new token is kept")
        }
    }

    func test_aRealPermissionRefusal_costsOneLoginPerSession_notALoop() async throws {
        let sim = try Simulator()
        let client = try client(sim)
        _ = try await assigned(client)
        try sim.inject("status", on: "GET /query/{id}", count: 10, status: 403)
        await XCTAssertThrowsErrorAsync(try await assigned(client)) { error in
            guard case CompassError.server(status: 403, _, _, _) = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try logins(sim), 2, "one new login to rule out a lost token")
        await XCTAssertThrowsErrorAsync(try await assigned(client))
        XCTAssertEqual(try logins(sim), 2, "the new login did not help once: a 403 is not taken for a lost token again")
        XCTAssertEqual(
            try sim.stats()["loginFailures"] as? Int, 0, "every login was a good one: nothing to lock the account")
    }

    func test_aRealRefusalEarlier_doesNotStopTheSessionRecoveringFromARestartLater() async throws {
        let sim = try Simulator(["--refused-token-status", "403"])
        let client = try client(sim)
        let expected = try await assigned(client)
        try sim.inject("status", on: "GET /query/{id}", count: 2, status: 403)  // the answer and its replay
        await XCTAssertThrowsErrorAsync(try await assigned(client))
        XCTAssertEqual(try logins(sim), 2)
        try sim.restart()
        await XCTAssertEqualAsync(
            try await assigned(client), expected, "the token the restart lost is replaced, though 403 once meant what it said")
        XCTAssertEqual(try logins(sim), 3, "one login for the restart, no loop")
        XCTAssertEqual(
            try sim.stats()["loginFailures"] as? Int, 0, "every login was a good one: nothing to lock the account")
    }

    func test_aPassing500FromQuery_fallsBackForThatQueryOnly() async throws {
        let sim = try Simulator()
        let client = try client(sim)
        let expected = try await assigned(client)
        XCTAssertEqual(client.queryPath, .adHoc)
        try sim.inject("status", on: "POST /query", count: 2, status: 500)  // the first answer and its replay
        await XCTAssertEqualAsync(try await assigned(client), expected, "complete, on the stored path")
        XCTAssertEqual(try count("POST /workspace/queryDefs/{id}/resultsets", sim), 1)
        await XCTAssertEqualAsync(try await assigned(client), expected)
        XCTAssertEqual(
            client.queryPath, .adHoc, "a server that ran ad-hoc queries is not locked out of them by one 500")
        XCTAssertEqual(try count("POST /query", sim), 4)
        XCTAssertEqual(try count("POST /workspace/queryDefs/{id}/resultsets", sim), 1)
    }

    func test_a500AtTheFirstTry_choosesStoredQueries_andTriesAdHocAgainAfterAnHour() async throws {
        let sim = try Simulator()
        let client = try client(sim)
        try sim.inject("status", on: "POST /query", count: 2, status: 500)
        let expected = try await assigned(client)
        XCTAssertEqual(client.queryPath, .stored)
        XCTAssertEqual(client.adHocRefusal, .status(500))
        _ = try await assigned(client)
        XCTAssertEqual(try count("POST /query", sim), 2, "not asked again within the hour")
        clock += 3_601
        await XCTAssertEqualAsync(try await assigned(client), expected)
        XCTAssertEqual(client.queryPath, .adHoc, "asked again after an hour, and it works")
        XCTAssertEqual(try count("POST /query", sim), 3)
    }
}

/// `trackwatch run` across a server restart that turns the daemon's token into a 403.
final class DaemonTokenRefusalTests: XCTestCase {
    func test_daemon_afterAServerRestartRefusingItsTokenWith403_logsInOnce_andReportsTheChange() throws {
        let sim = try Simulator(["--refused-token-status", "403"])
        let workspace = try Workspace(serverURL: sim.url)
        let notify = try NotifySocket()
        let process = try workspace.startDaemon(notify: notify)
        defer { if process.isRunning { process.terminate() } }
        XCTAssertNotNil(notify.waitFor { $0.hasPrefix("STATUS=Last poll") }, "baseline: \(notify.messages)")
        XCTAssertEqual(try sim.stats()["logins"] as? Int, 1)

        try sim.restart()
        try sim.act("lead", "SAMPL00000001", "Resolve")
        notify.poll(process, expecting: "1 change;")
        XCTAssertEqual(try sim.stats()["logins"] as? Int, 3, "the daemon's second login, and the colleague's")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }
}
