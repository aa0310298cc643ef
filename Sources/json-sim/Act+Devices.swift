import ArgumentParser
import JSONListSimulator
import SimulatorKit

/// The device tracker's verbs, through `POST /devices`, `POST /devices/{id}` and `DELETE /devices/{id}`.
struct Checkout: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check a device out in a colleague's name.")

    @OptionGroup var server: ServerOption
    @Option(help: "The device's id.") var device: Int
    @Option(name: .customLong("as"), help: "Who checks it out.") var name: String

    func run() throws {
        let body: JSONValue = ["isCheckedOut": true, "lastCheckedOutBy": .string(name)]
        let device = try SimCall.send(.POST, "\(server.base)/devices/\(device)", body: body)
        print("device \(self.device) (\(device?["device"]?.string ?? "?")): checked out by \(name)")
    }
}

struct Checkin: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check a device back in.")

    @OptionGroup var server: ServerOption
    @Option(help: "The device's id.") var device: Int

    func run() throws {
        let device = try SimCall.send(.POST, "\(server.base)/devices/\(device)", body: ["isCheckedOut": false])
        print("device \(self.device) (\(device?["device"]?.string ?? "?")): checked in")
    }
}

struct AddDevice: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add a device.")

    @OptionGroup var server: ServerOption
    @Option(help: "Its name, e.g. \"Pixel 9\".") var device: String
    @Option(help: "Its operating system, e.g. \"Android 15\".") var os: String
    @Option(help: "Its manufacturer.") var manufacturer: String

    func run() throws {
        let body: JSONValue = ["device": .string(device), "os": .string(os), "manufacturer": .string(manufacturer)]
        let added = try SimCall.send(.POST, "\(server.base)/devices", body: body)
        print("device \(added?["id"]?.int ?? 0) (\(device)): added")
    }
}

struct DeleteDevice: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete a device.")

    @OptionGroup var server: ServerOption
    @Option(help: "The device's id.") var device: Int

    func run() throws {
        _ = try SimCall.send(.DELETE, "\(server.base)/devices/\(device)")
        print("device \(device): deleted")
    }
}
