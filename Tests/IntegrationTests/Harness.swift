import CompassClient
import Foundation
import TestSupport
import TrackerHTTP
import XCTest

/// The directory holding the built executables (next to the test bundle).
let productsDirectory: URL = {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: url.appendingPathComponent("trackwatch").path), url.path != "/" {
        url.deleteLastPathComponent()
    }
    return url
}()

/// A finished run of one of the binaries.
struct RunResult {
    let status: Int32
    let stdout: String
    let stderr: String
    /// The bytes as written, before any UTF-8 repair.
    var rawStdout = Data()
    var rawStderr = Data()
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// The `--json` lines as objects.
    var objects: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}

/// Runs an executable to completion, with a deadline so that a hang fails the test instead of blocking CI.
func runProduct(_ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60)
    throws -> RunResult
{
    let process = Process()
    // A product name, or an absolute path for a system tool.
    process.executableURL = executable.hasPrefix("/") ? URL(fileURLWithPath: executable) : productsDirectory.appendingPathComponent(executable)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env.merge(environment) { _, new in new }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    try process.run()
    // Read while it runs: a full pipe would block the child.
    final class Box: @unchecked Sendable { var data = Data() }  // written by one thread, read after the group
    let stdoutBox = Box(), stderrBox = Box()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { stdoutBox.data = out.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { stderrBox.data = err.fileHandleForReading.readDataToEndOfFile() }
    if finished.wait(timeout: .now() + timeout) == .timedOut {
        kill(process.processIdentifier, SIGKILL)  // a hung child may ignore SIGTERM
        process.waitUntilExit()  // terminationStatus traps while it runs
        XCTFail("\(executable) \(arguments) did not finish in \(timeout) s")
    }
    group.wait()
    return RunResult(status: process.terminationStatus, stdout: String(decoding: stdoutBox.data, as: UTF8.self),
                     stderr: String(decoding: stderrBox.data, as: UTF8.self), rawStdout: stdoutBox.data, rawStderr: stderrBox.data)
}

/// Stops a process the test started and waits until it is gone — so that a daemon still shutting down (logging
/// off, closing its store) does not write into its workspace while the workspace is being removed, which left
/// `trackwatch-test-*` directories behind. SIGKILL after 10 s.
func stopAndWait(_ process: Process) {
    guard process.isRunning else { return }
    process.terminate()
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
}

/// Checks `condition` every 50 ms until it holds or `timeout` seconds passed; whether it held.
/// A click on the first bubble of `bus`: what Open was given, once the recording opener (`recordOpens`) has
/// written it; nil when nothing was opened in time.
func openFirstBubble(on bus: SessionBus, recordedIn opened: URL) throws -> String? {
    try bus.invokeAction("default", onNotification: 1)
    let read = { (try? String(contentsOf: opened, encoding: .utf8)) ?? "" }
    return waitUntil { read().hasSuffix("\n") } ? read() : nil
}

func waitUntil(timeout: TimeInterval = 20, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(50_000)
    }
    return try condition()
}

/// A compass-sim process on a free loopback port, stopped when the value is released.
final class Simulator {
    private let server: SimProcess
    var url: String { server.url }
    private var http: AsyncHTTPTransport { server.http }

    init(_ arguments: [String] = []) throws {
        server = try SimProcess("compass-sim", arguments)
    }

    /// `compass-sim act`: a colleague acting through the real API.
    @discardableResult
    func act(_ user: String, _ record: String, _ action: String, set fields: [String] = [],
             setFile fileFields: [String] = [], at: String? = nil) throws -> RunResult {
        let result = try runProduct("compass-sim", ["act", "--url", url, "--user", user, "--record", record, "--action", action]
                             + fields.flatMap { ["--set", $0] } + fileFields.flatMap { ["--set-file", $0] }
                             + (at.map { ["--at", $0] } ?? []))
        XCTAssertEqual(result.status, 0, "act failed: \(result.stderr)")
        return result
    }

    /// The simulator's request statistics (`GET /ccmweb/sim/stats`).
    func stats() throws -> [String: Any] {
        let response = try http.sendWaiting(HTTPRequest(method: .get, url: url + "/ccmweb/sim/stats", timeout: 10))
        return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
    }

