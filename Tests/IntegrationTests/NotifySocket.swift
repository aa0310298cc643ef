import Foundation
import Glibc
import XCTest

/// A datagram socket standing in for systemd's `NOTIFY_SOCKET`: collects what the daemon sends with sd_notify.
final class NotifySocket {
    let path: String
    private let descriptor: Int32
    private(set) var messages: [String] = []

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tw-notify-\(UUID().uuidString.prefix(8))").path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Waits until a received datagram satisfies `condition`; returns it, or nil after `timeout` seconds.
    @discardableResult
    func waitFor(timeout: TimeInterval = 30, _ condition: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var checked = 0
        while true {
            while checked < messages.count {
                defer { checked += 1 }
                if condition(messages[checked]) { return messages[checked] }
            }
            if Date() > deadline { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 {
                // One datagram may carry several assignments (READY=1\nSTATUS=…): keep each line.
                messages += String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").map(String.init)
            }
        }
    }

    /// Forgets what was seen so far, so that the next `await` only looks at new datagrams.
    func skipReceived() { _ = waitFor(timeout: 0) { _ in false }; messages.removeAll() }

    /// Asks `daemon` to poll now (SIGUSR1) and waits for that poll's `STATUS=Last poll …` line, which must contain
    /// `text` (`1 change;`): the line, or nil and a test failure. Bubbles are handed over before a poll finishes.
    @discardableResult
    func poll(_ daemon: Process, expecting text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        skipReceived()
        kill(daemon.processIdentifier, SIGUSR1)
        let status = waitFor { $0.hasPrefix("STATUS=Last poll") && $0.contains(text) }
        XCTAssertNotNil(status, "\(messages)", file: file, line: line)
        return status
    }
}
