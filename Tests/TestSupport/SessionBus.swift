import Foundation

/// The bus daemon outlives the static `SessionBus`; it is stopped when the test process exits.
nonisolated(unsafe) private var busDaemonPID: pid_t = 0
/// Its directory (the socket), removed at exit too: tests leave nothing behind.
nonisolated(unsafe) private var busDirectory = ""

/// A private D-Bus session bus with python-dbusmock's notification server on it: a real notification
/// server process for libnotify to talk to. GDBus caches its session connection per process, so one bus
/// serves every test in this process and is set in the environment before the first libnotify call.
public final class SessionBus: @unchecked Sendable {
    public static let shared = Result { try SessionBus() }

    public let directory: URL
    public let address: String
    private let daemon = Process()
    private var mock: Process?
    private var hung: Process?

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tw-bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        address = "unix:path=\(directory.path)/bus"
        let config = directory.appendingPathComponent("bus.conf")
        try Data(Self.configuration(listening: address).utf8).write(to: config)
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(config.path)", "--nofork", "--nosyslog"]
        daemon.standardOutput = FileHandle.nullDevice  // never hold the test runner's pipes open
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        busDaemonPID = daemon.processIdentifier
        busDirectory = directory.path
        atexit {
            if busDaemonPID > 0 { kill(busDaemonPID, SIGTERM) }
            if !busDirectory.isEmpty {
                for file in ["bus", "bus.conf"] { unlink(busDirectory + "/" + file) }
                rmdir(busDirectory)
            }
        }
        setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
        unsetenv("DISPLAY")  // never autolaunch another bus
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: directory.path + "/bus") { usleep(20_000) }
    }

    /// A session bus that starts no services on demand: with dunst installed (the desktop tests need it), the
    /// standard session configuration would start one for a call to a missing notification server, and "no
    /// server" would depend on whether it can open a display.
    public static func configuration(listening address: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>\(address)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }

    deinit {
        stopServers()
        daemon.terminate()
    }

    /// Starts dbusmock's notification_daemon and waits until it owns the name.
    public func startNotificationServer(capabilities: String? = nil) throws {
        stopServers()
        mock = try python(["-m", "dbusmock", "--session", "-t", "notification_daemon"]
            + (capabilities.map { ["-p", #"{"capabilities": "\#($0)"}"#] } ?? []))
        try waitForName()
    }

    /// Starts a process that owns org.freedesktop.Notifications and never answers (no main loop runs).
    public func startHungServer() throws {
        stopServers()
        hung = try python(["-c", """
            import dbus, time
            bus = dbus.SessionBus()
            bus.request_name('org.freedesktop.Notifications')
            time.sleep(600)
            """])
        try waitForName()
    }

    /// Debian's python3 (it has the dbus module), on this bus, with its output discarded.
    private func python(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = arguments
        process.environment = ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    public func stopServers() {
        for process in [mock, hung].compactMap({ $0 }) where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        mock = nil
        hung = nil
        // Wait until the bus has dropped the name, so that the next test sees the new state. (Not `for … where`:
        // that asks the bus a hundred times even when the name is gone at once.)
        var tries = 0
        while tries < 100, nameHasOwner() {
            usleep(20_000)
            tries += 1
        }
    }

    private func waitForName() throws {
        for _ in 0..<250 {
            if nameHasOwner() { return }
            usleep(20_000)
        }
        throw NSError(domain: "SessionBus", code: 1, userInfo: [NSLocalizedDescriptionKey: "no owner for org.freedesktop.Notifications"])
    }

    private func nameHasOwner() -> Bool {
        (try? busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s",
                      "org.freedesktop.Notifications"]))?.contains("true") ?? false
    }

    public func busctl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/busctl")
        process.arguments = ["--address=\(address)", "--json=short"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The Notify calls the mock received, oldest first.
    public func notifyCalls() throws -> [NotifyCall] {
        let text = try busctl(["call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                               "org.freedesktop.DBus.Mock", "GetMethodCalls", "s", "Notify"])
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let data = object["data"] as? [Any], let calls = data.first as? [[Any]]
        else { return [] }
        return calls.compactMap { call in (call.last as? [[String: Any]]).map(NotifyCall.init) }
    }

    /// Waits until the mock has received `count` Notify calls (or the deadline passes).
    public func waitForNotifyCalls(_ count: Int, timeout: TimeInterval = 10) throws -> [NotifyCall] {
        let deadline = Date().addingTimeInterval(timeout)
        var calls = try notifyCalls()
        while calls.count < count, Date() < deadline {
            usleep(50_000)
            calls = try notifyCalls()
        }
        return calls
    }

    /// Makes the mock emit ActionInvoked(id, action), as a click on a bubble's button would.
    public func invokeAction(_ action: String, onNotification id: Int) throws {
        _ = try busctl(["call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                        "org.freedesktop.DBus.Mock", "EmitSignal", "sssav", "org.freedesktop.Notifications", "ActionInvoked",
                        "us", "2", "u", "\(id)", "s", action])
    }

    public func clearCalls() throws {
        _ = try busctl(["call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                        "org.freedesktop.DBus.Mock", "ClearCalls"])
    }
}

/// One Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout) call.
public struct NotifyCall {
    public let appName: String
    public let replacesID: Int
    public let appIcon: String
    public let summary: String
    public let body: String
    public let actions: [String]
    public let hints: [String: Any]

    init(_ arguments: [[String: Any]]) {
        func value(_ index: Int) -> Any? { index < arguments.count ? arguments[index]["data"] : nil }
        appName = value(0) as? String ?? ""
        replacesID = value(1) as? Int ?? -1
        appIcon = value(2) as? String ?? ""
        summary = value(3) as? String ?? ""
        body = value(4) as? String ?? ""
        actions = value(5) as? [String] ?? []
        let raw = value(6) as? [String: [String: Any]] ?? [:]
        hints = raw.mapValues { $0["data"] ?? "" }
    }
}
