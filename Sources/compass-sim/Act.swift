import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import SimulatorKit
import NIOHTTP1

/// Plays a colleague through the real REST API: log in, Edit with an action, Commit the fields, log off.
struct Act: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply an action to a record as another user, through the REST API.",
        discussion: "Example: compass-sim act --url http://127.0.0.1:8190 --user lead --record SAMPL00000001 --action Resolve")

    @Option(help: "Server URL as printed by serve; /ccmweb/rest is appended unless present.") var url: String
    @Option(help: "Who acts.") var user: String
    @Option(help: "Password (default: the user name; admin's is empty).") var password: String?
    @Option(help: "Record id, e.g. SAMPL00000001.") var record: String
    @Option(help: "Action: Modify, Assign, Open, Resolve, Close, Re_open, Postpone, Duplicate, Delete, …") var action: String
    @Option(name: .customLong("set"), help: "Field=Value to set (repeatable).") var fields: [String] = []
    @Option(name: .customLong("set-file"), help: "Field=PATH: set the field to the file's contents (for values too long for a command line).")
    var fileFields: [String] = []
    @Option(help: ArgumentHelp(
        "Date the history entry at this UTC time (yyyy-MM-dd HH:mm:ss) instead of the server's clock.",
        discussion: "A hand-edited entry, or one from a database server whose clock is wrong (2099-01-01 00:00:00)."))
    var at: String?
    @Option var repo = "2.0.0"
    @Option var db = "SAMPL"

    func run() throws {
        if let at, !Self.isTimestamp(at) { throw failure("--at must be yyyy-MM-dd HH:mm:ss, got \(at)") }
        let act = ActClient()
        defer { act.shutDown() }
        let client = act.client
        let root = url.hasSuffix("/ccmweb/rest") ? url : url.trimmingCharacters(in: ["/"]) + "/ccmweb/rest"
        let records = "\(root)/repos/\(repo)/databases/\(db)/records/Defect/\(record)"
        let login = try call(client, .POST, "\(root)/authenticate", token: nil, body: [
            "username": user, "password": password ?? (user == "admin" ? "" : user), "repo": repo, "db": db])
        guard let token = login["token"] as? String else { throw failure("login returned no token") }
        defer { _ = try? call(client, .POST, "\(root)/authenticate/logoff", token: token, body: nil) }
        let before = try call(client, .GET, records, token: token, body: nil)
        if action.lowercased() == "delete" {
            _ = try call(client, .DELETE, records + "?actionName=Delete", token: token, body: nil)
            print("\(record): Delete by \(user)")
            return
        }
        _ = try call(client, .PATCH, records + "?operation=Edit&actionName=\(action)", token: token, body: [:])
        var pairs = fields.map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
        for item in fileFields {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let data = FileManager.default.contents(atPath: parts[1]) else { throw failure("cannot read \(item)") }
            pairs.append([parts[0], String(decoding: data, as: UTF8.self)])
        }
        // compass-sim reads this header (and only compass-sim): the entry's time instead of its clock's.
        let dated = at.map { ["X-Compass-Sim-Timestamp": $0] } ?? [:]
        let committed = try call(client, .PATCH, records + "?operation=Commit", token: token, headers: dated, body: [
            "fields": pairs.map { ["name": $0[0], "value": $0.count > 1 ? $0[1] : ""] }])
        print("\(record): \(action) by \(user) (\(state(before)) → \(state(committed)))")
    }

    private static func isTimestamp(_ text: String) -> Bool {
        let digits = text.utf8.enumerated().allSatisfy { index, byte in
            [4, 7].contains(index) ? byte == UInt8(ascii: "-") : index == 10 ? byte == UInt8(ascii: " ")
                : [13, 16].contains(index) ? byte == UInt8(ascii: ":") : (48...57).contains(byte)
        }
        return text.utf8.count == 19 && digits
    }

    private func state(_ record: [String: Any]) -> String {
        let fields = record["fields"] as? [[String: Any]] ?? []
        return fields.first { $0["name"] as? String == "State" }?["value"] as? String ?? "?"
    }

    private func call(_ client: HTTPClient, _ method: HTTPMethod, _ url: String, token: String?,
                      headers: [String: String] = [:], body: Any?) throws -> [String: Any] {
        var request = try HTTPClient.Request(url: url, method: method)
        request.headers.add(name: "Content-Type", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body { request.body = .data(try JSONSerialization.data(withJSONObject: body)) }
        let response = try client.execute(request: request, deadline: .now() + .seconds(30)).wait()
        let data = response.body.map { Data($0.readableBytesView) } ?? Data()
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        guard (200..<300).contains(Int(response.status.code)) else {
            throw failure("\(method.rawValue) \(url) → HTTP \(response.status.code): \(object["message"] as? String ?? "")")
        }
        return object
    }

    private func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("compass-sim act: \(message)\n".utf8))
        return ExitCode.failure
    }
}
