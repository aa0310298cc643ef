import ArgumentParser
import JSONListSimulator
import SimulatorKit

/// The generic list's verbs, through `/sim/items`.
struct AddItem: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add an item to the generic list (the next id).")

    @OptionGroup var server: ServerOption
    @OptionGroup var fields: FieldOptions

    func run() throws {
        let added = try SimCall.send(.POST, "\(server.base)/sim/items", body: .object(try fields.object()))
        print("item \(added?["id"].map { String(decoding: $0.bytes, as: UTF8.self) } ?? "?"): added")
    }
}

struct SetItem: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Change fields of an item of the generic list.")

    @OptionGroup var server: ServerOption
    @Option(help: "The item's id.") var id: String
    @OptionGroup var fields: FieldOptions

    func run() throws {
        _ = try SimCall.send(.PATCH, "\(server.base)/sim/items/\(id)", body: .object(try fields.object()))
        print("item \(id): updated")
    }
}

struct RemoveItem: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove an item from the generic list.")

    @OptionGroup var server: ServerOption
    @Option(help: "The item's id.") var id: String

    func run() throws {
        _ = try SimCall.send(.DELETE, "\(server.base)/sim/items/\(id)")
        print("item \(id): removed")
    }
}

/// The recipe trackers' verbs, through `/sim/issues/{tracker}`.
struct TrackerOption: ParsableArguments {
    @Option(help: "github, gitlab or jira.") var tracker: String
    @Option(help: "The issue's number (WID-3 or 3 for Jira).") var issue: String

    func validate() throws {
        guard Tracker(rawValue: tracker) != nil else { throw ValidationError("--tracker is github, gitlab or jira") }
    }
}

struct Assign: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Assign an issue of a recipe tracker.")

    @OptionGroup var server: ServerOption
    @OptionGroup var target: TrackerOption
    @Option(help: "dana (the credentials' user), lee or sam; empty: unassign.") var to: String

    func run() throws {
        let body: JSONValue = ["assignee": to.isEmpty ? .null : .string(to)]
        _ = try SimCall.send(.PATCH, "\(server.base)/sim/issues/\(target.tracker)/\(target.issue)", body: body)
        print("\(target.tracker) issue \(target.issue): \(to.isEmpty ? "unassigned" : "assigned to \(to)")")
    }
}

struct SetIssue: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Change an issue of a recipe tracker.",
        discussion: "--set title=…, --set state=open|closed, --set-json labels='[\"bug\"]', --set-json assignee=null."
    )

    @OptionGroup var server: ServerOption
    @OptionGroup var target: TrackerOption
    @OptionGroup var fields: FieldOptions

    func run() throws {
        let url = "\(server.base)/sim/issues/\(target.tracker)/\(target.issue)"
        _ = try SimCall.send(.PATCH, url, body: .object(try fields.object()))
        print("\(target.tracker) issue \(target.issue): updated")
    }
}
