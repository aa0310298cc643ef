import TrackerHTTP
import TestSupport
import XCTest

/// All answers of one poll share a budget (issue 36 item 1: 100 pages of 15 MB each kept for one read peaked at
/// 1.5 GB): past it every further answer is refused as too large, until the next poll resets it.
final class ReadBudgetTests: XCTestCase {
    private struct FatPages: HTTPTransport {
        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            HTTPResponse(status: 200, body: [UInt8](repeating: 0x20, count: 15_000_000))
        }
        func closeIdleConnections() {}
    }

    func test_aPollsAnswersTogether_areHeldToTheBudget_andTheNextPollStartsAfresh() async throws {
        let budget = ReadBudget(bytes: ReadBudget.activityPoll)
        let transport = BudgetTransport(FatPages(), budget: budget)
        let request = HTTPRequest(method: .get, url: "https://tracker.example/page", timeout: 30)
        for _ in 0..<4 { await XCTAssertNoThrowAsync(try await transport.send(request)) }
        await XCTAssertThrowsErrorAsync(try await transport.send(request)) { error in
            XCTAssertEqual((error as? TransportError)?.kind, .responseTooLarge)
            XCTAssertTrue("\(error)".contains("more than 64 MB in all"), "\(error)")
        }
        budget.reset()
        await XCTAssertNoThrowAsync(try await transport.send(request))
    }
}
