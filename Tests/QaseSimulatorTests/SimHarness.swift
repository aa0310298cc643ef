import Foundation
import SimulatorKit
import XCTest

@testable import QaseSimulator

/// Calls a `QaseSimulator` directly, as the HTTP server would, and decodes its answers.
struct SimHarness {
    struct Answer {
        let status: Int
        let body: [UInt8]
        let headers: [(String, String)]
        let delivery: Delivery

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
        var result: [String: Any] { json["result"] as? [String: Any] ?? [:] }
        var entities: [[String: Any]] { result["entities"] as? [[String: Any]] ?? [] }
        var ids: [Int] { entities.compactMap { $0["id"] as? Int } }
        var errorMessage: String? { json["errorMessage"] as? String }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    let simulator: QaseSimulator
    var basePath = "/v1"

    init(_ configure: (inout QaseSimulatorOptions) -> Void = { _ in }) {
        var options = QaseSimulatorOptions()
        configure(&options)
        simulator = QaseSimulator(options: options)
        basePath = options.basePath
    }

    /// An API call as HANDLE (its fixture token), or with `token` (nil sends none).
    func call(
        _ method: String, _ path: String, as handle: String = "engineer", token: String?? = .none,
        body: String = ""
    ) -> Answer {
        let person = Directory.person(handle: handle)
        let sent: String? = token ?? (handle == "jenkins" ? Directory.app.defaultToken : person?.defaultToken)
        return raw(method, basePath + path, token: sent, body: body)
    }

    func get(_ path: String, as handle: String = "engineer") -> Answer { call("GET", path, as: handle) }

    /// `GET /search?query=…` with the query percent-encoded, as a client sends it.
    func search(_ query: String, as handle: String = "engineer", extra: String = "limit=100") -> Answer {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = query.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return get("/search?query=\(encoded)&\(extra)", as: handle)
    }

    /// A control route under `/sim/`.
    @discardableResult
    func sim(_ method: String, _ path: String, _ body: String = "") -> Answer {
        let answer = raw(method, "/sim/" + path, token: nil, body: body)
        XCTAssertEqual(answer.status, 200, "\(method) /sim/\(path): \(String(decoding: answer.body, as: UTF8.self))")
        return answer
    }

    func raw(_ method: String, _ target: String, token: String?, body: String = "") -> Answer {
        var headers: [String: String] = ["accept": "application/json"]
        if let token { headers["token"] = token }
        let response = simulator.handle(
            SimRequest(
                method: method, target: target, authorization: nil, body: Array(body.utf8), headers: headers))
        return Answer(
            status: response.status, body: response.body, headers: response.headers, delivery: response.delivery)
    }

    var stats: [String: Any] { raw("GET", "/sim/stats", token: nil).json }
}
