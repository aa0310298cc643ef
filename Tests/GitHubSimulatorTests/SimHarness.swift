import Foundation
import SimulatorKit
import XCTest

@testable import GitHubSimulator

/// Calls a `GitHubSimulator` directly, as the HTTP server would, and decodes its answers.
struct SimHarness {
    struct Answer {
        let status: Int
        let body: [UInt8]
        let headers: [(String, String)]
        let delivery: Delivery

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
        var array: [[String: Any]] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [[String: Any]] ?? [] }
        var items: [[String: Any]] { json["items"] as? [[String: Any]] ?? [] }
        var message: String? { json["message"] as? String }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        var remaining: Int? { header("X-RateLimit-Remaining").flatMap { Int($0) } }
        /// `owner/repo#number` of each item of a list or search answer.
        var refs: [String] { (items.isEmpty ? array : items).map(SimHarness.ref) }
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

    let simulator: GitHubSimulator
    let options: GitHubSimulatorOptions

    init(_ configure: (inout GitHubSimulatorOptions) -> Void = { _ in }) {
        var options = GitHubSimulatorOptions()
        configure(&options)
        self.options = options
        simulator = GitHubSimulator(options: options)
    }

    static func ref(_ item: [String: Any]) -> String {
        let url = item["repository_url"] as? String ?? ""
        let repo = url.components(separatedBy: "/repos/").last ?? ""
        return "\(repo)#\(item["number"] as? Int ?? 0)"
    }

    /// An API call under the base path with `token` (default engineer's classic token).
    @discardableResult
    func call(
        _ method: String, _ path: String, token: String? = "ghp_sim_engineer", body: String = "",
        headers: [String: String] = [:]
    ) -> Answer {
        raw(method, options.basePath + path, authorization: token.map { "Bearer \($0)" }, body: body, headers: headers)
    }

    @discardableResult
    func get(_ path: String, as login: String = "engineer", headers: [String: String] = [:]) -> Answer {
        call("GET", path, token: "ghp_sim_\(login)", headers: headers)
    }

    /// `GET /search/issues` with `q` percent-encoded.
    @discardableResult
    func search(_ q: String, _ extra: String = "", token: String = "ghp_sim_engineer") -> Answer {
        let encoded = q.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return call("GET", "/search/issues?q=\(encoded)\(extra)", token: token)
    }

    /// A control route under `/sim/`.
    @discardableResult
    func sim(_ method: String, _ path: String, _ body: String = "") -> Answer {
        let answer = raw(method, "/sim/" + path, authorization: nil, body: body)
        XCTAssertEqual(answer.status, 200, "\(method) /sim/\(path): \(String(decoding: answer.body, as: UTF8.self))")
        return answer
    }

    func raw(
        _ method: String, _ target: String, authorization: String?, body: String = "", headers: [String: String] = [:]
    ) -> Answer {
        var all = ["host": "github.test", "accept": "application/vnd.github+json"]
        for (name, value) in headers { all[name.lowercased()] = value }
        let response = simulator.handle(
            SimRequest(method: method, target: target, authorization: authorization, body: Array(body.utf8),
                headers: all))
        return Answer(
            status: response.status, body: response.body, headers: response.headers, delivery: response.delivery)
    }

    var stats: [String: Any] { raw("GET", "/sim/stats", authorization: nil).json }

    /// The `event` names of an issue's timeline (first page of 100).
    func events(_ ref: String) -> [String] {
        timeline(ref).compactMap { $0["event"] as? String }
    }

    @discardableResult
    func timeline(_ ref: String) -> [[String: Any]] {
        let parts = ref.components(separatedBy: "#")
        return get("/repos/\(parts[0])/issues/\(parts[1])/timeline?per_page=100").array
    }
}

extension [String: Any] {
    /// A nested member by a dotted path: `user.login`.
    func at(_ path: String) -> Any? {
        var current: Any? = self
        for part in path.split(separator: ".") { current = (current as? [String: Any])?[String(part)] }
        return current
    }
}
