import Foundation
@testable import TrackwatchApp
import XCTest

final class PasswordCommandTests: XCTestCase {
    func test_hangingCommand_isStoppedAtTheTimeout() {
        let started = Date()
        XCTAssertThrowsError(try runPasswordCommand("sleep 30", environment: ["PATH": "/usr/bin:/bin"], timeout: 1)) { error in
            XCTAssertTrue("\(error)".contains("did not finish within 1 s"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    /// Item 9: a timeout stops the whole process group, not only `sh`: a child in the background, and one that
    /// ignores SIGTERM (SIGKILL follows). Found by their unique `sleep` arguments in /proc.
    func test_timeout_stopsEveryProcessTheCommandStarted() throws {
        let marker = String(Int.random(in: 100_000...999_999))
        let command = "sleep 300.\(marker) & trap '' TERM; sleep 299.\(marker); echo never"
        XCTAssertThrowsError(try runPasswordCommand(command, environment: ["PATH": "/usr/bin:/bin"], timeout: 1))
        // SIGKILL is delivered asynchronously: await the processes' end rather than look once.
        let deadline = Date().addingTimeInterval(10)
        var left = Self.processes(containing: marker)
        while !left.isEmpty && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            left = Self.processes(containing: marker)
        }
        XCTAssertEqual(left, [], "processes the password command started outlived its timeout")
        for pid in left { kill(pid_t(pid) ?? 0, SIGKILL) }
    }

    /// Pids whose command line contains `text`, zombies excepted (a zombie's command line is empty).
    static func processes(containing text: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.allSatisfy(\.isNumber) }.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains(text)
        }
    }

    func test_childGetsNoSecretInItsEnvironmentOrArguments() throws {
        // The child sees exactly the environment passed in: here it reports whether a variable exists.
        let secret = try runPasswordCommand("echo \"${TRACKWATCH_PROBE:-absent}\"", environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(secret.value, "absent")
    }
}
