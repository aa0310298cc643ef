import ArgumentParser
import AsyncHTTPClient
import Foundation
import JSONListSimulator
import NIOCore
import NIOHTTP1
import SimulatorKit

/// Plays a colleague: each verb goes through the server's own API (the device tracker's, the directory's with the
/// colleague's password) or, for the generic list and the recipe trackers, through its `/sim` control routes.
struct Act: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Change the server's data as a colleague would, between two polls.",
        discussion: "Example: json-sim act checkout --url http://127.0.0.1:8192 --device 1 --as \"Sam Carter\"",
        subcommands: [
            Checkout.self, Checkin.self, AddDevice.self, DeleteDevice.self,
            Join.self, ChangeTeam.self, EditEntry.self,
            AddItem.self, SetItem.self, RemoveItem.self,
            Assign.self, SetIssue.self,
        ])
}

/// Options every verb takes.
struct ServerOption: ParsableArguments {
    @Option(help: "The server's URL as serve printed it.") var url: String

    var base: String { url.hasSuffix("/") ? String(url.dropLast()) : url }
}

/// `--set FIELD=TEXT` (a string) and `--set-json FIELD=JSON` (any JSON value), in order.
struct FieldOptions: ParsableArguments {
    @Option(name: .customLong("set"), help: "FIELD=TEXT: set a field to a string (repeatable).")
    var strings: [String] = []
    @Option(
        name: .customLong("set-json"), help: "FIELD=JSON: set a field to a JSON value, e.g. priority=2 (repeatable).")
    var values: [String] = []

    func object() throws -> JSONObject {
        var object = JSONObject()
        for pair in strings {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw ValidationError("--set takes FIELD=TEXT") }
            object[parts[0]] = .string(parts[1])
        }
        for pair in values {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let value = try? JSONValue.parse(Array(parts[1].utf8)) else {
                throw ValidationError("--set-json takes FIELD=JSON, e.g. priority=2 or assignee=null")
            }
            object[parts[0]] = value
        }
        return object
    }
}

/// A refused request, as the command's error.
struct ActFailure: Error, CustomStringConvertible {
    let description: String
}

/// One HTTP exchange with the server.
enum SimCall {
    static func send(
        _ method: HTTPMethod, _ url: String, body: JSONValue? = nil, basic: (String, String)? = nil
    ) throws -> JSONValue? {
        let act = ActClient()
        defer { act.shutDown() }
        let client = act.client
        var request = try HTTPClient.Request(url: url, method: method)
        request.headers.add(name: "User-Agent", value: "json-sim-act")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(body.bytes)
        }
        if let (user, password) = basic {
            request.headers.add(
                name: "Authorization", value: "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
        }
        let response = try client.execute(request: request, deadline: .now() + .seconds(30)).wait()
        let bytes = response.body.map { Array($0.readableBytesView) } ?? []
        let json = try? JSONValue.parse(bytes)
        guard (200..<300).contains(Int(response.status.code)) else {
            let message = json?["message"]?.string ?? String(decoding: bytes.prefix(200), as: UTF8.self)
            throw ActFailure(description: "\(method.rawValue) \(url) → HTTP \(response.status.code): \(message)")
        }
        return json
    }
}
