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

    func test_childGetsNoSecretInItsEnvironmentOrArguments() throws {
        // The child sees exactly the environment passed in: here it reports whether a variable exists.
        let secret = try runPasswordCommand("echo \"${TRACKWATCH_PROBE:-absent}\"", environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(secret.value, "absent")
    }
}
