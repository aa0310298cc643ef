import Foundation
import TestSupport
import XCTest

/// GNOME Shell 43, headless, as a person would meet it: `gnome-shell --headless --virtual-monitor` on a private
/// session bus and a stand-in system bus, in a private HOME, with a test-only extension that turns on unsafe mode
/// (so `org.gnome.Shell.Eval` and its Screenshot answer). What the message tray holds, what the banner and the
/// message list show (the text before GNOME's ellipsis, the lines of an expanded banner and their direction, the
/// visible buttons) is read back through Eval; a virtual pointer hovers and clicks; screenshots go to
/// `.build/test-output/gnome/`. The recipe and its pitfalls: shared/reference/real-desktops.md, "GNOME Shell".
final class GnomeLab {
    let directory: URL
    let home: URL
    let output: URL
    let busAddress: String
    private let bus = Process()
    private let systemBus = Process()
    private let shell = Process()
    private var stopped = false

    /// The banner GNOME shows now (`tw.banner()` in `script`).
    struct Banner: Decodable {
        let title: String
        /// The title as drawn: cut with `…` where GNOME cuts it.
        let titleShown: String
        let body: String
        /// The body's lines as drawn: one ellipsised line, or (expanded) up to six wrapped lines.
        let bodyShown: Shown
        let expanded: Bool
        let urgency: Int
        let buttons: [Button]
        let at: [Int]
        let box: [Int]
        let icon: String?
        let iconFound: Bool
        let titleRTL: Bool
    }

    struct Shown: Decodable {
        let lines: [Line]
        /// Whether text is left out (past the last line shown, or at an ellipsis).
        let cut: Bool
        var text: [String] { lines.map(\.text) }
    }

    struct Line: Decodable {
        let text: String
        let rtl: Bool
    }

    struct Button: Decodable {
        let label: String
        let at: [Int]
    }

    /// What the message tray holds (`tw.tray()`).
    struct Tray: Decodable {
        let state: Int
        let showing: String?
        let queued: [String]
        let sources: [Source]
        var notifications: [Notification] { sources.flatMap(\.notifications) }
    }

    struct Source: Decodable {
        let title: String
        let app: String?
        let notifications: [Notification]
    }

    struct Notification: Decodable {
        let title: String
        let body: String
        let urgency: Int
        let actions: [String]
        let icon: String?
        let iconFound: Bool
    }

    /// One card of the message list (`tw.list()`), as drawn.
    struct Card: Decodable {
        let title: String
        let titleShown: String
        let bodyShown: String
        let box: [Int]
    }

