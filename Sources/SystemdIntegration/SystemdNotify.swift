import CSystemd
import TrackwatchCore
#if canImport(Glibc)
import Glibc
#endif

/// sd_notify(3): readiness, status, watchdog and stop messages to the service manager. Every call is a
/// no-op when `NOTIFY_SOCKET` is unset (not started by systemd), so it is safe to call unconditionally.
///
/// A message is `KEY=value` lines, so a line break in a value would be a further assignment: a status text
/// holding a server's error message could send `WATCHDOG=trigger` (systemd kills the daemon) or forge
/// `STATUS=`. Every value therefore leaves `send` as one line without control characters, at most
/// `maximumValueBytes` long, whoever the caller is.
public final class SystemdNotify: Sendable {
    /// systemd keeps the status text in memory and shows it in `systemctl status`: a screenful is plenty.
    public static let maximumValueBytes = 1024

    public init() {}

    public func ready() { send([("READY", "1")]) }
    public func status(_ text: String) { send([("STATUS", text)]) }
    public func watchdog() { send([("WATCHDOG", "1")]) }
    public func stopping() { send([("STOPPING", "1")]) }

    /// `RELOADING=1` with `MONOTONIC_USEC=`, which systemd 253+ requires for Type=notify-reload (252 ignores it).
    public func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        send([("RELOADING", "1"), ("MONOTONIC_USEC", "\(Int(now.tv_sec) * 1_000_000 + Int(now.tv_nsec) / 1_000)")])
    }

    /// Seconds between required `WATCHDOG=1` messages, from `WATCHDOG_USEC` (and `WATCHDOG_PID`), or `nil`.
    public var watchdogInterval: Double? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return Double(microseconds) / 1_000_000
    }

    /// The datagram for `assignments`: one `KEY=value` line each, every value made one safe, bounded line.
    public static func message(_ assignments: [(key: String, value: String)]) -> String {
        assignments.map { "\($0.key)=\(SafeText.oneLine($0.value, maxUTF8: maximumValueBytes))" }.joined(separator: "\n")
    }

    private func send(_ assignments: [(key: String, value: String)]) { _ = sd_notify(0, Self.message(assignments)) }
}
