import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import SimulatorKit
import XCTest

@testable import QaseSimulator

/// Over a real socket: the `Token` header reaches the simulator, and a dropped connection ends with no answer.
final class HTTPTests: XCTestCase {
    func test_overHTTP_tokenHeader_andDroppedConnection() async throws {
        let server = try SimulatorServer(
            simulator: QaseSimulator(options: QaseSimulatorOptions()), host: "127.0.0.1", port: 0)
        defer { server.shutdown() }
        let base = "http://127.0.0.1:\(server.port)"
        var request = URLRequest(url: URL(string: base + "/v1/project/DEMO")!)
        request.setValue("qase-sim-engineer-token", forHTTPHeaderField: "Token")
        let (data, response) = try await URLSession.shared.data(for: request)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains(#""code":"DEMO""#))

        var arm = URLRequest(url: URL(string: base + "/sim/faults")!)
        arm.httpMethod = "POST"
        // Several: a client may retry a request whose reused connection closed (libcurl does, once).
        arm.httpBody = Data(#"{"route": "GET /project/{code}", "kind": "drop", "count": 3}"#.utf8)
        _ = try await URLSession.shared.data(for: arm)
        do {
            let (_, dropped) = try await URLSession.shared.data(for: request)
            XCTFail("expected no answer, got \((dropped as? HTTPURLResponse)?.statusCode ?? 0)")
        } catch {
            // The connection closed without a response: what a client sees from a server that dropped it.
        }
        var clear = URLRequest(url: URL(string: base + "/sim/faults")!)
        clear.httpMethod = "DELETE"
        _ = try await URLSession.shared.data(for: clear)
        let (_, again) = try await URLSession.shared.data(for: request)
        XCTAssertEqual((again as? HTTPURLResponse)?.statusCode, 200)
    }
}
