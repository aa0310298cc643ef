import ArgumentParser
import JSONListSimulator
import SimulatorKit

/// The class directory's verbs, as the colleague: HTTP Basic with their netid and password (`pw-NETID` unless
/// `--password` says otherwise).
struct Colleague: ParsableArguments {
    @Option(help: "The colleague's netid.") var netid: String
    @Option(help: "Their password (default pw-NETID).") var password: String?

    var credentials: (String, String) { (netid, password ?? "pw-\(netid)") }
}

struct Join: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A colleague joins: creates their entry (POST /entries/create).",
        discussion: "The roster's newcomers nj901, nj902 and nj903 have passwords but no entry yet.")

    @OptionGroup var server: ServerOption
    @OptionGroup var colleague: Colleague
    @Option(help: "Their DUID.") var duid: Int
    @Option(help: "First name.") var first: String
    @Option(help: "Last name.") var last: String
    @Option(help: "Role: Professor, TA, Student or Other.") var role = "Student"
    @Option(help: "Team, e.g. \"Team Kestrel\" (empty: none).") var team = ""
    @OptionGroup var fields: FieldOptions

    func run() throws {
        let base: JSONValue = [
            "DUID": .int(duid), "netid": .string(colleague.netid), "fName": .string(first), "lName": .string(last),
            "email": .string("\(colleague.netid)@duke.edu"), "role": .string(role), "team": .string(team),
        ]
        var entry = base.object ?? JSONObject()
        for member in try fields.object().members { entry[member.key] = member.value }
        _ = try SimCall.send(
            .POST, "\(server.base)/entries/create", body: .object(entry),
            basic: colleague.credentials)
        print("\(colleague.netid) (\(first) \(last)): joined\(team.isEmpty ? "" : " \(team)")")
    }
}

struct ChangeTeam: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A colleague changes team: reads their entry, sets team, PUTs it back.")

    @OptionGroup var server: ServerOption
    @OptionGroup var colleague: Colleague
    @Option(help: "The new team (empty: none).") var team: String

    func run() throws {
        var changes = JSONObject()
        changes["team"] = .string(team)
        try EditEntry.edit(server, colleague, changes)
        print("\(colleague.netid): now in \(team.isEmpty ? "no team" : team)")
    }
}

struct EditEntry: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A colleague edits their entry: reads it, sets the fields, PUTs it back.")

    @OptionGroup var server: ServerOption
    @OptionGroup var colleague: Colleague
    @OptionGroup var fields: FieldOptions

    func run() throws {
        try Self.edit(server, colleague, try fields.object())
        print("\(colleague.netid): entry updated")
    }

    static func edit(_ server: ServerOption, _ colleague: Colleague, _ changes: JSONObject) throws {
        let all = try SimCall.send(.GET, "\(server.base)/entries/all", basic: colleague.credentials)
        guard var entry = all?.array?.first(where: { $0["netid"]?.string == colleague.netid })?.object else {
            throw ActFailure(description: "\(colleague.netid) has no entry: join first")
        }
        for member in changes.members { entry[member.key] = member.value }
        _ = try SimCall.send(
            .PUT, "\(server.base)/entries/\(colleague.netid)", body: .object(entry),
            basic: colleague.credentials)
    }
}
