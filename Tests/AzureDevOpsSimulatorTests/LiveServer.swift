import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SimulatorKit
import XCTest

@testable import AzureDevOpsSimulator

/// An ado-sim on a real socket (port 0) and a client for it: API calls as a person with their PAT, control routes.
final class LiveServer {
    struct Reply {
        let status: Int
        let data: Data
        let headers: [String: String]

        var text: String { String(decoding: data, as: UTF8.self) }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:] }
        /// `value` of a `{count, value}` list.
        var values: [[String: Any]] { json["value"] as? [[String: Any]] ?? [] }
        var message: String { json["message"] as? String ?? "" }
        var typeKey: String { json["typeKey"] as? String ?? "" }
        func header(_ name: String) -> String? { headers.first { $0.key.lowercased() == name.lowercased() }?.value }
    }

    let server: SimulatorServer
    let origin: String
    let client = HTTPClient(eventLoopGroupProvider: .singleton)

    init(_ configure: (inout AzureDevOpsSimulatorOptions) -> Void = { _ in }) throws {
        var options = AzureDevOpsSimulatorOptions()
        configure(&options)
        server = try SimulatorServer(simulator: AzureDevOpsSimulator(options: options), host: "127.0.0.1", port: 0)
        origin = "http://127.0.0.1:\(server.port)"
    }

    deinit {
        try? client.syncShutdown()
        server.shutdown()
    }

    static func basic(_ pat: String) -> String { "Basic " + Data(":\(pat)".utf8).base64EncodedString() }

    /// `method` `path` under the organization URL (`/acme` unless `base` says otherwise), with `api-version` in the
    /// query unless nil, as `user` (their PAT), with `X-TFS-FedAuthRedirect: Suppress` unless `suppress` is false.
    @discardableResult
    func call(_ method: String, _ path: String, as user: String? = "engineer", version: String? = "7.1",
        body: Any? = nil, headers: [String: String] = [:], base: String = "/acme", suppress: Bool = true,
        timeout: TimeInterval = 5) async throws -> Reply
    {
        var target = origin + base + path
        if let version { target += (path.contains("?") ? "&" : "?") + "api-version=" + version }
        var request = HTTPClientRequest(url: target)
        request.method = HTTPMethod(rawValue: method)
        if let user { request.headers.add(name: "Authorization", value: Self.basic("adosim-pat-" + user)) }
        if suppress { request.headers.add(name: "X-TFS-FedAuthRedirect", value: "Suppress") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        }
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        return try await send(request, timeout: timeout)
    }

    /// A control route under `/sim/`; asserts a 200.
    @discardableResult
    func sim(_ method: String, _ path: String, _ body: Any? = nil, file: StaticString = #filePath, line: UInt = #line)
        async throws -> Reply
    {
        var request = HTTPClientRequest(url: origin + "/sim/" + path)
        request.method = HTTPMethod(rawValue: method)
        if let body { request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body))) }
        let reply = try await send(request)
        XCTAssertEqual(reply.status, 200, "\(method) /sim/\(path): \(reply.text)", file: file, line: line)
        return reply
    }

    /// A control route with a raw body, whatever its status.
    func control(_ method: String, _ path: String, _ body: String) async throws -> Reply {
        var request = HTTPClientRequest(url: origin + "/sim/" + path)
        request.method = HTTPMethod(rawValue: method)
        request.body = .bytes(ByteBuffer(string: body))
        return try await send(request)
    }

    /// `POST /sim/act` as `user`.
    @discardableResult
    func act(_ user: String, _ verb: String, _ fields: [String: Any], file: StaticString = #filePath,
        line: UInt = #line) async throws -> Reply
    {
        try await sim("POST", "act", fields.merging(["as": user, "verb": verb]) { a, _ in a }, file: file, line: line)
    }

    /// WIQL ids for a query, as engineer.
    func wiql(_ query: String, project: String? = nil, extra: String = "") async throws -> Reply {
        try await call("POST", (project.map { "/" + $0 } ?? "") + "/_apis/wit/wiql" + extra, body: ["query": query])
    }

    func ids(_ reply: Reply) -> [Int] {
        (reply.json["workItems"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
    }

    private func send(_ request: HTTPClientRequest, timeout: TimeInterval = 5) async throws -> Reply {
        let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
        let body = try await response.body.collect(upTo: 16 << 20)
        var headers: [String: String] = [:]
        for (name, value) in response.headers { headers[name] = value }
        return Reply(status: Int(response.status.code), data: Data(body.readableBytesView), headers: headers)
    }
}

extension [String: Any] {
    /// A nested member by a dotted path: `fields.System.Title` is not one (use `field`); `revisedBy.id` is.
    func at(_ path: String) -> Any? {
        var current: Any? = self
        for part in path.split(separator: ".") { current = (current as? [String: Any])?[String(part)] }
        return current
    }

    /// A work item's field by reference name.
    func field(_ name: String) -> Any? { (self["fields"] as? [String: Any])?[name] }
}

enum Fixture {
    static let engineer = "6c1f0e2a-5b1d-4c7e-9a30-000000000101"
    static let alice = "6c1f0e2a-5b1d-4c7e-9a30-000000000102"
    static let lead = "6c1f0e2a-5b1d-4c7e-9a30-000000000103"
    static let tfs = "00000002-0000-8888-8000-000000000000"
    static let webTeam = "6c1f0e2a-5b1d-4c7e-9a30-000000000201"
}
