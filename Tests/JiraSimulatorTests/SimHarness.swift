import Foundation
import SimulatorKit
import XCTest

@testable import JiraSimulator

/// Calls a `JiraSimulator` directly, as the HTTP server would, and decodes its answers.
struct SimHarness {
    struct Answer {
        let status: Int
        let body: [UInt8]
        let headers: [(String, String)]
        let delivery: Delivery

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
        var array: [[String: Any]] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [[String: Any]] ?? [] }
        var issues: [[String: Any]] { json["issues"] as? [[String: Any]] ?? [] }
        var keys: [String] { issues.compactMap { $0["key"] as? String } }
        var fields: [String: Any] { json["fields"] as? [String: Any] ?? [:] }
        var errorMessages: [String] { json["errorMessages"] as? [String] ?? [] }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    let simulator: JiraSimulator
    let options: JiraSimulatorOptions

    init(_ configure: (inout JiraSimulatorOptions) -> Void = { _ in }) {
        var options = JiraSimulatorOptions()
        configure(&options)
        self.options = options
        simulator = JiraSimulator(options: options)
    }

    /// The credentials of HANDLE for the flavour: Basic e-mail:token on Cloud, Bearer PAT on Data Center.
    func authorization(_ handle: String) -> String {
        guard options.flavor == .cloud else { return "Bearer jira-sim-\(handle)-pat" }
        let login = handle == "automation" ? "automation@connect.atlassian.com" : "\(handle)@example.com"
        return "Basic " + Data("\(login):jira-sim-\(handle)-token".utf8).base64EncodedString()
    }

    /// An API call under `{context}/rest/api/VERSION` as HANDLE.
    @discardableResult
    func call(
        _ method: String, _ path: String, as handle: String = "engineer", version: String = "3", body: String = ""
    ) -> Answer {
        raw(method, "\(options.contextPath)/rest/api/\(version)\(path)", authorization: authorization(handle), body: body)
    }

    func get(_ path: String, as handle: String = "engineer", version: String = "3") -> Answer {
        call("GET", path, as: handle, version: version)
    }

    /// `GET …/search/jql` (Cloud) or `…/search` (Data Center) with the JQL percent-encoded.
    func search(_ jql: String, _ extra: String = "", as handle: String = "engineer") -> Answer {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = jql.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        let path = options.flavor == .cloud ? "/search/jql" : "/search"
        return get("\(path)?jql=\(encoded)\(extra)", as: handle, version: options.flavor == .cloud ? "3" : "2")
    }

    /// A control route under `/sim/`.
    @discardableResult
    func sim(_ method: String, _ path: String, _ body: String = "") -> Answer {
        let answer = raw(method, "/sim/" + path, authorization: nil, body: body)
        XCTAssertEqual(answer.status, 200, "\(method) /sim/\(path): \(String(decoding: answer.body, as: UTF8.self))")
        return answer
    }

    func raw(_ method: String, _ target: String, authorization: String?, body: String = "") -> Answer {
        let response = simulator.handle(
            SimRequest(
                method: method, target: target, authorization: authorization, body: Array(body.utf8),
                headers: ["host": "jira.test", "accept": "application/json"]))
        return Answer(
            status: response.status, body: response.body, headers: response.headers, delivery: response.delivery)
    }

    var stats: [String: Any] { raw("GET", "/sim/stats", authorization: nil).json }
}

extension [String: Any] {
    /// A nested member by a dotted path: `fields.assignee.accountId`.
    func at(_ path: String) -> Any? {
        var current: Any? = self
        for part in path.split(separator: ".") { current = (current as? [String: Any])?[String(part)] }
        return current
    }
}