    /// Arms a compass-sim fault: the next `count` answers to `route` go wrong as `kind` says.
    /// `after` answers go right first; `headers` are added to the faulty answer; `message` is the JSON `message`
    /// of a `status` answer (a hostile server's text).
    func inject(_ kind: String, on route: String, count: Int = 1, status: Int? = nil, after: Int? = nil, size: Int? = nil,
                headers: [String: String]? = nil, message: String? = nil) throws {
        var fault: [String: Any] = ["route": route, "kind": kind, "count": count]
        fault["status"] = status
        fault["after"] = after
        fault["size"] = size
        fault["headers"] = headers
        fault["message"] = message
        let body = try JSONSerialization.data(withJSONObject: fault)
        try post("/ccmweb/sim/faults", body: String(decoding: body, as: UTF8.self))
    }

    /// The simulator forgets every token and result set, as a restarted server does.
    func restart() throws { try post("/ccmweb/sim/restart") }

    /// The names of the queries stored in Personal Queries (any user's).
    func storedQueryNames() throws -> [String] {
        (try stats()["storedQueries"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    /// Saves a query (columns id, Headline, State; one field filter) in `user`'s Personal Queries, as a
    /// person would in the Compass client, through the REST API.
    func storePersonalQuery(user: String, password: String, name: String, filter: String) throws {
        let api = url + "/ccmweb/rest"
        let db = api + "/repos/2.0.0/databases/SAMPL"
        let json = [("Content-Type", "application/json")]
        let login = try http.sendWaiting(HTTPRequest(method: .post, url: api + "/authenticate", headers: json, body: Array(
            #"{"username":"\#(user)","password":"\#(password)","repo":"2.0.0","db":"SAMPL"}"#.utf8), timeout: 10))
        let token = try (JSONSerialization.jsonObject(with: Data(login.body)) as? [String: Any])?["token"] as? String ?? ""
        let auth = [("Authorization", "Bearer \(token)")]
        let folders = try http.sendWaiting(HTTPRequest(method: .get, url: db + "/workspace/folders", headers: auth, timeout: 10))
        let roots = try JSONSerialization.jsonObject(with: Data(folders.body)) as? [[String: Any]] ?? []
        // Found by what it is, as the server's language may name it otherwise.
        let personal = roots.first { $0["isWritable"] as? Bool == true }?["dbId"] as? String ?? ""
        let fields = ["id", "Headline", "State"].map { #"{"fieldPathName":"\#($0)","isShown":true,"sortType":"NO_SORT","sortOrder":0}"# }
        let definition = #"{"name":"\#(name)","dbId":"","dbIdParent":"\#(personal)","primaryEntityDefName":"Defect","queryFieldDefs":[\#(fields.joined(separator: ","))],"filterNode":{"boolOp":"BOOL_OP_AND","fieldFilters":[\#(filter)],"childFilterNodes":[]}}"#
        let created = try http.sendWaiting(HTTPRequest(method: .post, url: db + "/workspace/queryDefs", headers: auth + json,
                                                body: Array(definition.utf8), timeout: 10))
        XCTAssertEqual(created.status, 201, String(decoding: created.body, as: UTF8.self))
        _ = try http.sendWaiting(HTTPRequest(method: .post, url: api + "/authenticate/logoff", headers: auth, timeout: 10))
    }

    func post(_ path: String, body: String? = nil) throws { try server.control(.post, path, body) }
}

/// An isolated trackwatch installation: config, password file and state directory in a temp dir.
final class Workspace {
    let directory: URL
    var serverURL: String
    var extraServerLines: [String] = []
    var user = "engineer"
    var interval = "10s"
    /// `[server] timeout`.
    var timeout = "5s"
    var extraPollLines: [String] = []
    /// Appended after [poll]: further tables.
    var trailer = ""
    /// The whole configuration, instead of the one built from the fields above (`[[server]]` profiles).
    var customConfig: String?

    init(serverURL: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackwatch-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.serverURL = serverURL
        try writeConfig()
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var configPath: String { directory.appendingPathComponent("config.toml").path }
    var stateDirectory: String { directory.appendingPathComponent("state").path }

    var passwordFile: String { directory.appendingPathComponent("password").path }

    /// A configuration that signs in with a personal access token (`token_file`) instead of a password.
    func usePersonalAccessToken(_ secret: String, database: String = "SAMPL") throws {
        let token = directory.appendingPathComponent("token")
        try Data("\(secret)\n".utf8).write(to: token)
        chmod(token.path, 0o600)
        customConfig = """
            [server]
            url = "\(serverURL)"
            repo = "2.0.0"
            database = "\(database)"
            username = "engineer"
            token_file = "\(token.path)"
            """
        try writeConfig()
    }

    func writeConfig() throws {
        _ = try secretFile("password", user)
        let text = customConfig ?? """
            [server]
            url = "\(serverURL)"
            repo = "2.0.0"
            database = "SAMPL"
            username = "\(user)"
            password_file = "\(passwordFile)"
            timeout = "\(timeout)"
            \(extraServerLines.joined(separator: "\n"))
            [poll]
            interval = "\(interval)"
            \(extraPollLines.joined(separator: "\n"))
            \(trailer)
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: configPath))
    }

    var environment: [String: String] {
        ["XDG_STATE_HOME": directory.appendingPathComponent("xdg-state").path,
         "XDG_CONFIG_HOME": directory.appendingPathComponent("xdg-config").path]
    }

    /// An `opener` that appends each URL it is given to the file `opened`, for tests of clicks on bubbles.
    func recordingOpener() throws -> (script: URL, opened: URL) {
        let opened = directory.appendingPathComponent("opened")
        let script = directory.appendingPathComponent("opener.sh")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(opened.path)'\n".utf8).write(to: script)
        chmod(script.path, 0o755)
        return (script, opened)
    }

    /// Bubbles' Open recorded by `recordingOpener` in place of a browser: the file each URL is appended to.
    func recordOpens() throws -> URL {
        let (opener, opened) = try recordingOpener()
        trailer = "[notify]\nopener = \"\(opener.path)\""
        return opened
    }

    func trackwatch(_ arguments: [String]) throws -> RunResult {
        try runProduct("trackwatch", arguments + ["--config", configPath], environment: environment)
    }
}

extension Workspace {
    /// A 0600 file holding `secret`, for `password_file` and `token_file`.
    func secretFile(_ name: String, _ secret: String) throws -> String {
        let file = directory.appendingPathComponent(name)
        try Data("\(secret)\n".utf8).write(to: file)
        chmod(file.path, 0o600)
        return file.path
    }

    /// `trackwatch check --json`, expected to succeed: its change objects.
    func checkChanges(_ file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let result = try trackwatch(["check", "--json"])
        XCTAssertEqual(result.status, 0, "check failed: \(result.stderr)", file: file, line: line)
        return result.objects
    }

    /// `trackwatch run` whose bubbles go to `bus`'s notification server.
    func startDaemon(
        notify: NotifySocket, stderr: Any, bus: SessionBus, environment: [String: String] = [:]
    ) throws -> Process {
        try startDaemon(
            notify: notify, stderr: stderr,
            environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { _, bus in bus })
    }
    /// `trackwatch run` on this workspace outside systemd, reporting to `notify`, by default without a
    /// notification server (polls go on without one) and with its output discarded; the caller stops it.
    /// - Parameters:
    ///   - stdout, stderr: a `Pipe` the test reads, or a `FileHandle`.
    ///   - environment: set on top (a notification server's bus, `TZ`, `WATCHDOG_USEC`, …).
    func startDaemon(
        notify: NotifySocket, stdout: Any = FileHandle.nullDevice, stderr: Any = FileHandle.nullDevice,
        environment overrides: [String: String] = [:]
    ) throws -> Process {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("trackwatch")
        process.arguments = ["run", "--config", configPath]
        var environment = ProcessInfo.processInfo.environment.merging(self.environment) { _, new in new }
        environment["NOTIFY_SOCKET"] = notify.path
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        environment["JOURNAL_STREAM"] = nil
        environment["INVOCATION_ID"] = nil
        environment.merge(overrides) { _, new in new }
        process.environment = environment
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        return process
    }
}

/// `record kind` of each change of `check --json`, e.g. `DEMO-4 modified`, `3 changed`.
func changeSummaries(_ changes: [[String: Any]]) -> [String] {
    changes.map { "\($0["record"] as? String ?? "?") \($0["kind"] as? String ?? "?")" }
}

/// The text without trackwatch's directional isolates (U+2068, U+2069), for assertions on the words alone.
func plain(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{2068}", with: "").replacingOccurrences(of: "\u{2069}", with: "")
}