    /// Starts the shell; `prepareHome` runs first, in the private HOME (GNOME reads desktop entries at start).
    init(output: URL, prepareHome: (URL) throws -> Void = { _ in }) throws {
        self.output = output
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tw-gnome-\(UUID().uuidString.prefix(8))")
        home = directory.appendingPathComponent("home")
        busAddress = "unix:path=\(directory.path)/bus"
        try prepare()
        try prepareHome(home)
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// For the daemon and the tools: the lab's buses and HOME, nothing of the desktop the tests run in.
    var environment: [String: String] {
        [
            "DBUS_SESSION_BUS_ADDRESS": busAddress, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(directory.path)/system-bus",
            "HOME": home.path, "XDG_RUNTIME_DIR": directory.appendingPathComponent("runtime").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "GSETTINGS_BACKEND": "keyfile", "DISPLAY": "", "WAYLAND_DISPLAY": "",
        ]
    }

    // MARK: - Reading and acting through Eval

    /// Runs JavaScript in the shell; returns what the expression gave, as text.
    @discardableResult
    func eval(_ code: String) throws -> String {
        let result = try runProduct(
            "/usr/bin/busctl",
            [
                "--address=\(busAddress)", "--json=short", "call", "org.gnome.Shell",
                "/org/gnome/Shell", "org.gnome.Shell", "Eval", "s", code,
            ], timeout: 30)
        guard result.status == 0,
            let reply = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let data = reply["data"] as? [Any], data.count == 2, let value = data[1] as? String
        else { throw LabError("Eval: \(result.stdout)\(result.stderr)") }
        guard data[0] as? Bool == true else { throw LabError("Eval threw: \(value)") }
        return value
    }

    /// Runs `expression` (JSON.stringify'd in the shell) and decodes it; `nil` for JavaScript's `null`.
    func read<T: Decodable>(_ type: T.Type, _ expression: String) throws -> T? {
        let json = try eval("JSON.stringify(\(expression))")
        guard let text = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String,
            text != "null"
        else { return nil }
        return try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    func tray() throws -> Tray { try XCTUnwrap(try read(Tray.self, "global._tw.tray()")) }

    /// The tray for a failure message.
    func describeTray() -> String { (try? tray()).map { "\($0)" } ?? "(the tray could not be read)" }
    func banner() throws -> Banner? { try read(Banner.self, "global._tw.banner()") }

    /// Waits until the banner shows something that satisfies `condition`, and returns it.
    func waitForBanner(timeout: TimeInterval = 20, _ condition: (Banner) -> Bool) throws -> Banner? {
        var found: Banner?
        _ = try waitUntil(timeout: timeout) {
            found = try self.banner().flatMap { condition($0) ? $0 : nil }
            return found != nil
        }
        return found
    }

    /// Moves the pointer over the banner and waits until it is expanded, its buttons drawn (GNOME shows them only
    /// while the pointer is over it).
    func hoverBanner() throws -> Banner? {
        guard let banner = try banner() else { return nil }
        try eval("global._tw.move(\(banner.at[0]), \(banner.at[1])); 1")
        // Expanded, and drawn as it stays: the same lines, buttons and size on two reads in a row (the expansion
        // is animated, and a label is laid out anew when it gets its width).
        var previous: Banner?
        return try waitForBanner { banner in
            defer { previous = banner }
            guard banner.expanded, let previous else { return false }
            return previous.bodyShown.text == banner.bodyShown.text && previous.box == banner.box
                && previous.buttons.map(\.at) == banner.buttons.map(\.at)
        }
    }

    func move(to point: [Int]) throws { try eval("global._tw.move(\(point[0]), \(point[1])); 1") }

    /// A left click where the pointer is moved to, as a person's.
    func click(at point: [Int]) throws { try eval("global._tw.move(\(point[0]), \(point[1])); global._tw.click(); 1") }

    /// Opens the message list (the date menu) and returns its cards once drawn, newest first.
    func openMessageList() throws -> [Card] {
        try move(to: [1_200, 700])  // off any banner: a banner under the pointer stays
        try eval("Main.panel.statusArea.dateMenu.menu.open(); 1")
        var cards: [Card] = []
        _ = try waitUntil {
            cards =
                try self.read([Card].self, "Main.panel.statusArea.dateMenu.menu.isOpen ? global._tw.list() : null")
                ?? []
            return !cards.isEmpty && cards.allSatisfy { $0.box[2] > 0 }
        }
        return cards
    }

    /// Back to an empty desktop between tests: the menu closed, every notification dismissed, no banner.
    func reset() throws {
        try eval(
            "Main.panel.statusArea.dateMenu.menu.close(); Main.messageTray.getSources().forEach(s => s.destroy()); 1")
        try move(to: [1_200, 700])
        guard
            try waitUntil({
                let tray = try self.tray(); return tray.state == 0 && tray.sources.isEmpty
            })
        else {
            throw LabError("the message tray did not empty: \(try tray())")
        }
    }

    /// A PNG of the screen, or of `crop` (`[x, y, width, height]`), in the output directory.
    @discardableResult
    func screenshot(_ name: String, crop: [Int]? = nil) throws -> URL {
        let file = output.appendingPathComponent(name)
        let full = directory.appendingPathComponent("screen.png")
        let result = try runProduct(
            "/usr/bin/busctl",
            [
                "--address=\(busAddress)", "call", "org.gnome.Shell.Screenshot",
                "/org/gnome/Shell/Screenshot", "org.gnome.Shell.Screenshot", "Screenshot",
                "bbs", "false", "false", full.path,
            ], timeout: 30)
        guard result.status == 0, FileManager.default.fileExists(atPath: full.path) else {
            throw LabError("Screenshot: \(result.stdout)\(result.stderr)")
        }
        let region = crop.map { ["-crop", "\($0[2])x\($0[3])+\($0[0])+\($0[1])", "+repage"] } ?? []
        let converted = try runProduct("/usr/bin/convert", [full.path] + region + [file.path], timeout: 30)
        guard converted.status == 0 else { throw LabError("convert: \(converted.stderr)") }
        try? FileManager.default.removeItem(at: full)
        return file
    }

    // MARK: - Start and stop

    private func prepare() throws {
        let files = FileManager.default
        for path in [
            "runtime", "services", "home/.config/glib-2.0/settings", "home/.local/share/applications",
            "home/.local/share/gnome-shell/extensions/unsafe@trackwatch",
        ] {
            try files.createDirectory(at: directory.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        chmod(directory.appendingPathComponent("runtime").path, 0o700)
        // Settings in a key file (GSETTINGS_BACKEND=keyfile): no dconf service to start and stop.
        try write(
            "[org/gnome/shell]\nenabled-extensions=['unsafe@trackwatch']\n",
            to: "home/.config/glib-2.0/settings/keyfile")
        let extensionDirectory = "home/.local/share/gnome-shell/extensions/unsafe@trackwatch/"
        let metadata = #"{"uuid": "unsafe@trackwatch", "name": "unsafe mode for tests", "description": "tests", "#
            + #""shell-version": ["43"]}"#
        try write(metadata, to: extensionDirectory + "metadata.json")
        try write(Self.unsafeExtension, to: extensionDirectory + "extension.js")
        // The bus starts only GNOME's own notification proxy: dunst and xfce4-notifyd, installed for other tests,
        // are D-Bus-activatable as org.freedesktop.Notifications too, and must not take the name.
        let service = "/usr/share/dbus-1/services/org.gnome.Shell.Notifications.service"
        try files.copyItem(
            atPath: service,
            toPath: directory.appendingPathComponent("services/org.gnome.Shell.Notifications.service").path)
        try write(
            SessionBus.configuration(listening: busAddress)
                .replacingOccurrences(
                    of: "<auth>", with: "<servicedir>\(directory.path)/services</servicedir>\n  <auth>"), to: "bus.conf"
        )
        // GNOME Shell asks logind on the system bus at start (the image has /run/systemd/seats): a bus is
        // enough, nothing needs to answer on it.
        try write(SessionBus.configuration(listening: "unix:path=\(directory.path)/system-bus"), to: "system-bus.conf")
    }

    private func start() throws {
        for (process, config) in [(bus, "bus.conf"), (systemBus, "system-bus.conf")] {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
            process.arguments = [
                "--config-file=\(directory.path)/\(config)", "--nofork", "--nosyslog", "--print-address=1",
            ]
            process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
            let address = Pipe()
            process.standardOutput = address
            process.standardError = FileHandle.nullDevice
            try process.run()
            _ = DunstLab.firstLine(of: address.fileHandleForReading)  // printed once it listens
        }
        let log = directory.appendingPathComponent("gnome-shell.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/gnome-shell")
        shell.arguments = ["--headless", "--virtual-monitor", "1280x800", "--no-x11"]
        shell.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        shell.standardOutput = try FileHandle(forWritingTo: log)
        shell.standardError = try FileHandle(forWritingTo: log)
        try shell.run()
        guard waitUntil(timeout: 60, { self.serverName() == "gnome-shell" }) else {
            throw LabError("GNOME Shell did not take org.freedesktop.Notifications: \(tail(log))")
        }
        // Ready: the extension ran, the start-up banners are gone — and still so a second later: a bubble sent
        // while the shell's own start-up banner is up gets no banner at all.
        let ready = """
            global.context.unsafe_mode && !Main.layoutManager._startingUp && !Main.overview.visible \
            && Main.messageTray._notificationState === 0 && Main.messageTray.getSources().length === 0
            """
        var since: Date?
        guard
            waitUntil(
                timeout: 60,
                {
                    guard (try? self.eval(ready)) == "true" else { since = nil; return false }
                    since = since ?? Date()
                    return Date().timeIntervalSince(since!) >= 1
                })
        else { throw LabError("GNOME Shell did not become ready: \(tail(log))") }
        try eval(Self.script)
    }

    /// The name the notification server gives (`GetServerInformation`), or nil.
    func serverName() -> String? {
        let result = try? runProduct(
            "/usr/bin/busctl",
            [
                "--address=\(busAddress)", "--json=short", "call", "org.freedesktop.Notifications",
                "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                "GetServerInformation",
            ], timeout: 10)
        guard let result, result.status == 0,
            let reply = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else { return nil }
        return (reply["data"] as? [Any])?.first as? String
    }

    /// Stops the shell, then whatever the lab's bus started for it (GNOME's notification proxy: every process
    /// whose environment holds this lab's bus address), then both buses; removes the lab's directory.
    func stop() {
        guard !stopped else { return }
        stopped = true
        if shell.isRunning { stopAndWait(shell) }
        for pid in processes(withEnvironment: "DBUS_SESSION_BUS_ADDRESS=\(busAddress)") { kill(pid, SIGTERM) }
        _ = waitUntil(timeout: 10) {
            self.processes(withEnvironment: "DBUS_SESSION_BUS_ADDRESS=\(self.busAddress)").isEmpty
        }
        for process in [bus, systemBus] where process.isRunning { stopAndWait(process) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// This user's processes (but this one) whose environment holds `variable` exactly.
    private func processes(withEnvironment variable: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let needle = Data((variable + "\0").utf8)
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard pid != getpid(), let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else {
                return false
            }
            return environ.starts(with: needle) || environ.range(of: Data([0]) + needle) != nil
        }
    }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(path))
    }

    private func tail(_ file: URL) -> String {
        String(((try? String(contentsOf: file, encoding: .utf8)) ?? "").suffix(2_000))
    }

    struct LabError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
