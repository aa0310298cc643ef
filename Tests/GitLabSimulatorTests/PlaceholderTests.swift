import SimulatorKit
import XCTest

@testable import GitLabSimulator

final class PlaceholderTests: XCTestCase {
    func testAnswers() {
        let request = SimRequest(method: "GET", target: "/", authorization: nil, body: [])
        XCTAssertEqual(GitLabSimulator().handle(request).status, 404)
    }
}
