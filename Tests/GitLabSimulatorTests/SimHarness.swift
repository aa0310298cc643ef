import Foundation
import SimulatorKit
import XCTest

@testable import GitLabSimulator

/// Calls a `GitLabSimulator` directly, as the HTTP server would, and decodes its answers.
struct SimHarness {
    struct Answer {
        let status: Int
        let body: [UInt8]
        let headers: [(String, String)]
        let delivery: Delivery

        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
        var array: [[String: Any]] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [[String: Any]] ?? [] }
        var message: String? { json["message"] as? String }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        /// `references.full` of each item of a list.
        var refs: [String] { array.compactMap { $0.at("references.full") as? String } }
        /// The `Link` header's URLs by relation.
        var links: [String: String] {
            var links: [String: String] = [:]
            for part in (header("Link") ?? "").components(separatedBy: ", ") {
                let pieces = part.components(separatedBy: "; rel=")
                guard pieces.count == 2 else { continue }
                links[pieces[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))] =
                    pieces[0].trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
            }
            return links
        }
    }

    let simulator: GitLabSimulator

    init(_ configure: (inout GitLabSimulatorOptions) -> Void = { _ in }) {
        var options = GitLabSimulatorOptions()
        configure(&options)
        simulator = GitLabSimulator(options: options)
    }

    /// An API call under `/api/v4` as `user` (with `PRIVATE-TOKEN`).
    @discardableResult
    func call(_ method: String, _ path: String, as user: String = "engineer", body: String = "") -> Answer {
        raw(method, "/api/v4" + path, headers: ["private-token": "glpat-sim-\(user)",
            "content-type": "application/json"], body: body)
    }

    @discardableResult
    func get(_ path: String, as user: String = "engineer") -> Answer { call("GET", path, as: user) }

    /// A control route under `/sim/`.
    @discardableResult
    func sim(_ method: String, _ path: String, _ body: String = "") -> Answer {
        let answer = raw(method, "/sim/" + path, body: body)
        XCTAssertEqual(answer.status, 200, "\(method) /sim/\(path): \(answer.text)")
        return answer
    }

    func raw(_ method: String, _ target: String, authorization: String? = nil, headers: [String: String] = [:],
        body: String = "") -> Answer
    {
        var all = ["host": "gitlab.test"]
        for (name, value) in headers { all[name.lowercased()] = value }
        let response = simulator.handle(
            SimRequest(method: method, target: target, authorization: authorization, body: Array(body.utf8),
                headers: all))
        return Answer(
            status: response.status, body: response.body, headers: response.headers, delivery: response.delivery)
    }

    var stats: [String: Any] { raw("GET", "/sim/stats").json }

    /// The bodies of an item's notes, oldest first (`platform/web#1` or `platform/web!3`).
    func notes(_ ref: String) -> [String] {
        get(path(ref) + "/notes?sort=asc&per_page=100").array.compactMap { $0["body"] as? String }
    }

    /// `/projects/platform%2Fweb/issues/1` for `platform/web#1`.
    func path(_ ref: String) -> String {
        let mergeRequest = ref.contains("!")
        let parts = ref.components(separatedBy: mergeRequest ? "!" : "#")
        let project = parts[0].replacingOccurrences(of: "/", with: "%2F")
        return "/projects/\(project)/\(mergeRequest ? "merge_requests" : "issues")/\(parts[1])"
    }
}

extension [String: Any] {
    /// A nested member by a dotted path: `author.username`.
    func at(_ path: String) -> Any? {
        var current: Any? = self
        for part in path.split(separator: ".") { current = (current as? [String: Any])?[String(part)] }
        return current
    }
}
