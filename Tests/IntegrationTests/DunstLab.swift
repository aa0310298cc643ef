import Foundation
import TestSupport
import XCTest

/// The package's root directory (holding Package.swift), found from the built products.
let packageRoot: URL = {
    var url = productsDirectory
    while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path), url.path != "/" {
        url.deleteLastPathComponent()
    }
    return url
}()

/// Where a test leaves what a person may want to look at (screenshots): `.build/test-output/<name>/`.
func testOutputDirectory(_ name: String) throws -> URL {
    let url = packageRoot.appendingPathComponent(".build/test-output/\(name)")
    try? FileManager.default.removeItem(at: url)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A desktop a person could look at, headless: an X server (Xvfb), a private D-Bus session bus, and dunst — a
/// real notification server that draws bubbles — with what it was sent read back from `dunst -print` and
/// `dunstctl history`, its buttons clicked with `dunstctl action` and its context menu, and screenshots taken
/// with ImageMagick's `import`.
final class DunstLab {
    let directory: URL
    let output: URL
    /// `:N`, chosen by Xvfb among the free ones.
    let display: String
    let busAddress: String
    private let xvfb = Process()
    private let bus = Process()
    private var dunst: Process?
    private var runs = 0
    /// dunst's HOME: the lab's directory, or a home trackwatch was installed into.
    private let home: URL

    /// One notification as dunst received it (`dunst -print`).
    struct Bubble: CustomStringConvertible {
        let id: Int
        let summary: String
        let body: String
        let icon: String
        let desktopEntry: String
        let urgency: String
        /// Action keys and labels, in the order dunst lists them.
        let actions: [(key: String, label: String)]

        var description: String {
            "summary: \(summary)\nbody: \(body)\nurgency: \(urgency)\nactions: "
                + actions.map { "\($0.key)=\"\($0.label)\"" }.joined(separator: ", ") + "\nicon: \(icon)"
        }
    }

    /// - Parameters:
    ///   - stock: Debian's own dunstrc (its icon lookup, its mouse buttons), bubbles kept until closed; otherwise the
    ///     lab's, which finds the icon in the source tree.
    ///   - home: dunst's HOME (the lab's directory by default).
    init(output: URL, stock: Bool = false, home: URL? = nil) throws {
        self.output = output
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tw-dunst-\(UUID().uuidString.prefix(8))")
        self.home = home ?? directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

        // -displayfd 1: Xvfb picks a free display and prints its number once it accepts clients.
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        xvfb.arguments = ["-displayfd", "1", "-screen", "0", "1024x640x24", "-nolisten", "tcp"]
        let number = Pipe()
        xvfb.standardOutput = number
        xvfb.standardError = FileHandle.nullDevice
        try xvfb.run()
        let line = Self.firstLine(of: number.fileHandleForReading)
        guard let screen = Int(line) else { throw LabError("Xvfb did not report a display: \(line)") }
        display = ":\(screen)"

        busAddress = "unix:path=\(directory.path)/bus"
        let busConfig = directory.appendingPathComponent("bus.conf")
        try Data(SessionBus.configuration(listening: busAddress).utf8).write(to: busConfig)  // no dunst started on demand
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--config-file=\(busConfig.path)", "--nofork", "--nosyslog", "--print-address=1"]
        let address = Pipe()
        bus.standardOutput = address
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        _ = Self.firstLine(of: address.fileHandleForReading)  // printed once it listens

        // A private configuration: bubbles stay until closed (timeout 0), the icon from the source tree, and a
        // context menu ("dmenu") that picks the line named in the file `choice`.
        let dmenu = directory.appendingPathComponent("dmenu")
        try Data("#!/bin/sh\ntee '\(directory.path)/menu' | grep -F -m1 -- \"$(cat '\(directory.path)/choice')\"\n".utf8).write(to: dmenu)
        chmod(dmenu.path, 0o755)
        let config = """
            [global]
                width = 460
                origin = top-right
                offset = 12x12
                font = DejaVu Sans 10
                markup = full
                format = "<b>%s</b>\\n%b"
                icon_position = left
                max_icon_size = 48
                icon_path = \(packageRoot.path)/data/icons/hicolor/scalable/apps
                dmenu = \(dmenu.path)
                history_length = 100
                frame_width = 2
            [urgency_low]
                timeout = 0
            [urgency_normal]
                timeout = 0
            [urgency_critical]
                timeout = 0
            """
        try Data((stock ? try Self.stockConfiguration(dmenu: dmenu.path) : config).utf8)
            .write(to: directory.appendingPathComponent("dunstrc"))
        try startDunst()
    }

    deinit {
        stopDunst()
        for process in [bus, xvfb] where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    var environment: [String: String] { ["DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": busAddress] }

    func startDunst() throws {
        runs += 1
        let log = directory.appendingPathComponent("print-\(runs).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dunst")
        process.arguments = ["-config", directory.appendingPathComponent("dunstrc").path, "-print"]
        process.environment = environment.merging(["HOME": home.path, "PATH": "/usr/bin:/bin"]) { _, new in new }
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = FileHandle.nullDevice
        try process.run()
        dunst = process
        guard waitUntil({ self.nameOwner() != nil }) else { throw LabError("dunst did not take org.freedesktop.Notifications") }
    }

    func stopDunst() {
        guard let dunst, dunst.isRunning else { return }
        dunst.terminate()
        dunst.waitUntilExit()
        _ = waitUntil { self.nameOwner() == nil }
    }

    /// Stops dunst and starts a new one, as a person restarting their notification server would.
    func restartDunst() throws {
        let before = nameOwner()
        stopDunst()
        try startDunst()
        XCTAssertNotEqual(nameOwner(), before, "a new server process")
    }

    /// The unique bus name owning org.freedesktop.Notifications, or nil.
    func nameOwner() -> String? {
        let result = try? runProduct("/usr/bin/busctl", ["--address=\(busAddress)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                         "org.freedesktop.DBus", "GetNameOwner", "s", "org.freedesktop.Notifications"],
                                     timeout: 10)
        guard let result, result.status == 0 else { return nil }
        return result.stdout.split(separator: "\"").dropFirst().first.map(String.init)
    }

    /// Every notification dunst received, across its restarts, oldest first.
    func received() -> [Bubble] {
        (1...max(runs, 1)).flatMap { run -> [Bubble] in
            let text = (try? String(contentsOf: directory.appendingPathComponent("print-\(run).log"), encoding: .utf8)) ?? ""
            return text.components(separatedBy: "\n{\n").compactMap(Self.parse)
        }
    }

    /// Waits until dunst received a notification matching `condition`, and returns the latest such.
    func waitForBubble(timeout: TimeInterval = 20, _ condition: (Bubble) -> Bool) -> Bubble? {
        var found: Bubble?
        _ = waitUntil(timeout: timeout) {
            found = self.received().last(where: condition)
            return found != nil
        }
        return found
    }

    func dunstctl(_ arguments: [String]) throws -> String {
        let result = try runProduct("/usr/bin/dunstctl", arguments, environment: environment, timeout: 20)
        guard result.status == 0 else { throw LabError("dunstctl \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }

    /// How many bubbles dunst shows now.
    func displayed() throws -> Int {
        let count = try dunstctl(["count", "displayed"])
        return Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// `dunstctl history`: what dunst closed, newest first, as (summary, body, icon path, id).
    func history() throws -> [(summary: String, body: String, icon: String, id: Int)] {
        let json = try JSONSerialization.jsonObject(with: Data(try dunstctl(["history"]).utf8)) as? [String: Any]
        let entries = (json?["data"] as? [[Any]])?.first as? [[String: [String: Any]]] ?? []
        return entries.map { entry in
            (entry["summary"]?["data"] as? String ?? "", entry["body"]?["data"] as? String ?? "",
             entry["icon_path"]?["data"] as? String ?? "", entry["id"]?["data"] as? Int ?? -1)
        }
    }

    /// Opens dunst's context menu and picks the line containing `line` (e.g. `Mute this record (SAMPL00000005`),
    /// as a person would pick it from dmenu.
    func chooseFromMenu(_ line: String) throws {
        try Data(line.utf8).write(to: directory.appendingPathComponent("choice"))
        _ = try dunstctl(["context"])
    }

    /// The lines dunst last offered in its context menu.
    var lastMenu: String { (try? String(contentsOf: directory.appendingPathComponent("menu"), encoding: .utf8)) ?? "" }

    /// A PNG of the screen, or of the bubbles only (`cropToBubbles`), in the output directory, taken once dunst
    /// has drawn its window (a screenshot taken at once may still be blank).
    @discardableResult
    func screenshot(_ name: String, cropToBubbles: Bool = false) throws -> URL {
        let file = output.appendingPathComponent(name)
        guard bubbleWindow() != nil else { throw LabError("dunst shows no window") }
        let drawn = try waitUntil {
            // The window's place is read again each time: dunst may still move or resize it after mapping it.
            guard let geometry = self.bubbleWindow() else { return false }
            let arguments = ["-window", "root"] + (cropToBubbles ? ["-crop", geometry, "+repage"] : []) + [file.path]
            let result = try runProduct("/usr/bin/import", arguments, environment: environment, timeout: 30)
            guard result.status == 0 else { throw LabError("import: \(result.stderr)") }
            let brightest = try runProduct("/usr/bin/identify", ["-format", "%[max]", file.path], timeout: 30).stdout
            return (Double(brightest) ?? 0) > 0
        }
        if !drawn { throw LabError("the screen stayed black") }
        return file
    }

    /// Debian's /etc/xdg/dunst/dunstrc as it is, but that bubbles stay until closed and the menu is the lab's.
    static func stockConfiguration(dmenu: String) throws -> String {
        try String(contentsOfFile: "/etc/xdg/dunst/dunstrc", encoding: .utf8).split(separator: "\n",
                                                                                    omittingEmptySubsequences: false)
            .map { line in
                let key = line.drop { $0 == " " }.prefix { $0 != " " && $0 != "=" }
                return key == "timeout" ? "    timeout = 0" : key == "dmenu" ? "    dmenu = \(dmenu)" : String(line)
            }.joined(separator: "\n")
    }

    /// A click with mouse `button` (1 left, 2 middle) in the middle of dunst's window, as a person's.
    func click(button: Int) throws {
        guard let geometry = bubbleWindow() else { throw LabError("dunst shows no window") }
        let numbers = geometry.split { "x+".contains($0) }.compactMap { Int($0) }  // W, H, X, Y
        let result = try runProduct("/usr/bin/xdotool",
                                    ["mousemove", "\(numbers[2] + numbers[0] / 2)", "\(numbers[3] + numbers[1] / 2)",
                                                         "click", "\(button)"], environment: environment, timeout: 20)
        guard result.status == 0 else { throw LabError("xdotool: \(result.stderr)") }
    }

    /// `WxH+X+Y` of dunst's window once it is mapped, or nil.
    private func bubbleWindow() -> String? {
        var geometry: String?
        _ = waitUntil {
            let tree = (try? runProduct("/usr/bin/xwininfo", ["-root", "-tree"], environment: self.environment, timeout: 10))?.stdout ?? ""
            // `     0x200002 "Dunst": ("Dunst" "Dunst")  447x74+567+10  +567+10`
            guard let line = tree.split(separator: "\n").first(where: { $0.contains("\"Dunst\": (") }),
                let id = line.split(separator: " ").first,
                let field = line.split(separator: " ").first(where: { $0.contains("x") && $0.contains("+") && $0.first?.isNumber == true }),
                let state = try? runProduct("/usr/bin/xwininfo", ["-id", String(id)], environment: self.environment, timeout: 10),
                state.stdout.contains("Map State: IsViewable")
            else { return false }
            geometry = String(field)
            return true
        }
        return geometry
    }

    private static func parse(_ block: String) -> Bubble? {
        func field(_ name: String, until next: String) -> String? {
            guard let start = block.range(of: "\t\(name): '"), let end = block.range(of: "'\n\t\(next):", range: start.upperBound..<block.endIndex)
            else { return nil }
            return String(block[start.upperBound..<end.lowerBound])
        }
        func line(_ name: String) -> String? {
            block.split(separator: "\n").first { $0.hasPrefix("\t\(name): ") }.map { String($0.dropFirst(name.count + 3)) }
        }
        guard let summary = field("summary", until: "body"), let body = field("body", until: "icon"),
            let id = line("id").flatMap({ Int($0) }), let urgency = line("urgency")
        else { return nil }
        var actions: [(String, String)] = []
        if let start = block.range(of: "\tactions: {\n"), let end = block.range(of: "\n\t}", range: start.upperBound..<block.endIndex) {
            for entry in block[start.upperBound..<end.lowerBound].split(separator: "\n") {
                let parts = entry.split(separator: "\"").map(String.init)  // \t\t"key": "label"
                if parts.count >= 4 { actions.append((parts[1], parts[3])) }
            }
        }
        return Bubble(id: id, summary: summary, body: body, icon: field("icon", until: "raw_icon set") ?? "",
                      desktopEntry: field("desktop_entry", until: "category") ?? "", urgency: urgency, actions: actions)
    }

    static func firstLine(of handle: FileHandle) -> String {
        var line = Data()
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    struct LabError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
