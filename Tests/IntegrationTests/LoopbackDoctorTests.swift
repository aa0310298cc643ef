import Foundation
import XCTest

/// doctor on a plain http:// URL to this machine (issue 36.15): the token goes to whoever listens on the port, so
/// doctor says whose socket that is — ✔ for the user's own server, ⚠ for a free port or another user's.
final class LoopbackDoctorTests: XCTestCase {
    private func doctorLines(_ workspace: Workspace) throws -> [String] {
        try workspace.trackwatch(["doctor"]).stdout.split(separator: "\n").map(String.init)
            .filter { $0.contains("plain http://") }
    }

    func test_doctor_onMyOwnLocalServer_saysItIsMine() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: sim.url)
        let port = try XCTUnwrap(sim.url.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
        XCTAssertEqual(try doctorLines(workspace),
                       ["✔ \(sim.url): plain http:// to port \(port) of this machine, served by a process of yours"])
    }

    func test_doctor_onAFreeLocalPort_warnsThatAnotherUserCouldBindIt() throws {
        let port = try freePort()
        let workspace = try Workspace(serverURL: "http://127.0.0.1:\(port)")
        let lines = try doctorLines(workspace)
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertTrue(lines.first?.hasPrefix("⚠ http://127.0.0.1:\(port): plain http:// to port \(port) of this machine, where nothing listens now: another user who binds it answers the next poll and receives its token or password") == true, "\(lines)")
        XCTAssertTrue(lines.first?.contains("use https://") == true, "\(lines)")
    }

    func test_doctor_onAnotherUsersLocalServer_namesThem() throws {
        guard getuid() == 0 else { throw XCTSkip("starting a listener as another user needs root") }
        let port = try freePort()
        // nobody listens on the port: a process of another user, as any local account could start one.
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        listener.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "/usr/bin/python3", "-c",
                              "import socket, time; s = socket.socket(); s.bind(('127.0.0.1', \(port))); s.listen(); time.sleep(60)"]
        try listener.run()
        defer { listener.terminate(); listener.waitUntilExit() }
        let workspace = try Workspace(serverURL: "http://localhost:\(port)")
        XCTAssertTrue(try waitUntil(timeout: 10) { try self.doctorLines(workspace).first?.contains("which user nobody") == true })
        let lines = try doctorLines(workspace)
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertTrue(lines.first?.hasPrefix("⚠ http://localhost:\(port): plain http:// to port \(port) of this machine, which user nobody (uid ") == true, "\(lines)")
        XCTAssertTrue(lines.first?.contains("listens on, not you: they answer every poll and receive its token or password") == true, "\(lines)")
    }

    func test_doctor_onHTTPS_orAnotherHost_saysNothingOfLocalPorts() throws {
        for url in ["https://127.0.0.1:9", "http://compass.example.com:8190"] {
            XCTAssertFalse(try doctorLines(try Workspace(serverURL: url)).contains { $0.contains("this machine") }, url)
        }
    }

    /// A loopback port nothing listens on (the kernel's pick, released).
    private func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw XCTSkip("no loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
